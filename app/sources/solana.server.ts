import { Connection, PublicKey, type ParsedTransactionWithMeta } from "@solana/web3.js";
import type { ImportBatch } from "~/server/imports.server";
import { getEnv } from "~/server/env.server";
import type { WalletHistory } from "./imported";
import { valueSwaps, type PriceLookup, type WalletTransaction } from "./swaps";
import { DEMO_SOLANA_RPC_URL } from "./wallet-demo";
import { WalletProviderError } from "./wallet-errors";

/**
 * Solana wallet history through JSON-RPC with @solana/web3.js: getSignaturesForAddress (paged with
 * `before` until a page comes back empty: the whole history), then getParsedTransactions in
 * batches. A swap is read from the owner's pre/post token balances plus its native lamports (net of
 * the fee), whichever program routed it (Jupiter, Raydium, Orca, pump.fun: only the balances
 * count), then valued by app/sources/swaps.ts with the historical USD prices the caller looks up
 * (mapSolanaHistory), so a swap without a stablecoin leg is priced too.
 */
export const SOLANA_SIGNATURE_PAGE = 1000;
const TX_BATCH = 100;
const LAMPORTS = 1e9;
// Native SOL moves smaller than this are rent and account creation, not a trade leg.
const NATIVE_DUST_SOL = 0.01;

export const WSOL_MINT = "So11111111111111111111111111111111111111112";
const KNOWN_MINTS: Record<string, { symbol: string; stable?: boolean }> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: { symbol: "USDC", stable: true },
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: { symbol: "USDT", stable: true },
  [WSOL_MINT]: { symbol: "SOL" },
  JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN: { symbol: "JUP" },
  DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263: { symbol: "BONK" },
  "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R": { symbol: "RAY" },
  EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm: { symbol: "WIF" },
  mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So: { symbol: "MSOL" },
};

export function isSolanaDemo(): boolean {
  return !getEnv().SOLANA_RPC_URL;
}

const PROVIDER = "The Solana RPC node";

/**
 * A Connection whose every call has a time limit and whose failures keep a plain message: the
 * fetch wrapper checks status and JSON itself and remembers what went wrong, because web3.js
 * rewraps errors in its own words.
 */
function connection(failure: { error?: WalletProviderError }) {
  const env = getEnv();
  const timeoutMs = env.WALLET_PROVIDER_TIMEOUT_MS;
  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const fail = (message: string) => {
      failure.error ??= new WalletProviderError(message);
      throw failure.error;
    };
    let res: Response;
    let text = "";
    try {
      res = await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (error) {
      const name = (error as Error)?.name;
      return fail(
        name === "TimeoutError" || name === "AbortError"
          ? `${PROVIDER} did not answer within ${Math.round(timeoutMs / 1000)} s.`
          : `${PROVIDER} could not be reached.`,
      );
    }
    if (!res.ok && res.status !== 429) return fail(`${PROVIDER} answered HTTP ${res.status}.`);
    try {
      JSON.parse(text);
    } catch {
      return fail(`${PROVIDER} answered with malformed JSON.`);
    }
    return new Response(text, { status: res.status, headers: { "content-type": "application/json" } });
  };
  return new Connection(env.SOLANA_RPC_URL ?? DEMO_SOLANA_RPC_URL, {
    commitment: "confirmed",
    fetch: guardedFetch as never,
    disableRetryOnRateLimit: true,
  });
}

function mintInfo(mint: string) {
  const known = KNOWN_MINTS[mint];
  return { symbol: known?.symbol ?? `${mint.slice(0, 4)}…${mint.slice(-4)}`, stable: Boolean(known?.stable) };
}

function uiAmount(b: { uiTokenAmount: { amount: string; decimals: number } }): number {
  return Number(b.uiTokenAmount.amount) / 10 ** b.uiTokenAmount.decimals;
}

/** One parsed transaction → the owner's legs (pure; exported for tests). */
export function solanaTransaction(
  owner: string,
  signature: string,
  tx: ParsedTransactionWithMeta | null,
): WalletTransaction | null {
  if (!tx?.meta || tx.meta.err) return null;
  const time = new Date((tx.blockTime ?? 0) * 1000);
  const legs: WalletTransaction["legs"] = [];
  const pre = new Map<number, { mint: string; amount: number }>();
  for (const b of tx.meta.preTokenBalances ?? [])
    if (b.owner === owner) pre.set(b.accountIndex, { mint: b.mint, amount: uiAmount(b) });
  const post = new Map<number, { mint: string; amount: number }>();
  for (const b of tx.meta.postTokenBalances ?? [])
    if (b.owner === owner) post.set(b.accountIndex, { mint: b.mint, amount: uiAmount(b) });
  for (const index of new Set([...pre.keys(), ...post.keys()])) {
    const mint = (post.get(index) ?? pre.get(index))!.mint;
    const delta = (post.get(index)?.amount ?? 0) - (pre.get(index)?.amount ?? 0);
    if (delta === 0) continue;
    const info = mintInfo(mint);
    legs.push({ id: `${signature}:${index}`, token: mint, symbol: info.symbol, amount: delta, stable: info.stable });
  }
  const keys = tx.transaction.message.accountKeys.map((k) =>
    typeof k.pubkey === "string" ? k.pubkey : k.pubkey.toBase58(),
  );
  const ownerIndex = keys.indexOf(owner);
  let fee: number | undefined;
  if (ownerIndex >= 0) {
    const feePayer = ownerIndex === 0;
    const lamports =
      (tx.meta.postBalances[ownerIndex] ?? 0) - (tx.meta.preBalances[ownerIndex] ?? 0) + (feePayer ? tx.meta.fee : 0);
    const sol = lamports / LAMPORTS;
    if (Math.abs(sol) >= NATIVE_DUST_SOL)
      legs.push({ id: `${signature}:sol`, token: WSOL_MINT, symbol: "SOL", amount: sol, stable: false });
    if (feePayer) fee = tx.meta.fee / LAMPORTS;
  }
  return { id: signature, time, legs, fee };
}

export type SolanaHistory = { transactions: WalletTransaction[]; payloads: ImportBatch["payloads"]; pages: number };

/** Reads a Solana wallet's whole history (the owner's legs of each transaction). Throws WalletProviderError. */
export async function fetchSolanaHistory(address: string): Promise<SolanaHistory> {
  const failure: { error?: WalletProviderError } = {};
  const rpc = connection(failure);
  const owner = new PublicKey(address);
  const payloads: ImportBatch["payloads"] = [];
  const transactions: WalletTransaction[] = [];
  let pages = 0;
  try {
    const signatures: string[] = [];
    let before: string | undefined;
    // A node may answer fewer than `limit` before the end: only an empty page ends the history.
    for (;;) {
      const page = await rpc.getSignaturesForAddress(owner, { before, limit: SOLANA_SIGNATURE_PAGE });
      pages++;
      if (!page.length) break;
      payloads.push({ kind: "solana.getSignaturesForAddress", payload: { before: before ?? null, result: page } });
      for (const s of page) if (!s.err) signatures.push(s.signature);
      before = page[page.length - 1]!.signature;
    }
    for (let i = 0; i < signatures.length; i += TX_BATCH) {
      const chunk = signatures.slice(i, i + TX_BATCH);
      const parsed = await rpc.getParsedTransactions(chunk, {
        maxSupportedTransactionVersion: 0,
        commitment: "confirmed",
      });
      payloads.push({ kind: "solana.getParsedTransactions", payload: parsed });
      parsed.forEach((tx, j) => {
        const walletTx = solanaTransaction(address, chunk[j]!, tx);
        if (walletTx) transactions.push(walletTx);
      });
    }
  } catch (error) {
    if (failure.error) throw failure.error;
    if (error instanceof WalletProviderError) throw error;
    throw new WalletProviderError(`${PROVIDER} failed: ${String((error as Error)?.message ?? error).slice(0, 160)}`);
  }
  return { transactions, payloads, pages };
}

/** A fetched history → ledger rows, each swap valued in USD (priceAt: historical prices by mint). */
export function mapSolanaHistory(history: SolanaHistory, priceAt?: PriceLookup): WalletHistory {
  const valued = valueSwaps(history.transactions, { nativeToken: WSOL_MINT, priceAt });
  return {
    batch: { trades: valued.trades, cashFlows: [], marks: [], payloads: history.payloads },
    warnings: valued.warnings,
    swapsSeen: valued.swapsSeen,
    swapsSkipped: valued.swapsSkipped,
  };
}
