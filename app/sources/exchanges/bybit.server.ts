import { PermissionDenied, type Exchange } from "ccxt";
import { EXCHANGE_VIEWS } from "~/lib/exchanges";
import type { ImportedCashFlow, ImportedEvent, ImportedTrade } from "../imported";
import {
  ccxtClient,
  withClockRetry,
  type AssetPrice,
  type ExchangeEntry,
  type FetchedPage,
  type HistoryTask,
  type MappedExchange,
  type StoredPage,
} from "../exchange.server";
import { USD_STABLES } from "./binance.server";

// Bybit v5 spot (PROVIDERS.md §10; docs/SOURCES.md "Bybit"). ccxt signs each request (X-BAPI-SIGN,
// HMAC-SHA256 of timestamp + key + recv window + query). `execution/list` holds the spot fills of the
// last 2 years only, in windows of at most 7 days, 100 a call, newest first, paged by
// `nextPageCursor`: the import walks the 2 years a week per window. Its rows name the symbol
// ("BTCUSDT") without a separator, so the instruments the fills name are asked once each.
// Deposits (`asset/deposit/query-record`) and withdrawals (`asset/withdraw/query-record`) answer
// `result.rows`, windows under 30 days, 50 a call, paged by `nextPageCursor` too: the same 2 years
// a 30-day window at a time, so a coin's moves meet the fills that bought or sold it. Converts
// (`asset/exchange/order-record`, "Coin Exchange Records": 50 a call by cursor, no time filter)
// are swaps; Earn's yields (`earn/yield`, FlexibleSaving, windows of at most 7 days, 100 a call
// by cursor; the key needs Earn's permission, else it is said and counted) income in kind
// (DECISIONS 218).

const DAY = 86_400_000;
const WINDOW_DAYS = 7;
const FILLS_PER_CALL = 100;
/** Deposit and withdrawal records: "less than 30 days" a window, at most 50 a call. */
const TRANSFER_WINDOW_DAYS = 30;
const MOVES_PER_CALL = 50;
/** Coin Exchange Records: [1, 50] a call. */
const CONVERTS_PER_CALL = 50;
/** Earn yields: [1, 100] a call, a window of at most 7 days. */
const YIELDS_PER_CALL = 100;
/** Deposit statuses that left the coins credited: 3 success, 70012 still credited after a chain rollback. */
const DEPOSITED = new Set([3, 70012]);
/** Withdrawal statuses whose coins left the account (ccxt reads both as "ok"). */
const WITHDRAWN = new Set(["success", "BlockchainConfirmed"]);
/** What `execution/list` serves ("Get Trade History (2 years)"). */
const KEEPS_DAYS = 730;
/** The API limit is per user per second (10006 "Too many visits!"): a second's wait. */
const RATE_WAIT_SECONDS = 1;
const HELP = EXCHANGE_VIEWS.bybit.readOnlyKeyHelp;

export type BybitExecution = {
  symbol: string;
  orderId: string;
  side: "Buy" | "Sell";
  execId: string;
  execPrice: string;
  execQty: string;
  execValue?: string;
  execFee: string;
  feeCurrency?: string;
  execType: string;
  execTime: string;
  isMaker?: boolean;
};
/** A row of `asset/deposit/query-record` (on-chain deposits). */
export type BybitDeposit = {
  id: string;
  coin: string;
  chain?: string;
  amount: string;
  txID?: string;
  status: number | string;
  toAddress?: string;
  /** The sender's address, "" when the chain does not name one sender. */
  fromAddress?: string;
  successAt: string;
};
/** A row of `asset/withdraw/query-record`; `withdrawType` 1 is off-chain (to another Bybit user). */
export type BybitWithdrawal = {
  withdrawId: string;
  coin: string;
  chain?: string;
  amount: string;
  withdrawFee: string;
  txID?: string;
  status: string;
  toAddress?: string;
  createTime: string;
  updateTime?: string;
  withdrawType?: number;
};
/** A row of `asset/exchange/order-record` (a convert); `createdTime` in seconds. */
export type BybitConvert = {
  exchangeTxId: string;
  fromCoin: string;
  fromAmount: string;
  toCoin: string;
  toAmount: string;
  exchangeRate?: string;
  createdTime: string;
};
/** A row of `earn/yield`; `createdAt` in ms. Or, when the key may not read Earn, what Bybit said. */
export type BybitYield =
  | {
      id: string;
      productId?: string;
      coin: string;
      amount: string;
      yieldType?: string;
      distributionMode?: string;
      status: string;
      createdAt: string;
    }
  | { refused: string };
type Instrument = { symbol: string; baseCoin: string; quoteCoin: string };
type KeyInfo = {
  readOnly?: number;
  userID?: number | string;
  permissions?: Record<string, string[]>;
};

/** Read-only or not, from `user/query-api` (pure; exported for tests). */
export function readBybitPermissions(
  info: KeyInfo,
): { permission: "trade" | "withdraw" | "read"; message: string } | null {
  if (info.readOnly === 1) return null;
  if ((info.permissions?.Wallet ?? []).some((p) => /withdraw/i.test(p)))
    return {
      permission: "withdraw",
      message: `This key can withdraw. Create a read-only key: ${HELP} (choose Read-Only, not Read-Write).`,
    };
  return {
    permission: "trade",
    message: `This key can trade. Create a read-only key: ${HELP} (choose Read-Only, not Read-Write).`,
  };
}

/** Windows of `days` from `fromMs` to `nowMs`, oldest first, each ending 1 ms short (pure; exported for tests). */
export function bybitWindows(fromMs: number, nowMs: number, stream = "executions", days = WINDOW_DAYS): HistoryTask[] {
  const tasks: HistoryTask[] = [];
  for (let start = fromMs; start < nowMs; start += days * DAY)
    tasks.push({ stream, start, end: Math.min(start + days * DAY - 1, nowMs) });
  return tasks;
}

async function fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
  switch (task.stream) {
    case "executions": {
      const answer = (await withClockRetry(client, () =>
        client.privateGetV5ExecutionList({
          category: "spot",
          startTime: String(task.start),
          endTime: String(task.end),
          limit: String(FILLS_PER_CALL),
          ...(task.cursor ? { cursor: task.cursor } : {}),
        }),
      )) as { result?: { list?: BybitExecution[]; nextPageCursor?: string } };
      const rows = answer.result?.list ?? [];
      const cursor = answer.result?.nextPageCursor;
      return { rows, next: rows.length && cursor ? { ...task, cursor } : null };
    }
    case "deposits":
    case "withdrawals": {
      const request = {
        startTime: String(task.start),
        endTime: String(task.end),
        limit: String(MOVES_PER_CALL),
        ...(task.cursor ? { cursor: task.cursor } : {}),
      };
      // withdrawType 2: on-chain and off-chain alike (the default, 0, leaves out those to other Bybit users).
      const answer = (await withClockRetry(client, () =>
        task.stream === "deposits"
          ? client.privateGetV5AssetDepositQueryRecord(request)
          : client.privateGetV5AssetWithdrawQueryRecord({ ...request, withdrawType: "2" }),
      )) as { result?: { rows?: unknown[]; nextPageCursor?: string } };
      const rows = answer.result?.rows ?? [];
      const cursor = answer.result?.nextPageCursor;
      return { rows, next: rows.length && cursor ? { ...task, cursor } : null };
    }
    case "converts": {
      const answer = (await withClockRetry(client, () =>
        client.privateGetV5AssetExchangeOrderRecord({
          limit: String(CONVERTS_PER_CALL),
          ...(task.cursor ? { cursor: task.cursor } : {}),
        }),
      )) as { result?: { orderBody?: BybitConvert[]; nextPageCursor?: string } };
      const rows = answer.result?.orderBody ?? [];
      const cursor = answer.result?.nextPageCursor;
      return { rows, next: rows.length && cursor ? { ...task, cursor } : null };
    }
    case "earn": {
      // One stream walks the windows itself, so a key without Earn's permission is asked once.
      const windowEnd = Math.min(task.start! + WINDOW_DAYS * DAY - 1, task.end!);
      let answer: { result?: { list?: BybitYield[]; yield?: BybitYield[]; nextPageCursor?: string } };
      try {
        answer = (await withClockRetry(client, () =>
          client.privateGetV5EarnYield({
            category: "FlexibleSaving",
            startTime: String(task.start),
            endTime: String(windowEnd),
            limit: String(YIELDS_PER_CALL),
            ...(task.cursor ? { cursor: task.cursor } : {}),
          }),
        )) as typeof answer;
      } catch (error) {
        if (!(error instanceof PermissionDenied)) throw error;
        return { rows: [{ refused: "this key may not read Earn" } satisfies BybitYield], next: null };
      }
      // Bybit's docs name the list `list` and show it as `yield`: either.
      const rows = answer.result?.list ?? answer.result?.yield ?? [];
      const cursor = answer.result?.nextPageCursor;
      if (rows.length && cursor) return { rows, next: { ...task, cursor } };
      return { rows, next: windowEnd < task.end! ? { ...task, start: windowEnd + 1, cursor: undefined } : null };
    }
    case "instruments": {
      const answer = (await client.publicGetV5MarketInstrumentsInfo({ category: "spot", symbol: task.symbol })) as {
        result?: { list?: Instrument[] };
      };
      const rows = (answer.result?.list ?? []).map(({ symbol, baseCoin, quoteCoin }) => ({
        symbol,
        baseCoin,
        quoteCoin,
      }));
      return { rows, next: null };
    }
    default:
      throw new Error(`unknown Bybit stream ${task.stream}`);
  }
}

/**
 * Bybit's spot fills as ledger rows (pure; docs/SOURCES.md "Bybit"): as OKX's. The fill's value is
 * its quote amount at the quote's USD price; the fee in kind (`feeCurrency`: the base on a buy, the
 * quote on a sell) sold from its position at the fill's price, a fee event; a negative fee (a maker
 * rebate) income in kind. A fill twice (a window's pages that met again) is one. A credited deposit
 * and a withdrawal that left as Binance's: a dollar stablecoin a cash flow at its USD value, another
 * coin a `receive` / `send` in kind naming its chain transaction and the address at the other end
 * (so the ledger can pair it with a linked wallet), a withdrawal's fee its units sold and a fee event.
 * A convert is a swap valued through its dollar side; an Earn yield paid income in kind (the coin
 * bought at its price then); Earn unreadable with the key is counted (DECISIONS 218).
 */
export function mapBybit(pages: StoredPage[], priceAt: AssetPrice): MappedExchange {
  const trades: ImportedTrade[] = [];
  const events: ImportedEvent[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const usd = (asset: string, time: Date) => (asset === "USD" ? 1 : priceAt(asset, time));
  const trade = (id: string, time: Date, asset: string, side: "buy" | "sell", quantity: number, price: number) => {
    if (USD_STABLES.has(asset)) return; // cash: the other leg moves it
    trades.push({ externalId: id, time, symbol: asset, assetClass: "crypto", side, quantity, price, fee: 0 });
  };
  /** A fee in kind not tied to a fill: its units sold at their price then, and a fee event. */
  const fee = (id: string, time: Date, asset: string, amount: number) => {
    if (!(amount > 0)) return;
    const p = usd(asset, time);
    if (p === undefined) return skip(`fee in ${asset} without a USD price`);
    trade(`${id}:k`, time, asset, "sell", amount, p);
    events.push({ externalId: id, time, kind: "fee", amount: amount * p });
  };
  const cashFlows: ImportedCashFlow[] = [];
  /** A move in or out: a dollar stablecoin is cash; another coin a receive or send in kind. */
  const move = (
    id: string,
    time: Date,
    kind: "receive" | "send",
    coin: string,
    quantity: number,
    chain: { txId?: string; address?: string },
  ) => {
    const what = kind === "receive" ? "deposit" : "withdrawal";
    const p = usd(coin, time);
    if (!(quantity > 0)) return skip(`Bybit ${what} without an amount`);
    if (p === undefined) return skip(`${what} of ${coin} without a USD price`);
    if (USD_STABLES.has(coin))
      cashFlows.push({ externalId: id, time, amount: (kind === "receive" ? 1 : -1) * quantity * p });
    else events.push({ externalId: id, time, kind, symbol: coin, quantity, price: p, ...chain });
  };
  const instruments = new Map<string, Instrument>();
  for (const page of pages)
    if (page.task.stream === "instruments") for (const i of page.rows as Instrument[]) instruments.set(i.symbol, i);
  /** A swap of `fromQty` of one coin for `toQty` of another, valued through the dollar side when there is one. */
  const swap = (id: string, time: Date, from: string, fromQty: number, to: string, toQty: number) => {
    if (USD_STABLES.has(from) && USD_STABLES.has(to)) return skip("convert between dollar stablecoins");
    const fromUsd = usd(from, time);
    const toUsd = usd(to, time);
    const value =
      fromUsd !== undefined && (USD_STABLES.has(from) || toUsd === undefined)
        ? fromQty * fromUsd
        : toUsd !== undefined
          ? toQty * toUsd
          : undefined;
    if (value === undefined || !(fromQty > 0) || !(toQty > 0)) return skip("convert without a USD price");
    trade(`${id}:s`, time, from, "sell", fromQty, value / fromQty);
    trade(`${id}:b`, time, to, "buy", toQty, value / toQty);
  };
  const seen = new Set<string>();
  for (const page of pages) {
    if (page.task.stream === "converts")
      for (const row of page.rows as BybitConvert[]) {
        const id = `bybit:c:${row.exchangeTxId}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const time = new Date(Number(row.createdTime) * 1000);
        swap(id, time, row.fromCoin, Number(row.fromAmount), row.toCoin, Number(row.toAmount));
      }
    if (page.task.stream === "earn")
      for (const row of page.rows as BybitYield[]) {
        if ("refused" in row) {
          skip("Bybit Earn yields (the key may not read Earn: tick Earn, read-only)");
          continue;
        }
        const id = `bybit:y:${row.id}`;
        if (row.status !== "Success" || seen.has(id)) continue; // pending or failed: not paid
        seen.add(id);
        const time = new Date(Number(row.createdAt));
        const amount = Number(row.amount);
        const p = usd(row.coin, time);
        if (p === undefined || !(amount > 0)) {
          skip(`reward in ${row.coin} without a USD price`);
          continue;
        }
        // Income worth the coin at the time, and the coin bought with it (as Kraken's rewards).
        events.push({ externalId: id, time, kind: "income", symbol: row.coin, amount: amount * p });
        trade(`${id}:b`, time, row.coin, "buy", amount, p);
      }
    if (page.task.stream === "deposits")
      for (const row of page.rows as BybitDeposit[]) {
        if (!DEPOSITED.has(Number(row.status))) continue; // pending, failed or rolled back: not in the account
        const id = `bybit:d:${row.id}`;
        if (seen.has(id)) continue;
        seen.add(id);
        move(id, new Date(Number(row.successAt)), "receive", row.coin, Number(row.amount), {
          ...(row.txID ? { txId: row.txID } : {}),
          ...(row.fromAddress ? { address: row.fromAddress } : {}),
        });
      }
    if (page.task.stream === "withdrawals")
      for (const row of page.rows as BybitWithdrawal[]) {
        if (!WITHDRAWN.has(row.status)) continue; // in review, cancelled, rejected or failed: still in the account
        const id = `bybit:w:${row.withdrawId}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const time = new Date(Number(row.updateTime || row.createTime));
        // Off-chain, `toAddress` is another Bybit user's UID and there is no chain transaction.
        const onChain = row.withdrawType !== 1;
        move(id, time, "send", row.coin, Number(row.amount), {
          ...(onChain && row.txID ? { txId: row.txID } : {}),
          ...(onChain && row.toAddress ? { address: row.toAddress } : {}),
        });
        fee(`bybit:wf:${row.withdrawId}`, time, row.coin, Number(row.withdrawFee));
      }
    if (page.task.stream !== "executions") continue;
    for (const row of page.rows as BybitExecution[]) {
      if (seen.has(row.execId)) continue;
      seen.add(row.execId);
      const time = new Date(Number(row.execTime));
      if (row.execType !== "Trade") {
        skip(`Bybit ${row.execType} execution (not graded yet)`);
        continue;
      }
      const instrument = instruments.get(row.symbol);
      if (!instrument) {
        skip("trade in a symbol Bybit did not describe");
        continue;
      }
      const { baseCoin: base, quoteCoin: quote } = instrument;
      const qty = Number(row.execQty);
      const cost = Number(row.execValue) || qty * Number(row.execPrice);
      if (!(qty > 0)) {
        skip("Bybit fill without a size");
        continue;
      }
      if (USD_STABLES.has(base) && USD_STABLES.has(quote)) {
        skip("trade between dollars and dollar stablecoins");
        continue;
      }
      const quoteUsd = usd(quote, time);
      if (quoteUsd === undefined) {
        skip(`trade in ${quote} without a USD price`);
        continue;
      }
      const side = row.side === "Buy" ? "buy" : "sell";
      const basePrice = (cost * quoteUsd) / qty;
      const id = `bybit:t:${row.execId}`;
      trade(id, time, base, side, qty, basePrice);
      trade(`${id}:q`, time, quote, side === "buy" ? "sell" : "buy", cost, quoteUsd);
      const fee = Number(row.execFee);
      if (!fee) continue;
      const asset = row.feeCurrency || (side === "buy" ? base : quote);
      const price = asset === base ? basePrice : asset === quote ? quoteUsd : usd(asset, time);
      if (price === undefined) {
        skip(`fee in ${asset} without a USD price`);
        continue;
      }
      const amount = Math.abs(fee);
      if (fee > 0) {
        trade(`${id}:k`, time, asset, "sell", amount, price);
        events.push({ externalId: `bybit:f:${row.execId}`, time, kind: "fee", amount: amount * price });
      } else {
        trade(`${id}:r`, time, asset, "buy", amount, price);
        events.push({
          externalId: `bybit:r:${row.execId}`,
          time,
          kind: "income",
          symbol: asset,
          amount: amount * price,
        });
      }
    }
  }
  return { batch: { trades, cashFlows, marks: [], events }, skipped };
}

export const bybit: ExchangeEntry = {
  id: "bybit",
  client(credentials, settings) {
    const client = ccxtClient("bybit", credentials, settings);
    // Bybit's API origins are templates ("https://api.{hostname}"): each family goes to the setting.
    const api = client.urls.api as Record<string, string>;
    for (const key of Object.keys(api)) if (typeof api[key] === "string") api[key] = settings.baseUrl;
    return client;
  },
  async checkKey(client) {
    // query-api needs no permission: what the key may do and whose account it is.
    const answer = (await withClockRetry(client, () => client.privateGetV5UserQueryApi())) as { result?: KeyInfo };
    const info = answer.result ?? {};
    const refused = readBybitPermissions(info);
    if (refused) return { ok: false, ...refused };
    // A sub-account's key names the sub-account (its own userID): an account of its own, as OKX's (DECISIONS 204).
    if (info.userID === undefined || info.userID === "")
      throw new Error("Bybit did not say which account this key is for.");
    return { ok: true, uid: String(info.userID) };
  },
  // The 2 years Bybit serves (no further than the history's start): fills a week a window, then
  // deposits and withdrawals 30 days a window (about 25 jobs each), oldest first.
  tasks: (fromMs, nowMs) => {
    const from = Math.max(fromMs, nowMs - KEEPS_DAYS * DAY);
    return [
      ...bybitWindows(from, nowMs),
      ...bybitWindows(from, nowMs, "deposits", TRANSFER_WINDOW_DAYS),
      ...bybitWindows(from, nowMs, "withdrawals", TRANSFER_WINDOW_DAYS),
      { stream: "converts" },
      // Earn's yields a week a window, one stream walking the windows (a key without Earn: asked once).
      { stream: "earn", start: from, end: nowMs },
    ];
  },
  async tradeTasks(_client, pages) {
    const symbols = new Set<string>();
    for (const p of pages)
      if (p.task.stream === "executions") for (const r of p.rows as BybitExecution[]) symbols.add(r.symbol);
    return [...symbols].sort().map((symbol) => ({ stream: "instruments", symbol }));
  },
  fetchPage,
  map: (pages, priceAt) => mapBybit(pages, priceAt),
  keeps: { days: KEEPS_DAYS, said: "2 years" },
  rateWaitSeconds: RATE_WAIT_SECONDS,
};
