import type { Exchange } from "ccxt";
import { EXCHANGE_VIEWS } from "~/lib/exchanges";
import type { ImportedCashFlow, ImportedEvent, ImportedTrade } from "../imported";
import {
  ccxtClient,
  rebase,
  withClockRetry,
  type AssetPrice,
  type ExchangeEntry,
  type FetchedPage,
  type HistoryTask,
  type MappedExchange,
  type StoredPage,
} from "../exchange.server";

// Binance spot (PROVIDERS.md §7; docs/SOURCES.md "Binance"). Its limits shape the plan: trades
// only per symbol (so the symbols are found from balances, deposits, withdrawals, converts and
// dust first), deposits and withdrawals in spans under 90 days, converts in 30-day spans, the dust
// log in one call (it keeps the last 100 sweeps).

const DAY = 86_400_000;
const SPAN = { deposits: 89 * DAY, withdrawals: 89 * DAY, converts: 30 * DAY - 1 } as const;
const TRADES_PER_CALL = 1000;
const ROWS_PER_CALL = 1000;
/** Dollar stablecoins: cash in the ledger, valued at the price source's USD price at the time. */
export const USD_STABLES = new Set(["USDT", "USDC", "BUSD", "FDUSD", "TUSD", "USDP", "DAI", "USD"]);
/** Quotes a traded asset may have besides the assets the account touched. */
const COMMON_QUOTES = ["USDT", "USDC", "FDUSD", "BUSD", "BTC", "ETH", "BNB", "EUR"];
const HELP = EXCHANGE_VIEWS.binance.readOnlyKeyHelp;

type Restrictions = {
  enableReading?: boolean;
  enableWithdrawals?: boolean;
  enableInternalTransfer?: boolean;
  enableMargin?: boolean;
  enableFutures?: boolean;
  permitsUniversalTransfer?: boolean;
  enableVanillaOptions?: boolean;
  enableSpotAndMarginTrading?: boolean;
  enablePortfolioMarginTrading?: boolean;
  enableFixApiTrade?: boolean;
};
type Account = { uid?: number | string; balances?: { asset: string; free: string; locked: string }[] };
export type BinanceTrade = {
  symbol: string;
  id: number;
  orderId: number;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
};
type Deposit = {
  id?: string;
  coin: string;
  amount: string;
  status: number;
  insertTime: number;
  txId?: string;
  sourceAddress?: string;
};
type Withdrawal = {
  id: string;
  coin: string;
  amount: string;
  transactionFee: string;
  status: number;
  address: string;
  txId?: string;
  applyTime: string;
  completeTime?: string;
};
type Convert = {
  orderId: number | string;
  orderStatus: string;
  fromAsset: string;
  fromAmount: string;
  toAsset: string;
  toAmount: string;
  createTime: number;
};
type Dust = {
  userAssetDribblets?: {
    transId: number;
    operateTime: number;
    userAssetDribbletDetails: {
      transId: number;
      fromAsset: string;
      amount: string;
      transferedAmount: string;
      serviceChargeAmount: string;
      operateTime: number;
    }[];
  }[];
};

const TRADE_PERMISSIONS: [keyof Restrictions, string][] = [
  ["enableSpotAndMarginTrading", "Enable Spot & Margin Trading"],
  ["enableMargin", "Enable Margin Loan, Repay & Transfer"],
  ["enableFutures", "Enable Futures"],
  ["enableVanillaOptions", "Enable European Options"],
  ["enablePortfolioMarginTrading", "Enable Portfolio Margin Trading"],
  ["enableFixApiTrade", "Enable FIX API trading"],
];
const MOVE_PERMISSIONS: [keyof Restrictions, string][] = [
  ["enableWithdrawals", "Enable Withdrawals"],
  ["enableInternalTransfer", "Permits Internal Transfer"],
  ["permitsUniversalTransfer", "Permits Universal Transfer"],
];

/** Read-only or not, from `GET /sapi/v1/account/apiRestrictions` (pure; exported for tests). */
export function readRestrictions(
  r: Restrictions,
): { permission: "trade" | "withdraw" | "read"; message: string } | null {
  const moves = MOVE_PERMISSIONS.filter(([key]) => r[key]).map(([, label]) => label);
  if (moves.length)
    return {
      permission: "withdraw",
      message: `This key can withdraw. Create a read-only key: ${HELP} (untick ${moves.join(", ")}).`,
    };
  const trades = TRADE_PERMISSIONS.filter(([key]) => r[key]).map(([, label]) => label);
  if (trades.length)
    return {
      permission: "trade",
      message: `This key can trade. Create a read-only key: ${HELP} (untick ${trades.join(", ")}).`,
    };
  if (!r.enableReading)
    return { permission: "read", message: `This key cannot read the account. Create a read-only key: ${HELP}` };
  return null;
}

function windows(stream: keyof typeof SPAN, fromMs: number, nowMs: number): HistoryTask[] {
  const out: HistoryTask[] = [];
  for (let start = fromMs; start < nowMs; start += SPAN[stream] + 1)
    out.push({ stream, start, end: Math.min(nowMs, start + SPAN[stream]) });
  return out;
}

async function fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
  const page = task.page ?? 0;
  const call = (f: () => Promise<unknown>) => withClockRetry(client, f);
  switch (task.stream) {
    case "account": {
      const account = (await call(() => client.privateGetAccount({ omitZeroBalances: true }))) as Account;
      return { rows: [account], next: null };
    }
    case "deposits": {
      const rows = (await call(() =>
        client.sapiGetCapitalDepositHisrec({
          startTime: task.start,
          endTime: task.end,
          offset: page,
          limit: ROWS_PER_CALL,
        }),
      )) as Deposit[];
      return { rows, next: rows.length === ROWS_PER_CALL ? { ...task, page: page + ROWS_PER_CALL } : null };
    }
    case "withdrawals": {
      const rows = (await call(() =>
        client.sapiGetCapitalWithdrawHistory({
          startTime: task.start,
          endTime: task.end,
          offset: page,
          limit: ROWS_PER_CALL,
        }),
      )) as Withdrawal[];
      return { rows, next: rows.length === ROWS_PER_CALL ? { ...task, page: page + ROWS_PER_CALL } : null };
    }
    case "converts": {
      const answer = (await call(() =>
        client.sapiGetConvertTradeFlow({ startTime: task.start, endTime: task.end, limit: ROWS_PER_CALL }),
      )) as { list?: Convert[]; moreData?: boolean };
      const rows = answer.list ?? [];
      const last = rows.reduce((t, r) => Math.max(t, Number(r.createTime)), task.start ?? 0);
      return { rows, next: answer.moreData && rows.length ? { ...task, start: last + 1 } : null };
    }
    case "dust": {
      const answer = (await call(() => client.sapiGetAssetDribblet({}))) as Dust;
      return { rows: answer.userAssetDribblets ?? [], next: null };
    }
    case "trades": {
      // fromId walks a symbol's whole history 1,000 trades a call, from its first (DECISIONS 183).
      const rows = (await call(() =>
        client.privateGetMyTrades({ symbol: pairOf(task.symbol!).id, fromId: page, limit: TRADES_PER_CALL }),
      )) as BinanceTrade[];
      const last = rows[rows.length - 1];
      return { rows, next: rows.length === TRADES_PER_CALL && last ? { ...task, page: Number(last.id) + 1 } : null };
    }
    default:
      throw new Error(`unknown Binance stream ${task.stream}`);
  }
}

/** Every asset the account touched, from the pages read before its trades (pure). */
export function assetsTouched(pages: StoredPage[]): Set<string> {
  const assets = new Set<string>();
  for (const p of pages)
    for (const row of p.rows) {
      if (p.task.stream === "account")
        for (const b of (row as Account).balances ?? []) if (Number(b.free) + Number(b.locked) > 0) assets.add(b.asset);
      if (p.task.stream === "deposits" || p.task.stream === "withdrawals") assets.add((row as Deposit).coin);
      if (p.task.stream === "converts") {
        assets.add((row as Convert).fromAsset);
        assets.add((row as Convert).toAsset);
      }
      if (p.task.stream === "dust") {
        assets.add("BNB");
        for (const d of (row as NonNullable<Dust["userAssetDribblets"]>[number]).userAssetDribbletDetails)
          assets.add(d.fromAsset);
      }
    }
  return assets;
}

/** Symbol → base and quote, from `exchangeInfo`, for the trade tasks' symbols. */
type SymbolInfo = { symbol: string; baseAsset: string; quoteAsset: string };

async function tradeTasks(client: Exchange, pages: StoredPage[]): Promise<HistoryTask[]> {
  const assets = assetsTouched(pages);
  const quotes = new Set([...assets, ...COMMON_QUOTES]);
  const info = (await client.publicGetExchangeInfo({ permissions: "SPOT" })) as { symbols?: SymbolInfo[] };
  return (info.symbols ?? [])
    .filter((s) => assets.has(s.baseAsset) && quotes.has(s.quoteAsset))
    .sort((a, b) => (a.symbol < b.symbol ? -1 : 1))
    .map((s) => ({ stream: "trades", symbol: `${s.symbol}|${s.baseAsset}/${s.quoteAsset}`, page: 0 }));
}

/** "BTCUSDT|BTC/USDT" → the exchange's id and the pair (the task keeps both). */
function pairOf(symbol: string): { id: string; base: string; quote: string } {
  const [id, pair] = symbol.split("|") as [string, string];
  const [base, quote] = pair.split("/") as [string, string];
  return { id, base, quote };
}

/**
 * Binance's history as ledger rows (pure; docs/SOURCES.md "Binance"). Spot trades at the quote's
 * USD price at the trade's time (a stablecoin's from the price source too; a crypto quote's leg is
 * a trade of its own); fees in kind sold from their position and charged as fee events at the
 * fee asset's price (DECISIONS 184); converts and dust
 * sweeps as swaps; deposits and withdrawals of a stablecoin as cash flows, of another coin in kind.
 * What cannot be valued is counted by reason, never dropped silently.
 */
export function mapBinance(pages: StoredPage[], priceAt: AssetPrice): MappedExchange {
  const trades: ImportedTrade[] = [];
  const cashFlows: ImportedCashFlow[] = [];
  const events: ImportedEvent[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const usd = (asset: string, time: Date) => (asset === "USD" ? 1 : priceAt(asset, time));
  const trade = (id: string, time: Date, asset: string, side: "buy" | "sell", quantity: number, price: number) => {
    if (USD_STABLES.has(asset)) return; // cash: the other leg moves it
    trades.push({ externalId: id, time, symbol: asset, assetClass: "crypto", side, quantity, price, fee: 0 });
  };
  /**
   * A fee in kind: the units paid are sold at their price then (the position shrinks by them, its
   * gain or loss realized) and the proceeds are the fee. `fromPosition` false: the units never
   * reached the position (a dust sweep's charge comes off the BNB it gives).
   */
  const fee = (id: string, time: Date, asset: string, amount: number, fromPosition = true) => {
    if (!(amount > 0)) return;
    const p = usd(asset, time);
    if (p === undefined) return skip(`fee in ${asset} without a USD price`);
    if (fromPosition) trade(`${id}:k`, time, asset, "sell", amount, p);
    events.push({ externalId: id, time, kind: "fee", amount: amount * p });
  };
  /** A swap of `fromQty` of one asset for `toQty` of another, valued through either side. */
  const swap = (id: string, time: Date, from: string, fromQty: number, to: string, toQty: number, what: string) => {
    if (USD_STABLES.has(from) && USD_STABLES.has(to)) return skip(`${what} between dollar stablecoins`);
    const fromUsd = usd(from, time);
    const toUsd = usd(to, time);
    const value =
      USD_STABLES.has(from) && fromUsd !== undefined
        ? fromQty * fromUsd
        : USD_STABLES.has(to) && toUsd !== undefined
          ? toQty * toUsd
          : fromUsd !== undefined
            ? fromQty * fromUsd
            : toUsd !== undefined
              ? toQty * toUsd
              : undefined;
    if (value === undefined || !(fromQty > 0) || !(toQty > 0)) return skip(`${what} without a USD price`);
    trade(`${id}:s`, time, from, "sell", fromQty, value / fromQty);
    trade(`${id}:b`, time, to, "buy", toQty, value / toQty);
  };

  for (const page of pages) {
    switch (page.task.stream) {
      case "trades": {
        const { id: symbolId, base, quote } = pairOf(page.task.symbol!);
        for (const row of page.rows as BinanceTrade[]) {
          const id = `binance:t:${symbolId}:${row.id}`;
          const time = new Date(row.time);
          const qty = Number(row.qty);
          const quoteQty = Number(row.quoteQty) || qty * Number(row.price);
          const side = row.isBuyer ? "buy" : "sell";
          if (USD_STABLES.has(base) && USD_STABLES.has(quote)) {
            skip("trade between dollar stablecoins");
            continue;
          }
          const quoteUsd = usd(quote, time);
          if (quoteUsd === undefined || !(qty > 0)) {
            skip(`trade in ${quote} without a USD price`);
            continue;
          }
          const value = quoteQty * quoteUsd;
          trade(id, time, base, side, qty, value / qty);
          // A crypto quote is a position too: its leg moves the other way.
          trade(`${id}:q`, time, quote, side === "buy" ? "sell" : "buy", quoteQty, quoteUsd);
          fee(`binance:f:${symbolId}:${row.id}`, time, row.commissionAsset, Number(row.commission));
        }
        break;
      }
      case "deposits":
        for (const row of page.rows as Deposit[]) {
          if (row.status !== 1 && row.status !== 6) continue; // pending, wrong or unconfirmed: not in the account
          const time = new Date(row.insertTime);
          const id = `binance:d:${row.id ?? row.txId}`;
          const p = usd(row.coin, time);
          if (p === undefined) {
            skip(`deposit of ${row.coin} without a USD price`);
            continue;
          }
          if (USD_STABLES.has(row.coin)) cashFlows.push({ externalId: id, time, amount: Number(row.amount) * p });
          else
            events.push({
              externalId: id,
              time,
              kind: "receive",
              symbol: row.coin,
              quantity: Number(row.amount),
              price: p,
              ...(row.txId ? { txId: row.txId } : {}),
              ...(row.sourceAddress ? { address: row.sourceAddress } : {}),
            });
        }
        break;
      case "withdrawals":
        for (const row of page.rows as Withdrawal[]) {
          if (row.status !== 6) continue; // only completed withdrawals left the account
          const time = new Date((row.completeTime ?? row.applyTime).replace(" ", "T") + "Z");
          const id = `binance:w:${row.id}`;
          const p = usd(row.coin, time);
          if (p === undefined) {
            skip(`withdrawal of ${row.coin} without a USD price`);
            continue;
          }
          const amount = Number(row.amount);
          if (USD_STABLES.has(row.coin)) cashFlows.push({ externalId: id, time, amount: -amount * p });
          else
            events.push({
              externalId: id,
              time,
              kind: "send",
              symbol: row.coin,
              quantity: amount,
              price: p,
              ...(row.txId ? { txId: row.txId } : {}),
              address: row.address,
            });
          fee(`binance:wf:${row.id}`, time, row.coin, Number(row.transactionFee));
        }
        break;
      case "converts":
        for (const row of page.rows as Convert[]) {
          if (row.orderStatus !== "SUCCESS") continue;
          swap(
            `binance:c:${row.orderId}`,
            new Date(Number(row.createTime)),
            row.fromAsset,
            Number(row.fromAmount),
            row.toAsset,
            Number(row.toAmount),
            "convert",
          );
        }
        break;
      case "dust":
        for (const sweep of page.rows as NonNullable<Dust["userAssetDribblets"]>)
          for (const d of sweep.userAssetDribbletDetails) {
            const time = new Date(d.operateTime);
            const got = Number(d.transferedAmount);
            const charge = Number(d.serviceChargeAmount);
            const id = `binance:dust:${sweep.transId}:${d.fromAsset}`;
            const bnb = usd("BNB", time);
            if (bnb === undefined || !(Number(d.amount) > 0) || !(got > 0)) {
              skip("dust sweep without a USD price");
              continue;
            }
            // The sweep's gross BNB pays for the dust; its service charge is the fee.
            trade(`${id}:s`, time, d.fromAsset, "sell", Number(d.amount), ((got + charge) * bnb) / Number(d.amount));
            trade(`${id}:b`, time, "BNB", "buy", got, bnb);
            fee(`${id}:f`, time, "BNB", charge, false);
          }
        break;
      default:
        break;
    }
  }
  return { batch: { trades, cashFlows, marks: [], events }, skipped };
}

export const binance: ExchangeEntry = {
  id: "binance",
  client(credentials, settings) {
    // Only spot: no margin pairs, no currency list (their endpoints need other permissions).
    const client = ccxtClient("binance", credentials, settings, {
      fetchMargins: false,
      fetchCurrencies: false,
      defaultType: "spot",
      recvWindow: 10_000,
    });
    rebase(client, "https://api.binance.com", settings.baseUrl);
    return client;
  },
  async checkKey(client) {
    const restrictions = (await withClockRetry(client, () => client.sapiGetAccountApiRestrictions())) as Restrictions;
    const refused = readRestrictions(restrictions);
    if (refused) return { ok: false, ...refused };
    const account = (await withClockRetry(client, () =>
      client.privateGetAccount({ omitZeroBalances: true }),
    )) as Account;
    if (account.uid === undefined || account.uid === null)
      throw new Error("Binance did not say which account this key is for.");
    return { ok: true, uid: String(account.uid) };
  },
  tasks: (fromMs, nowMs) => [
    { stream: "account" },
    ...windows("deposits", fromMs, nowMs),
    ...windows("withdrawals", fromMs, nowMs),
    ...windows("converts", fromMs, nowMs),
    { stream: "dust" },
  ],
  tradeTasks,
  fetchPage,
  map: (pages, priceAt) => mapBinance(pages, priceAt),
};
