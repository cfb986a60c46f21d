import { formatUnits } from "ethers";
import type { ImportBatch } from "./imported";
import {
  NATIVE_TOKEN,
  valueSwaps,
  type PriceLookup,
  type SwapLeg,
  type SwapValuation,
  type WalletTransaction,
} from "./swaps";
import { fetchWithTimeout, readJson, WalletProviderError } from "./wallet-errors";

/**
 * EVM wallet history from Etherscan's multichain API (v2: one `chainid` per call; Blockscout
 * answers the same module/action calls): action=txlist (normal transactions: native legs and gas),
 * txlistinternal (native coin moved by contracts, e.g. a router paying out ETH) and tokentx
 * (ERC-20 transfers), each paged oldest first. Pure: it fetches one page and maps rows; the
 * linking module (app/server/linking.server.ts) runs one page per job and stores what comes back.
 *
 * The explorer serves at most page × offset ≤ 10,000 rows per query; past that, the documented way
 * is a new window starting at the last block read (its rows come again and are deduplicated).
 */
export const EVM_PAGE_SIZE = 1000;
export const EVM_WINDOW_ROWS = 10_000;
export const EVM_ACTIONS = ["txlist", "txlistinternal", "tokentx"] as const;
export type EvmAction = (typeof EVM_ACTIONS)[number];

export type EvmChain = {
  id: number;
  name: string;
  native: string;
  /** The wrapped native coin's contract (WETH9's kind: deposit() and withdraw(), no Transfer log). */
  wrapped: string;
  stables: string[];
};

/** The chains every wallet is read on (Etherscan v2 chain ids); EVM_CHAINS can narrow them. */
export const EVM_CHAINS: EvmChain[] = [
  {
    id: 1,
    name: "Ethereum",
    native: "ETH",
    wrapped: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2",
    stables: [
      "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      "0xdac17f958d2ee523a2206206994597c13d831ec7",
      "0x6b175474e89094c44da98b954eedeac495271d0f",
    ],
  },
  {
    id: 8453,
    name: "Base",
    native: "ETH",
    wrapped: "0x4200000000000000000000000000000000000006",
    stables: ["0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "0x50c5725949a6f0c72e6c4a641f24049a917db0cb"],
  },
  {
    id: 42161,
    name: "Arbitrum",
    native: "ETH",
    wrapped: "0x82af49447d8a07e3bd95bd0d56f35241523fbab1",
    stables: [
      "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
      "0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9",
      "0xda10009cbd5d07dd0cecc66161fc93d7c9000da1",
    ],
  },
  {
    id: 10,
    name: "Optimism",
    native: "ETH",
    wrapped: "0x4200000000000000000000000000000000000006",
    stables: [
      "0x0b2c639c533813f4aa9d7837caf62653d097ff85",
      "0x94b008aa00579c1307b0ef2c499ad98a8ce58e58",
      "0xda10009cbd5d07dd0cecc66161fc93d7c9000da1",
    ],
  },
  {
    id: 137,
    name: "Polygon",
    native: "POL",
    wrapped: "0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270",
    stables: [
      "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359",
      "0xc2132d05d31c914a87c6611c10748aeb04b58e8f",
      "0x8f3cf7ad23cd3cadbd9735aff958023239c6a063",
    ],
  },
  {
    id: 56,
    name: "BNB Chain",
    native: "BNB",
    wrapped: "0xbb4cdb9cbd36b01bd1cbaee0c2de46d7f5ff52e8",
    stables: ["0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d", "0x55d398326f99059ff775485246999027b3197955"],
  },
];

export function evmChain(id: number): EvmChain | undefined {
  return EVM_CHAINS.find((c) => c.id === id);
}

export type ExplorerConfig = { baseUrl: string; apiKey?: string; timeoutMs: number };

export type ExplorerRow = Record<string, string>;

const PROVIDER = "The blockchain explorer";

/** One page of one action on one chain, from `startBlock` on, oldest first. Throws WalletProviderError. */
export async function fetchExplorerPage(
  config: ExplorerConfig,
  q: { chainId: number; action: EvmAction; address: string; startBlock: number; page: number },
): Promise<ExplorerRow[]> {
  const url = new URL(config.baseUrl);
  const params: Record<string, string> = {
    chainid: String(q.chainId),
    module: "account",
    action: q.action,
    address: q.address,
    startblock: String(q.startBlock),
    endblock: "999999999",
    page: String(q.page),
    offset: String(EVM_PAGE_SIZE),
    sort: "asc",
  };
  if (config.apiKey) params.apikey = config.apiKey;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetchWithTimeout(PROVIDER, url, { headers: { accept: "application/json" } }, config.timeoutMs);
  if (!res.ok) {
    await res.text().catch(() => ""); // drain (cancel() can hang under interceptors); same time limit
    throw new WalletProviderError(`${PROVIDER} answered HTTP ${res.status}.`);
  }
  const body = (await readJson(PROVIDER, res)) as { status?: string; message?: string; result?: unknown };
  if (!body || typeof body !== "object")
    throw new WalletProviderError(`${PROVIDER} answered with something that is not an explorer response.`);
  if (!Array.isArray(body.result)) {
    // Etherscan: {"status":"0","message":"NOTOK","result":"Max rate limit reached"}.
    const detail =
      typeof body.result === "string"
        ? body.result.replace(/[a-z0-9]{20,}/gi, "…").slice(0, 120)
        : (body.message ?? "no result");
    throw new WalletProviderError(`${PROVIDER} refused the request: ${detail}.`);
  }
  return body.result as ExplorerRow[];
}

/** Where an EVM import stands: which chain, action, window and page come next. */
export type EvmCursor = { chain: number; action: number; startBlock: number; page: number };

/**
 * The next page after one of `rows` rows (pure): the next page of the window, a new window from the
 * last block read once the window's 10,000 rows are spent, or the next action; null when the
 * chain's three actions are read.
 */
export function nextEvmPage(c: EvmCursor, rows: ExplorerRow[]): Omit<EvmCursor, "chain"> | null {
  if (rows.length >= EVM_PAGE_SIZE) {
    if ((c.page + 1) * EVM_PAGE_SIZE <= EVM_WINDOW_ROWS)
      return { action: c.action, startBlock: c.startBlock, page: c.page + 1 };
    const last = Number(rows[rows.length - 1]!.blockNumber);
    // A window that cannot move (10,000 rows in one block) would loop: go on past that block.
    const next = Number.isFinite(last) ? (last > c.startBlock ? last : last + 1) : c.startBlock + 1;
    return { action: c.action, startBlock: next, page: 1 };
  }
  return c.action + 1 < EVM_ACTIONS.length ? { action: c.action + 1, startBlock: 0, page: 1 } : null;
}

function toAmount(value: string, decimals: number): number {
  try {
    return Number(formatUnits(BigInt(value), decimals));
  } catch {
    return 0;
  }
}

/** The token key of a chain's native coin (its wrapped form is its contract, a token of its own). */
export function nativeToken(_chain: EvmChain): string {
  return NATIVE_TOKEN;
}

/** The symbol of a chain's wrapped native coin: WETH, WPOL, WBNB. */
export function wrappedSymbol(chain: EvmChain): string {
  return `W${chain.native}`;
}

/**
 * Groups one chain's explorer rows into wallet transactions (pure). Rows read twice (overlapping
 * windows) count once. The wrapped coin is its own token (WETH); as WETH9 logs no Transfer when it
 * wraps (deposit) or unwraps (withdraw), the leg of the wrapped token is implied there: the wallet
 * paying the contract, or the contract paying the wallet back, when no Transfer of it is listed.
 */
export function evmTransactions(
  address: string,
  chain: EvmChain,
  rows: { txlist: ExplorerRow[]; txlistinternal: ExplorerRow[]; tokentx: ExplorerRow[] },
): WalletTransaction[] {
  const me = address.toLowerCase();
  const native = nativeToken(chain);
  const stables = new Set(chain.stables);
  const byHash = new Map<string, WalletTransaction>();
  const seen = new Set<string>();
  const get = (hash: string, timeStamp: string) => {
    let tx = byHash.get(hash);
    if (!tx)
      byHash.set(
        hash,
        (tx = { id: `${chain.id}:${hash}`, txId: hash, time: new Date(Number(timeStamp) * 1000), legs: [] }),
      );
    return tx;
  };
  const fresh = (key: string) => (seen.has(key) ? false : (seen.add(key), true));
  // Native coin paid to (+) or by (−) the wrapped contract, by transaction: a wrap or an unwrap.
  const wrapping = new Map<WalletTransaction, number>();
  const wrapped = (tx: WalletTransaction, native: number) => wrapping.set(tx, (wrapping.get(tx) ?? 0) + native);
  for (const t of rows.txlist) {
    if (t.isError === "1" || !t.hash || !Number.isFinite(Number(t.timeStamp))) continue;
    const hash = t.hash.toLowerCase();
    if (!fresh(`tx:${hash}`)) continue;
    const from = t.from?.toLowerCase();
    const to = t.to?.toLowerCase();
    if (from !== me && to !== me) continue;
    const tx = get(hash, t.timeStamp);
    const value = toAmount(t.value ?? "0", 18);
    if (value > 0 && from !== to) {
      tx.legs.push({
        id: `${tx.id}:native`,
        token: native,
        symbol: chain.native,
        amount: from === me ? -value : value,
        stable: false,
      });
      if (from === me && to === chain.wrapped) wrapped(tx, value);
    }
    if (from === me && t.gasUsed && t.gasPrice)
      tx.fee = toAmount((BigInt(t.gasUsed) * BigInt(t.gasPrice)).toString(), 18);
  }
  for (const t of rows.txlistinternal) {
    if (t.isError === "1" || !t.hash || !Number.isFinite(Number(t.timeStamp))) continue;
    const hash = t.hash.toLowerCase();
    const trace = t.traceId ?? `${t.from}-${t.to}-${t.value}`;
    if (!fresh(`internal:${hash}:${trace}`)) continue;
    const from = t.from?.toLowerCase();
    const to = t.to?.toLowerCase();
    if ((from !== me && to !== me) || from === to) continue;
    const value = toAmount(t.value ?? "0", 18);
    if (!(value > 0)) continue;
    const tx = get(hash, t.timeStamp);
    tx.legs.push({
      id: `${tx.id}:internal:${trace}`,
      token: native,
      symbol: chain.native,
      amount: from === me ? -value : value,
      stable: false,
    });
    if (to === me && from === chain.wrapped) wrapped(tx, -value);
  }
  for (const t of rows.tokentx) {
    if (!t.hash || !Number.isFinite(Number(t.timeStamp))) continue;
    const hash = t.hash.toLowerCase();
    if (!fresh(`token:${hash}:${t.logIndex}`)) continue;
    const from = t.from?.toLowerCase();
    const to = t.to?.toLowerCase();
    if ((from !== me && to !== me) || from === to) continue;
    const contract = (t.contractAddress ?? "").toLowerCase();
    let symbol =
      (t.tokenSymbol ?? "").trim().toUpperCase().slice(0, 20) || `${contract.slice(0, 6)}…${contract.slice(-4)}`;
    if (contract === chain.wrapped) symbol = wrappedSymbol(chain);
    const amount = toAmount(t.value ?? "0", Number(t.tokenDecimal) || 0);
    if (!(amount > 0)) continue;
    const tx = get(hash, t.timeStamp);
    const leg: SwapLeg = {
      id: `${tx.id}:${t.logIndex}`,
      token: contract,
      symbol,
      amount: from === me ? -amount : amount,
      stable: stables.has(contract),
    };
    tx.legs.push(leg);
  }
  for (const [tx, native] of wrapping) {
    // Listed already (an explorer that logs the mint or burn): nothing to imply.
    if (native === 0 || tx.legs.some((l) => l.token === chain.wrapped && Math.sign(l.amount) === Math.sign(native)))
      continue;
    tx.legs.push({
      id: `${tx.id}:${native > 0 ? "wrap" : "unwrap"}`,
      token: chain.wrapped,
      symbol: wrappedSymbol(chain),
      amount: native,
      stable: false,
    });
  }
  return [...byHash.values()];
}

export type EvmMapped = SwapValuation & { batch: Omit<ImportBatch, "payloads"> };

/** One chain's transactions → ledger rows: swaps priced in USD, transfers as deposits in kind, gas as fees in kind, wraps (pure). */
export function mapEvmTransactions(
  chain: EvmChain,
  transactions: WalletTransaction[],
  priceAt?: PriceLookup,
  confidenceAt?: PriceLookup,
): EvmMapped {
  const valued = valueSwaps(transactions, {
    nativeToken: nativeToken(chain),
    nativeSymbol: chain.native,
    wrappedToken: chain.wrapped,
    priceAt,
    confidenceAt,
    transfers: true,
  });
  return { ...valued, batch: { trades: valued.trades, cashFlows: valued.cashFlows, marks: [], events: valued.events } };
}
