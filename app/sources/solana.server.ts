import { Connection, PublicKey, type ParsedTransactionWithMeta } from "@solana/web3.js";
import type { ImportBatch } from "./imported";
import { NATIVE_TOKEN, valueSwaps, type PriceLookup, type SwapValuation, type WalletTransaction } from "./swaps";
import { WalletProviderError } from "./wallet-errors";

/**
 * Solana wallet history through JSON-RPC with @solana/web3.js, one page at a time (the linking
 * module, app/server/linking.server.ts, runs one page per job and stores each as a payload of its
 * import): getSignaturesForAddress from `before` (newest first), then getParsedTransactions of that
 * page's signatures in one batch; the history ends at the first empty page. A swap is read from
 * the owner's pre/post token balances plus its native lamports (net of the fee), whichever program
 * routed it (Jupiter, Raydium, Orca, pump.fun: only the balances count), then valued by
 * app/sources/swaps.ts with the historical USD prices the caller looks up (mapSolanaTransactions),
 * so a swap without a stablecoin leg is priced too. Pure apart from the RPC calls: configuration
 * comes in as arguments.
 */
// One page: as many signatures as one getParsedTransactions batch reads, so a job is two calls.
export const SOLANA_SIGNATURE_PAGE = 100;
const LAMPORTS = 1e9;
// Native SOL moves smaller than this are rent and account creation, not a trade leg.
const NATIVE_DUST_SOL = 0.01;

export const WSOL_MINT = "So11111111111111111111111111111111111111112";
const KNOWN_MINTS: Record<string, { symbol: string; stable?: boolean }> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: { symbol: "USDC", stable: true },
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: { symbol: "USDT", stable: true },
  // Wrapped SOL held in a token account is a token of its own; wrapping it is a `wrap` (swaps.ts).
  [WSOL_MINT]: { symbol: "WSOL" },
  JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN: { symbol: "JUP" },
  DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263: { symbol: "BONK" },
  "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R": { symbol: "RAY" },
  EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm: { symbol: "WIF" },
  mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So: { symbol: "MSOL" },
};

export type SolanaConfig = { rpcUrl: string; timeoutMs: number };

const PROVIDER = "The Solana RPC node";

/**
 * A Connection whose every call has a time limit and whose failures keep a plain message: the
 * fetch wrapper checks status and JSON itself and remembers what went wrong, because web3.js
 * rewraps errors in its own words.
 */
function connection(config: SolanaConfig, failure: { error?: WalletProviderError }) {
  const timeoutMs = config.timeoutMs;
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
  return new Connection(config.rpcUrl, {
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
      legs.push({ id: `${signature}:sol`, token: NATIVE_TOKEN, symbol: "SOL", amount: sol, stable: false });
    if (feePayer) fee = tx.meta.fee / LAMPORTS;
  }
  return { id: signature, time, legs, fee };
}

/** One stored page: its signatures (newest first) and their parsed transactions, as the node answered. */
export type SolanaPagePayload = {
  before: string | null;
  signatures: { signature: string; err: unknown }[];
  transactions: (ParsedTransactionWithMeta | null)[];
};

export type SolanaPage = {
  payload: SolanaPagePayload;
  /** Where the next page starts (this page's last signature); null: this page was empty, the history ended. */
  next: string | null;
};

/**
 * One page of a wallet's history, newest first, from `before` (undefined: the newest). A node may
 * answer fewer than asked before the end: only an empty page ends the history. Throws
 * WalletProviderError.
 */
export async function fetchSolanaPage(
  config: SolanaConfig,
  address: string,
  before: string | undefined,
): Promise<SolanaPage> {
  const failure: { error?: WalletProviderError } = {};
  const rpc = connection(config, failure);
  try {
    const page = await rpc.getSignaturesForAddress(new PublicKey(address), { before, limit: SOLANA_SIGNATURE_PAGE });
    const signatures = page.map((s) => ({ signature: s.signature, err: s.err }));
    const ok = signatures.filter((s) => !s.err).map((s) => s.signature);
    const transactions = ok.length
      ? await rpc.getParsedTransactions(ok, { maxSupportedTransactionVersion: 0, commitment: "confirmed" })
      : [];
    return {
      payload: { before: before ?? null, signatures, transactions },
      next: page.length ? page[page.length - 1]!.signature : null,
    };
  } catch (error) {
    if (failure.error) throw failure.error;
    if (error instanceof WalletProviderError) throw error;
    throw new WalletProviderError(`${PROVIDER} failed: ${String((error as Error)?.message ?? error).slice(0, 160)}`);
  }
}

/** A stored page → the owner's legs of each of its transactions (pure). */
export function solanaPageTransactions(owner: string, payload: SolanaPagePayload): WalletTransaction[] {
  const ok = payload.signatures.filter((s) => !s.err);
  const out: WalletTransaction[] = [];
  payload.transactions.forEach((tx, i) => {
    const walletTx = solanaTransaction(owner, ok[i]!.signature, tx);
    if (walletTx) out.push(walletTx);
  });
  return out;
}

/**
 * The native coin, its wrapped mint, and how far a wrap's legs may differ: wrapping into a new
 * token account leaves its rent (0.002 SOL) there besides the SOL wrapped, under NATIVE_DUST_SOL.
 */
export const SOLANA_SWAPS = {
  nativeToken: NATIVE_TOKEN,
  nativeSymbol: "SOL",
  wrappedToken: WSOL_MINT,
  wrapSlack: NATIVE_DUST_SOL,
} as const;

export type SolanaMapped = SwapValuation & { batch: Omit<ImportBatch, "payloads"> };

/**
 * A wallet's transactions → ledger rows (pure): swaps valued in USD (priceAt: historical prices by
 * mint), transfers as deposits and withdrawals, in stablecoins or in kind, fees in SOL, as on an EVM chain.
 * Without them the stablecoins a wallet spends came from nowhere: beside another account the
 * engine read its buys as borrowing (cash below zero, leverage, losses beyond equity).
 */
export function mapSolanaTransactions(
  transactions: WalletTransaction[],
  priceAt?: PriceLookup,
  confidenceAt?: PriceLookup,
): SolanaMapped {
  const valued = valueSwaps(transactions, { ...SOLANA_SWAPS, priceAt, confidenceAt, transfers: true });
  return {
    ...valued,
    batch: { trades: valued.trades, cashFlows: valued.cashFlows, marks: [], events: valued.events },
  };
}
