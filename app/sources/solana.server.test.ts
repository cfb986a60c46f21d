import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUMP_MINT, solanaHandlers, SWAP_PROGRAMS } from "../../test/mocks/solana";
import { DEMO_SOLANA_RPC_URL } from "./wallet-demo";
import { NATIVE_TOKEN } from "./swaps";
import type { ParsedTransactionWithMeta } from "@solana/web3.js";
import {
  fetchSolanaPage,
  mapSolanaTransactions,
  solanaPageTransactions,
  solanaTransaction,
  WSOL_MINT,
  type SolanaPagePayload,
} from "./solana.server";

// The adapter through the real @solana/web3.js Connection against the RPC simulator (msw).
const rpc = setupServer(...solanaHandlers());
const calls: string[] = [];
rpc.events.on("request:start", async ({ request }) => {
  const body = (await request.clone().json()) as { method?: string } | { method?: string }[];
  for (const c of Array.isArray(body) ? body : [body]) calls.push(String(c.method));
});
const OWNER = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const CONFIG = { rpcUrl: DEMO_SOLANA_RPC_URL, timeoutMs: 5000 };

beforeAll(() => {
  process.env.SIM_SOLANA_PAGE_SIZE = "25"; // pages shorter than asked, as a node may answer
  rpc.listen({ onUnhandledRequest: "error" });
});
afterAll(() => {
  delete process.env.SIM_SOLANA_PAGE_SIZE;
  rpc.close();
});

/** Every page, as the linking module reads them (one per job), until the empty page. */
async function allPages(): Promise<SolanaPagePayload[]> {
  const pages: SolanaPagePayload[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await fetchSolanaPage(CONFIG, OWNER, before);
    if (!page.next) {
      expect(page.payload.signatures).toEqual([]);
      return pages;
    }
    expect(page.payload.before).toBe(before ?? null);
    pages.push(page.payload);
    before = page.next;
  }
}

describe("Solana history", () => {
  it("pages getSignaturesForAddress with `before` to the end, reads swaps of every DEX from balance deltas, and prices each one without a stablecoin leg", async () => {
    const pages = await allPages();
    const transactions = pages.flatMap((p) => solanaPageTransactions(OWNER, p));
    const signaturePages = calls.filter((c) => c === "getSignaturesForAddress").length;
    // Every signature, in pages of 25, and one empty page that ends the history.
    expect(signaturePages).toBe(pages.length + 1);
    expect(signaturePages).toBe(Math.ceil(transactions.length / 25) + 1);
    expect(transactions.length).toBeGreaterThan(50);
    expect(new Set(transactions.map((t) => t.id)).size).toBe(transactions.length);
    // Each page's transactions in one batch: two calls a page (a job), plus the empty page.
    expect(calls.filter((c) => c === "getTransaction").length).toBe(transactions.length);

    // Routed through Jupiter, Raydium, Orca and pump.fun: the stored answers name each program.
    const raw = JSON.stringify(pages.map((p) => p.transactions));
    for (const program of Object.values(SWAP_PROGRAMS)) expect(raw).toContain(program);
    // A stored page, read back from JSON as the mapping job does, gives the same legs.
    const stored = JSON.parse(JSON.stringify(pages)) as SolanaPagePayload[];
    expect(stored.flatMap((p) => solanaPageTransactions(OWNER, p))).toEqual(transactions);

    const swaps = transactions.filter((t) => t.legs.some((l) => l.amount < 0) && t.legs.some((l) => l.amount > 0));
    const noStable = swaps.filter((t) => !t.legs.some((l) => l.stable));
    expect(noStable.length).toBeGreaterThan(0);
    expect(noStable.some((t) => t.legs.some((l) => l.token === NATIVE_TOKEN))).toBe(true); // native lamports as a leg
    expect(swaps.some((t) => t.legs.some((l) => l.token === PUMP_MINT))).toBe(true);

    // Without prices a swap with no stablecoin leg and no earlier price is lost (the first such swap
    // on its own: in the history its tokens were priced by earlier swaps); with them, none is.
    const unpriced = mapSolanaTransactions([noStable[0]!]);
    expect(unpriced.swapsSkipped).toBe(1);
    expect(unpriced.batch.trades).toEqual([]);
    const price = new Map<string, number>([[NATIVE_TOKEN, 150]]);
    const priced = mapSolanaTransactions(transactions, (token) => price.get(token) ?? 0.5);
    expect(priced.swapsSeen).toBe(swaps.length);
    expect(priced.swapsSkipped).toBe(0);
    // A swap of SOL and a token is valued through SOL's price at the time.
    const solSwap = noStable.find((t) => t.legs.some((l) => l.token === NATIVE_TOKEN))!;
    const solLeg = solSwap.legs.find((l) => l.token === NATIVE_TOKEN)!;
    const solTrade = priced.batch.trades.find((t) => t.externalId === solLeg.id)!;
    expect(solTrade).toMatchObject({ symbol: "SOL", side: solLeg.amount < 0 ? "sell" : "buy", price: 150 });
    // Some swaps pay or are paid SOL partly through the wSOL account, in both directions: one
    // exchange, both forms at one price, SOL's (from the stablecoin leg when there is one).
    const coinLegs = (t: (typeof swaps)[number], sign: number) =>
      t.legs.filter((l) => (l.token === NATIVE_TOKEN || l.token === WSOL_MINT) && Math.sign(l.amount) === sign);
    for (const sign of [-1, 1]) {
      const pairs = swaps.filter((t) => coinLegs(t, sign).length === 2);
      expect(pairs.length, `SOL and WSOL ${sign < 0 ? "out" : "in"}`).toBeGreaterThan(0);
      for (const pair of pairs) {
        const legs = coinLegs(pair, sign);
        const units = legs.reduce((a, l) => a + Math.abs(l.amount), 0);
        const stable = pair.legs.find((l) => l.stable);
        const unit = stable ? Math.abs(stable.amount) / units : 150;
        for (const leg of legs) {
          const trade = priced.batch.trades.find((t) => t.externalId === leg.id)!;
          expect(trade.side).toBe(sign < 0 ? "sell" : "buy");
          expect(trade.price).toBeCloseTo(unit, 9);
        }
      }
    }
  });
});

describe("SOL and wSOL on one side of a swap (DECISIONS 221)", () => {
  const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
  const balance = (accountIndex: number, mint: string, amount: number, decimals: number) => ({
    accountIndex,
    mint,
    owner: OWNER,
    uiTokenAmount: {
      amount: String(Math.round(amount * 10 ** decimals)),
      decimals,
      uiAmount: amount,
      uiAmountString: "",
    },
  });
  // A Jupiter swap as a node answers it: the owner pays the fee, its wSOL account (index 1) and
  // its lamports pay together, its JUP account (index 2) receives.
  const parsed = (
    time: number,
    lamports: [number, number],
    wsol: [number, number],
    jup: [number, number],
  ): ParsedTransactionWithMeta =>
    ({
      blockTime: time,
      slot: 1,
      meta: {
        err: null,
        fee: 5000,
        preBalances: [lamports[0], 2_039_280, 2_039_280],
        postBalances: [lamports[1], 2_039_280, 2_039_280],
        preTokenBalances: [balance(1, WSOL_MINT, wsol[0], 9), balance(2, JUP, jup[0], 6)],
        postTokenBalances: [balance(1, WSOL_MINT, wsol[1], 9), balance(2, JUP, jup[1], 6)],
      },
      transaction: {
        signatures: ["sig"],
        message: {
          accountKeys: [OWNER, "wsolAccount", "jupAccount", SWAP_PROGRAMS.jupiter].map((pubkey, i) => ({
            pubkey,
            signer: i === 0,
            writable: i < 3,
          })),
          instructions: [],
        },
      },
    }) as unknown as ParsedTransactionWithMeta;

  it("reads SOL and wSOL out for JUP, and JUP out for both, as one exchange at SOL's price", () => {
    const t0 = Date.UTC(2025, 5, 1) / 1000;
    const buy = solanaTransaction(
      OWNER,
      "buy",
      // 2 SOL and 1 of the 1.5 wSOL out (the fee besides), 900 JUP in.
      parsed(t0, [10e9, 8e9 - 5000], [1.5, 0.5], [0, 900]),
    )!;
    const sell = solanaTransaction(OWNER, "sell", parsed(t0 + 86400, [8e9, 9.5e9 - 5000], [0.5, 1], [900, 0]))!;
    expect(buy.legs.map((l) => [l.symbol, l.amount])).toEqual([
      ["WSOL", -1],
      ["JUP", 900],
      ["SOL", -2],
    ]);
    // SOL at $150, then $180: 3 SOL = $450 for 900 JUP ($0.50); 900 JUP for 2 SOL = $360 ($0.40).
    const mapped = mapSolanaTransactions([buy, sell], (token, time) =>
      token === NATIVE_TOKEN ? (time.getTime() / 1000 === t0 ? 150 : 180) : undefined,
    );
    expect(mapped.swapsSkipped).toBe(0);
    expect(mapped.batch.trades.map((t) => [t.externalId, t.side, t.symbol, t.quantity, t.price])).toEqual([
      ["buy:sol", "sell", "SOL", 2, 150],
      ["buy:1", "sell", "WSOL", 1, 150],
      ["buy:2", "buy", "JUP", 900, 0.5],
      ["sell:sol", "buy", "SOL", 1.5, 180],
      ["sell:1", "buy", "WSOL", 0.5, 180],
      ["sell:2", "sell", "JUP", 900, 0.4],
    ]);
  });
});
