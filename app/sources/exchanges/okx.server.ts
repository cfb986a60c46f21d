import type { Exchange } from "ccxt";
import { EXCHANGE_VIEWS } from "~/lib/exchanges";
import type { ImportedEvent, ImportedTrade } from "../imported";
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

// OKX v5 spot (PROVIDERS.md §11; docs/SOURCES.md "OKX"). A key comes with a passphrase (ccxt
// `password`) and signs each request (OK-ACCESS-SIGN, ccxt does it). Two private endpoints hold the
// fills: `trade/fills-history` (the last year) and `trade/fills` (the last 3 days), 100 rows a call,
// newest first, paged by `after` = the last row's billId; the two overlap, and a fill in both is
// one. Older fills OKX no longer serves: said plainly (`keeps`) and counted in the grade.

const DAY = 86_400_000;
const FILLS_PER_CALL = 100;
/** What `trade/fills-history` serves: the last year. */
const KEEPS_DAYS = 365;
const RECENT_DAYS = 3;
/** fills-history allows 10 requests per 2 s per user: a 50011 waits 2 s. */
const RATE_WAIT_SECONDS = 2;
const HELP = EXCHANGE_VIEWS.okx.readOnlyKeyHelp;

export type OkxFill = {
  instType: string;
  instId: string;
  tradeId: string;
  ordId: string;
  billId: string;
  subType?: string;
  fillPx: string;
  fillSz: string;
  side: "buy" | "sell";
  execType?: string;
  /** The asset the fee is in; `fee` negative is charged, positive a rebate. */
  feeCcy: string;
  fee: string;
  fillTime?: string;
  ts: string;
};
type AccountConfig = { uid?: string; mainUid?: string; perm?: string };

/** Read-only or not, from `account/config`'s `perm` ("read_only,trade,withdraw"; pure, exported for tests). */
export function readOkxPermissions(
  perm: string,
): { permission: "trade" | "withdraw" | "read"; message: string } | null {
  const perms = perm.split(",").map((p) => p.trim());
  if (perms.includes("withdraw"))
    return {
      permission: "withdraw",
      message: `This key can withdraw. Create a read-only key: ${HELP} (untick Withdraw).`,
    };
  if (perms.includes("trade"))
    return { permission: "trade", message: `This key can trade. Create a read-only key: ${HELP} (untick Trade).` };
  if (!perms.includes("read_only"))
    return { permission: "read", message: `This key cannot read the account. Create a read-only key: ${HELP}` };
  return null;
}

async function fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
  const params = {
    instType: "SPOT",
    limit: String(FILLS_PER_CALL),
    ...(task.start !== undefined ? { begin: String(task.start) } : {}),
    ...(task.end !== undefined ? { end: String(task.end) } : {}),
    ...(task.cursor ? { after: task.cursor } : {}),
  };
  let answer: { data?: OkxFill[] };
  if (task.stream === "fills-history")
    answer = (await withClockRetry(client, () => client.privateGetTradeFillsHistory(params))) as typeof answer;
  else if (task.stream === "fills")
    answer = (await withClockRetry(client, () => client.privateGetTradeFills(params))) as typeof answer;
  else throw new Error(`unknown OKX stream ${task.stream}`);
  const rows = answer.data ?? [];
  // A full page may have another behind it: the next asks for fills before its last billId.
  return { rows, next: rows.length === FILLS_PER_CALL ? { ...task, cursor: rows[rows.length - 1]!.billId } : null };
}

/**
 * OKX's fills as ledger rows (pure; docs/SOURCES.md "OKX"). "BTC-USDT" is base and quote; the
 * fill's value is its quote amount at the quote's USD price (USD at 1, EUR without one: counted).
 * The fee is in kind (the asset received: the base on a buy, the quote on a sell): its units sold
 * from their position at the fill's own price, the proceeds a fee event (DECISIONS 184); a maker
 * rebate (a positive fee) is income in kind. A fill in both endpoints is one (by billId).
 */
export function mapOkx(pages: StoredPage[], priceAt: AssetPrice): MappedExchange {
  const trades: ImportedTrade[] = [];
  const events: ImportedEvent[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const usd = (asset: string, time: Date) => (asset === "USD" ? 1 : priceAt(asset, time));
  const trade = (id: string, time: Date, asset: string, side: "buy" | "sell", quantity: number, price: number) => {
    if (USD_STABLES.has(asset)) return; // cash: the other leg moves it
    trades.push({ externalId: id, time, symbol: asset, assetClass: "crypto", side, quantity, price, fee: 0 });
  };
  const seen = new Set<string>();
  for (const page of pages) {
    if (page.task.stream !== "fills" && page.task.stream !== "fills-history") continue;
    for (const row of page.rows as OkxFill[]) {
      if (seen.has(row.billId)) continue;
      seen.add(row.billId);
      const time = new Date(Number(row.fillTime || row.ts));
      if (row.instType !== "SPOT") {
        skip(`OKX ${row.instType.toLowerCase()} fill (not graded yet)`);
        continue;
      }
      const [base, quote] = row.instId.split("-") as [string, string | undefined];
      const qty = Number(row.fillSz);
      const cost = qty * Number(row.fillPx);
      if (!quote || !(qty > 0)) {
        skip("OKX fill without an instrument or a size");
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
      const basePrice = (cost * quoteUsd) / qty;
      // ":k" after the fill's own id: the fee's units leave after the fill brought them (same instant).
      const id = `okx:t:${row.billId}`;
      trade(id, time, base, row.side, qty, basePrice);
      trade(`${id}:q`, time, quote, row.side === "buy" ? "sell" : "buy", cost, quoteUsd);
      const fee = Number(row.fee);
      if (!fee) continue;
      const asset = row.feeCcy;
      const price = asset === base ? basePrice : asset === quote ? quoteUsd : usd(asset, time);
      if (price === undefined) {
        skip(`fee in ${asset} without a USD price`);
        continue;
      }
      const amount = Math.abs(fee);
      if (fee < 0) {
        trade(`${id}:k`, time, asset, "sell", amount, price);
        events.push({ externalId: `okx:f:${row.billId}`, time, kind: "fee", amount: amount * price });
      } else {
        trade(`${id}:r`, time, asset, "buy", amount, price);
        events.push({ externalId: `okx:r:${row.billId}`, time, kind: "income", symbol: asset, amount: amount * price });
      }
    }
  }
  return { batch: { trades, cashFlows: [], marks: [], events }, skipped };
}

export const okx: ExchangeEntry = {
  id: "okx",
  client(credentials, settings) {
    const client = ccxtClient("okx", credentials, settings);
    // OKX's API origin is a template ("https://{hostname}"): the whole origin is the setting.
    (client.urls.api as Record<string, string>).rest = settings.baseUrl;
    return client;
  },
  async checkKey(client) {
    const answer = (await withClockRetry(client, () => client.privateGetAccountConfig())) as {
      data?: AccountConfig[];
    };
    const config = answer.data?.[0] ?? {};
    const refused = readOkxPermissions(config.perm ?? "");
    if (refused) return { ok: false, ...refused };
    // A sub-account's key names the sub-account (uid ≠ mainUid): its own fills, its own account (DECISIONS 203).
    if (!config.uid) throw new Error("OKX did not say which account this key is for.");
    return { ok: true, uid: config.uid };
  },
  // The year fills-history serves (no further than the history's start), then the last 3 days
  // from fills; both under an end fixed at the import's start.
  tasks: (fromMs, nowMs) => [
    { stream: "fills-history", start: Math.max(fromMs, nowMs - KEEPS_DAYS * DAY), end: nowMs },
    { stream: "fills", start: Math.max(fromMs, nowMs - RECENT_DAYS * DAY), end: nowMs },
  ],
  tradeTasks: async () => [],
  fetchPage,
  map: (pages, priceAt) => mapOkx(pages, priceAt),
  keeps: { days: KEEPS_DAYS, said: "1 year" },
  rateWaitSeconds: RATE_WAIT_SECONDS,
};
