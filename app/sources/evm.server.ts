import { formatUnits } from "ethers";
import type { ImportBatch } from "~/server/imports.server";
import { getEnv } from "~/server/env.server";
import { valueSwaps, type SwapLeg, type WalletTransaction } from "./swaps";
import { DEMO_EVM_EXPLORER_URL } from "./wallet-demo";
import { fetchWithTimeout, readJson, WalletProviderError } from "./wallet-errors";

/**
 * EVM wallet history from an Etherscan-compatible explorer API (Etherscan v2, Blockscout):
 * module=account&action=txlist (normal transactions: native ETH legs and gas) and action=tokentx
 * (ERC-20 transfers), paged. Transfers are grouped by transaction hash into swaps and valued in USD
 * by app/sources/swaps.ts.
 */
export const EVM_PAGE_SIZE = 1000;
// Etherscan serves at most page × offset ≤ 10,000 rows per query.
export const EVM_MAX_PAGES = 10;

const MAINNET_STABLES = new Set([
  "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", // USDC
  "0xdac17f958d2ee523a2206206994597c13d831ec7", // USDT
  "0x6b175474e89094c44da98b954eedeac495271d0f", // DAI
]);
const STABLE_SYMBOLS = new Set(["USDC", "USDT", "DAI"]);
const MAINNET_WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const NATIVE_SYMBOL: Record<number, string> = { 1: "ETH", 10: "ETH", 8453: "ETH", 42161: "ETH", 137: "POL", 56: "BNB", 43114: "AVAX" };

export function isEvmDemo(): boolean {
  return !getEnv().EVM_EXPLORER_URL;
}

export type ExplorerTransaction = { hash: string; timeStamp: string; from: string; to: string; value: string; gasUsed?: string; gasPrice?: string; isError?: string };
export type ExplorerTokenTransfer = {
  hash: string;
  timeStamp: string;
  from: string;
  to: string;
  value: string;
  contractAddress: string;
  tokenSymbol: string;
  tokenDecimal: string;
  logIndex: string;
};

const PROVIDER = "The blockchain explorer";

async function explorerPages<T>(action: "txlist" | "tokentx", address: string, payloads: ImportBatch["payloads"], warnings: string[]): Promise<T[]> {
  const env = getEnv();
  const base = env.EVM_EXPLORER_URL ?? DEMO_EVM_EXPLORER_URL;
  const rows: T[] = [];
  for (let page = 1; page <= EVM_MAX_PAGES; page++) {
    const url = new URL(base);
    const params: Record<string, string> = {
      chainid: String(env.EVM_CHAIN_ID),
      module: "account",
      action,
      address,
      startblock: "0",
      endblock: "999999999",
      page: String(page),
      offset: String(EVM_PAGE_SIZE),
      sort: "asc",
    };
    if (env.EVM_EXPLORER_KEY) params.apikey = env.EVM_EXPLORER_KEY;
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await fetchWithTimeout(PROVIDER, url, { headers: { accept: "application/json" } }, env.WALLET_PROVIDER_TIMEOUT_MS);
    if (!res.ok) {
      await res.text().catch(() => ""); // drain (cancel() can hang under interceptors); same time limit
      throw new WalletProviderError(`${PROVIDER} answered HTTP ${res.status}.`);
    }
    const body = (await readJson(PROVIDER, res)) as { status?: string; message?: string; result?: unknown };
    if (!body || typeof body !== "object") throw new WalletProviderError(`${PROVIDER} answered with something that is not an explorer response.`);
    if (!Array.isArray(body.result)) {
      // Etherscan: {"status":"0","message":"NOTOK","result":"Max rate limit reached"}.
      const detail = typeof body.result === "string" ? body.result.replace(/[a-z0-9]{20,}/gi, "…").slice(0, 120) : body.message ?? "no result";
      throw new WalletProviderError(`${PROVIDER} refused the request: ${detail}.`);
    }
    payloads.push({ kind: `evm.${action}`, payload: { page, result: body.result } });
    rows.push(...(body.result as T[]));
    if (body.result.length < EVM_PAGE_SIZE) return rows;
  }
  warnings.push(`Only the first ${EVM_PAGE_SIZE * EVM_MAX_PAGES} ${action === "txlist" ? "transactions" : "token transfers"} could be read from the explorer.`);
  return rows;
}

function toAmount(value: string, decimals: number): number {
  try {
    return Number(formatUnits(BigInt(value), decimals));
  } catch {
    return 0;
  }
}

/** Groups explorer rows into wallet transactions (pure; exported for tests). */
export function evmTransactions(address: string, chainId: number, txs: ExplorerTransaction[], transfers: ExplorerTokenTransfer[]): WalletTransaction[] {
  const me = address.toLowerCase();
  const nativeKey = chainId === 1 ? MAINNET_WETH : "native";
  const nativeSymbol = NATIVE_SYMBOL[chainId] ?? "ETH";
  const byHash = new Map<string, WalletTransaction>();
  const get = (hash: string, timeStamp: string) => {
    let tx = byHash.get(hash);
    if (!tx) byHash.set(hash, (tx = { id: hash, time: new Date(Number(timeStamp) * 1000), legs: [] }));
    return tx;
  };
  for (const t of txs) {
    if (t.isError === "1" || !t.hash || !Number.isFinite(Number(t.timeStamp))) continue;
    const from = t.from?.toLowerCase();
    const to = t.to?.toLowerCase();
    if (from !== me && to !== me) continue;
    const tx = get(t.hash.toLowerCase(), t.timeStamp);
    const value = toAmount(t.value ?? "0", 18);
    if (value > 0 && from !== to) tx.legs.push({ id: `${tx.id}:native`, token: nativeKey, symbol: nativeSymbol, amount: from === me ? -value : value, stable: false });
    if (from === me && t.gasUsed && t.gasPrice) tx.fee = toAmount((BigInt(t.gasUsed) * BigInt(t.gasPrice)).toString(), 18);
  }
  for (const t of transfers) {
    if (!t.hash || !Number.isFinite(Number(t.timeStamp))) continue;
    const from = t.from?.toLowerCase();
    const to = t.to?.toLowerCase();
    if ((from !== me && to !== me) || from === to) continue;
    const contract = (t.contractAddress ?? "").toLowerCase();
    let symbol = (t.tokenSymbol ?? "").trim().toUpperCase().slice(0, 20) || `${contract.slice(0, 6)}…${contract.slice(-4)}`;
    if (contract === MAINNET_WETH && chainId === 1) symbol = nativeSymbol;
    const stable = chainId === 1 ? MAINNET_STABLES.has(contract) : STABLE_SYMBOLS.has(symbol);
    const amount = toAmount(t.value ?? "0", Number(t.tokenDecimal) || 0);
    if (!(amount > 0)) continue;
    const tx = get(t.hash.toLowerCase(), t.timeStamp);
    const leg: SwapLeg = { id: `${tx.id}:${t.logIndex}`, token: contract, symbol, amount: from === me ? -amount : amount, stable };
    tx.legs.push(leg);
  }
  return [...byHash.values()];
}

export type WalletHistory = { batch: ImportBatch; warnings: string[]; swapsSeen: number; swapsSkipped: number };

/** Reads an EVM wallet's history and turns it into ledger rows. Throws WalletProviderError. */
export async function fetchEvmHistory(address: string): Promise<WalletHistory> {
  const env = getEnv();
  const payloads: ImportBatch["payloads"] = [];
  const warnings: string[] = [];
  const txs = await explorerPages<ExplorerTransaction>("txlist", address, payloads, warnings);
  const transfers = await explorerPages<ExplorerTokenTransfer>("tokentx", address, payloads, warnings);
  const valued = valueSwaps(evmTransactions(address, env.EVM_CHAIN_ID, txs, transfers), { nativeToken: env.EVM_CHAIN_ID === 1 ? MAINNET_WETH : "native" });
  return { batch: { trades: valued.trades, cashFlows: [], marks: [], payloads }, warnings: [...warnings, ...valued.warnings], swapsSeen: valued.swapsSeen, swapsSkipped: valued.swapsSkipped };
}
