import crypto from "node:crypto";
import bs58 from "bs58";
import { delay, http, HttpResponse } from "msw";
import nacl from "tweetnacl";
import { DEMO_SOLANA_RPC_URL } from "../../app/sources/wallet-demo";
import { simDelay } from "./sim-delay";
import { simulatedCoinPrice } from "./prices";
import { hexDigest, memo, simulateTrading, type SimEvent } from "./wallet-sim";

/**
 * A simulator of a Solana JSON-RPC node (getSignaturesForAddress with before/limit, getTransaction
 * with jsonParsed encoding, single or batched) for demo mode and tests. Any address gets a
 * deterministic history seeded by the address: about six months of swaps routed through Jupiter,
 * Raydium, Orca and pump.fun between USDC/USDT and SOL (native lamports), JUP, BONK, RAY, WIF and a
 * pump.fun token, many token for token (no stablecoin leg), some paying or paid SOL partly through
 * the wallet's wSOL account (SOL and WSOL on one side), a few deposits,
 * winners and losers, in the shapes a real node answers (pre/post token balances, lamport balances,
 * fee). Unknown methods answer JSON-RPC error -32601.
 *
 * Failure simulation, by the wallets of three fixed ed25519 seeds (bytes all 1, 2 or 3), so tests can
 * sign for them: seed 1 → HTTP 500;  seed 2 → never answers;  seed 3 → malformed JSON;  seed 4 →
 * flaky: every second reading of its history fails with HTTP 503.
 */
export const SOLANA_FAILURE_SEEDS = {
  rpc500: new Uint8Array(32).fill(1),
  timeout: new Uint8Array(32).fill(2),
  malformed: new Uint8Array(32).fill(3),
  flaky: new Uint8Array(32).fill(4),
} as const;
const flakyReads = new Map<string, number>();
const FAILURES = new Map(
  Object.entries(SOLANA_FAILURE_SEEDS).map(([mode, seed]) => [
    bs58.encode(nacl.sign.keyPair.fromSeed(seed).publicKey),
    mode,
  ]),
);

type Mint = { mint: string; decimals: number };
export const PUMP_MINT = "9QfRbSzqS1mXy8hmyGMzAcMWxYBpqxZf6ZWH3Bvfpump";
const SOL = "So11111111111111111111111111111111111111112";
const TOKENS: Mint[] = [
  { mint: SOL, decimals: 9 },
  { mint: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", decimals: 6 },
  { mint: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", decimals: 5 },
  { mint: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R", decimals: 6 },
  { mint: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm", decimals: 6 },
  // A pump.fun token (its mints end in "pump"); no table price: the price simulator makes one up.
  { mint: PUMP_MINT, decimals: 6 },
];
const STABLES: Mint[] = [
  { mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", decimals: 6 },
  { mint: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", decimals: 6 },
];
const BY_MINT = new Map([...TOKENS, ...STABLES].map((t) => [t.mint, t]));
const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
// The programs that route the swaps: the adapter reads only balances, whichever it was.
export const SWAP_PROGRAMS = {
  jupiter: "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4",
  raydium: "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8",
  orca: "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc",
  pumpfun: "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P",
} as const;
/** Which program a simulated transaction goes through: pump.fun for its tokens, else by turns. */
function programOf(e: SimEvent): string {
  if ("deposit" in e) return SWAP_PROGRAMS.jupiter;
  if (e.outToken === PUMP_MINT || e.inToken === PUMP_MINT) return SWAP_PROGRAMS.pumpfun;
  return [SWAP_PROGRAMS.jupiter, SWAP_PROGRAMS.raydium, SWAP_PROGRAMS.orca][e.index % 3]!;
}
const FEE = 5000;
// A public RPC node's answer time for one request (a batch counts once), scaled by SIM_DELAY_FACTOR.
const RPC_LATENCY_MS = 80;
const SOL_BALANCE = 25 * 1e9;

function pubkey(...parts: string[]) {
  return bs58.encode(crypto.createHash("sha256").update(parts.join(":")).digest());
}
function signature(...parts: string[]) {
  return bs58.encode(crypto.createHash("sha512").update(parts.join(":")).digest());
}

type Tx = { signature: string; slot: number; blockTime: number; result: unknown };
/** txs newest first; trades: the ledger trades the history holds (a swap's legs other than stablecoins). */
/** bothForms: the swaps with SOL and WSOL on one side (DECISIONS 221). */
type History = { txs: Tx[]; trades: number; bothForms: number };
const cache = memo<History>();
const bySignature = new Map<string, Tx>();

function tokenBalance(accountIndex: number, mint: Mint, owner: string, amount: number) {
  const units =
    BigInt(Math.max(0, Math.round(amount * 10 ** Math.min(mint.decimals, 6)))) *
    10n ** BigInt(Math.max(0, mint.decimals - 6));
  const ui = Number(units) / 10 ** mint.decimals;
  return {
    accountIndex,
    mint: mint.mint,
    owner,
    programId: TOKEN_PROGRAM,
    uiTokenAmount: { amount: units.toString(), decimals: mint.decimals, uiAmount: ui, uiAmountString: String(ui) },
  };
}

export function demoSolanaHistory(owner: string): History {
  return cache(owner, () => {
    const events = simulateTrading(
      `solana:${owner}`,
      // At the price simulator's price of the mint then, as the price source values it.
      TOKENS.map((t) => ({
        key: t.mint,
        price: (time: number) => simulatedCoinPrice(`solana:${t.mint}`, new Date(time * 1000))!,
      })),
      STABLES.map((s) => s.mint),
    );
    const balances = new Map<string, number>(); // the owner's token balances by mint
    let lamports = SOL_BALANCE;
    const txs: Tx[] = [];
    let trades = 0;
    let bothForms = 0;
    events.forEach((e: SimEvent) => {
      const sig = signature("solana", owner, String(e.index));
      const slot = 330_000_000 + Math.floor((e.time - 1746057600) / 0.4);
      // A deposit is the exchange's transaction: it signs and pays the fee, the wallet only receives.
      const deposit = "deposit" in e;
      const keys: { pubkey: string; signer: boolean; writable: boolean; source: "transaction" }[] = deposit
        ? [
            { pubkey: pubkey("exchange"), signer: true, writable: true, source: "transaction" },
            { pubkey: owner, signer: false, writable: true, source: "transaction" },
          ]
        : [{ pubkey: owner, signer: true, writable: true, source: "transaction" }];
      const ownerAt = deposit ? 1 : 0;
      const pre: ReturnType<typeof tokenBalance>[] = [];
      const post: ReturnType<typeof tokenBalance>[] = [];
      const preLamports = deposit ? [SOL_BALANCE * 100, lamports] : [lamports];
      let ownerLamportDelta = deposit ? 0 : -FEE;
      // Whether the owner's balance really moved (a token balance cannot go below zero; SOL below
      // 0.01 is rent, not a leg), for the trade count.
      // `wrapped`: SOL held as wSOL in the owner's token account, not as lamports.
      const move = (mint: Mint, delta: number, counterparty: string, wrapped = false): boolean => {
        if (mint.mint === SOL && !wrapped) {
          ownerLamportDelta += Math.round(delta * 1e9);
          return Math.abs(delta) >= 0.01;
        }
        const account = pubkey("ata", owner, mint.mint);
        keys.push({ pubkey: account, signer: false, writable: true, source: "transaction" });
        const idx = keys.length - 1;
        preLamports.push(2_039_280);
        const before = balances.get(mint.mint) ?? 0;
        const after = Math.max(0, before + delta);
        balances.set(mint.mint, after);
        pre.push(tokenBalance(idx, mint, owner, before));
        post.push(tokenBalance(idx, mint, owner, after));
        // The pool's side of the same transfer.
        const poolAccount = pubkey("pool", counterparty, mint.mint);
        keys.push({ pubkey: poolAccount, signer: false, writable: true, source: "transaction" });
        preLamports.push(2_039_280);
        pre.push(tokenBalance(keys.length - 1, mint, counterparty, 5_000_000));
        post.push(tokenBalance(keys.length - 1, mint, counterparty, 5_000_000 - delta));
        return after !== before;
      };
      if ("deposit" in e) {
        move(BY_MINT.get(e.deposit)!, e.amount, pubkey("exchange"));
      } else {
        const poolAuthority = pubkey("pool-authority", [e.outToken, e.inToken].sort().join("-"));
        // As Jupiter and Raydium do, a SOL sale takes up to half from the wallet's wSOL account when
        // it holds some, and every third SOL buy leaves 40 % of it there: SOL and WSOL on one side
        // (DECISIONS 221). Only when both parts are a leg (0.01 SOL or more).
        const sol = BY_MINT.get(SOL)!;
        const wsolHeld = balances.get(SOL) ?? 0;
        const fromWsol = e.outToken === SOL ? Math.min(wsolHeld, e.outAmount / 2) : 0;
        const wrappedOut = fromWsol >= 0.01 && e.outAmount - fromWsol >= 0.01 ? fromWsol : 0;
        const wrappedIn = e.inToken === SOL && e.index % 3 === 0 && e.inAmount * 0.4 >= 0.01 ? e.inAmount * 0.4 : 0;
        const sent = move(BY_MINT.get(e.outToken)!, -(e.outAmount - wrappedOut), poolAuthority);
        const received = move(BY_MINT.get(e.inToken)!, e.inAmount - wrappedIn, poolAuthority);
        const wrapped =
          (wrappedOut > 0 && move(sol, -wrappedOut, poolAuthority, true)) ||
          (wrappedIn > 0 && move(sol, wrappedIn, poolAuthority, true));
        // A swap: each leg that is not a stablecoin is a trade (the wSOL part one more); a
        // one-legged move is none.
        if (sent && received)
          trades +=
            [e.outToken, e.inToken].filter((m) => !STABLES.some((st) => st.mint === m)).length + (wrapped ? 1 : 0);
        if (sent && received && wrapped) bothForms++;
      }
      const program = programOf(e);
      keys.push(
        { pubkey: program, signer: false, writable: false, source: "transaction" },
        { pubkey: TOKEN_PROGRAM, signer: false, writable: false, source: "transaction" },
      );
      preLamports.push(1_141_440, 934_087_680);
      // Keep the simulated wallet solvent in SOL for fees and native sells.
      if (lamports + ownerLamportDelta < 0.05 * 1e9) lamports += SOL_BALANCE;
      preLamports[ownerAt] = lamports;
      const postLamports = [...preLamports];
      postLamports[ownerAt] = lamports + ownerLamportDelta;
      if (deposit) postLamports[0] = preLamports[0]! - FEE;
      lamports = postLamports[ownerAt]!;
      const result = {
        slot,
        blockTime: e.time,
        version: 0,
        meta: {
          err: null,
          status: { Ok: null },
          fee: FEE,
          preBalances: preLamports,
          postBalances: postLamports,
          preTokenBalances: pre,
          postTokenBalances: post,
          innerInstructions: [],
          logMessages: [`Program ${program} invoke [1]`, `Program ${program} success`],
          rewards: [],
          loadedAddresses: { writable: [], readonly: [] },
          computeUnitsConsumed: 120_000,
        },
        transaction: {
          signatures: [sig],
          message: {
            accountKeys: keys,
            instructions: [
              {
                programId: program,
                accounts: keys.slice(0, -2).map((k) => k.pubkey),
                data: bs58.encode(Buffer.from(hexDigest("ix", sig).slice(0, 16), "hex")),
                stackHeight: null,
              },
            ],
            recentBlockhash: pubkey("blockhash", String(slot)),
            addressTableLookups: [],
          },
        },
      };
      const tx = { signature: sig, slot, blockTime: e.time, result };
      txs.push(tx);
      bySignature.set(sig, tx);
    });
    txs.reverse();
    return { txs, trades, bothForms };
  });
}

type RpcCall = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };

function answer(call: RpcCall) {
  const id = call.id ?? null;
  const ok = (result: unknown) => ({ jsonrpc: "2.0", result, id });
  const params = Array.isArray(call.params) ? call.params : [];
  if (call.method === "getSignaturesForAddress") {
    const address = String(params[0] ?? "");
    const opts = (params[1] ?? {}) as { before?: string; limit?: number };
    const { txs } = demoSolanaHistory(address);
    let start = 0;
    if (opts.before) {
      const at = txs.findIndex((t) => t.signature === opts.before);
      start = at < 0 ? txs.length : at + 1;
    }
    // SIM_SOLANA_PAGE_SIZE answers shorter pages than asked (a node may), so tests page a short history.
    const limit = Math.min(
      1000,
      Math.max(1, Number(opts.limit) || 1000),
      Number(process.env.SIM_SOLANA_PAGE_SIZE) || 1000,
    );
    return ok(
      txs.slice(start, start + limit).map((t) => ({
        signature: t.signature,
        slot: t.slot,
        err: null,
        memo: null,
        blockTime: t.blockTime,
        confirmationStatus: "finalized",
      })),
    );
  }
  if (call.method === "getTransaction") {
    return ok(bySignature.get(String(params[0] ?? ""))?.result ?? null);
  }
  return { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id };
}

function failureOf(calls: RpcCall[]): string | undefined {
  for (const c of calls) {
    const first = Array.isArray(c.params) ? c.params[0] : undefined;
    if (typeof first === "string" && FAILURES.has(first)) return FAILURES.get(first);
    // getTransaction asks by signature: find whose history it belongs to.
    if (c.method === "getTransaction" && typeof first === "string") {
      const tx = bySignature.get(first) as
        (Tx & { result: { transaction: { message: { accountKeys: { pubkey: string }[] } } } }) | undefined;
      const owner = tx?.result.transaction.message.accountKeys[0]?.pubkey;
      if (owner && FAILURES.has(owner)) return FAILURES.get(owner);
    }
  }
  return undefined;
}

export function solanaHandlers() {
  return [
    http.post(DEMO_SOLANA_RPC_URL, async ({ request }) => {
      let body: RpcCall | RpcCall[];
      try {
        body = (await request.json()) as RpcCall | RpcCall[];
      } catch {
        return HttpResponse.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
      }
      const calls = Array.isArray(body) ? body : [body];
      await simDelay(RPC_LATENCY_MS);
      const failure = failureOf(calls);
      if (failure === "rpc500")
        return new HttpResponse("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
      if (failure === "timeout") await delay("infinite");
      if (failure === "malformed")
        return new HttpResponse('{"jsonrpc":"2.0","result":[{"signature":"5x', {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      const firstPage = calls.find(
        (c) => c.method === "getSignaturesForAddress" && !(c.params?.[1] as { before?: string } | undefined)?.before,
      );
      if (failure === "flaky" && firstPage) {
        const address = String(firstPage.params![0]);
        const reads = (flakyReads.get(address) ?? 0) + 1;
        flakyReads.set(address, reads);
        if (reads % 2 === 0)
          return HttpResponse.json(
            { jsonrpc: "2.0", error: { code: -32005, message: "Node is behind" }, id: firstPage.id ?? null },
            { status: 503 },
          );
      }
      const answers = calls.map(answer);
      return HttpResponse.json(Array.isArray(body) ? answers : answers[0]);
    }),
  ];
}
