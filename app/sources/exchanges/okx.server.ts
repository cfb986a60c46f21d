import type { Exchange } from "ccxt";
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

// OKX v5 spot (PROVIDERS.md §11; docs/SOURCES.md "OKX"). A key comes with a passphrase (ccxt
// `password`) and signs each request (OK-ACCESS-SIGN, ccxt does it). Two private endpoints hold the
// fills: `trade/fills-history` (the last year) and `trade/fills` (the last 3 days), 100 rows a call,
// newest first, paged by `after` = the last row's billId; the two overlap, and a fill in both is
// one. Older fills OKX no longer serves: said plainly (`keeps`) and counted in the grade. Deposits
// and withdrawals (`asset/deposit-history`, `asset/withdrawal-history`) come newest first too, 100
// a call, paged by time: `after` and `before` are timestamps (both exclusive). Converts
// (`asset/convert/history`) and the funding account's bills (`asset/bills-history`, all time
// since 2021-02, 1 request a second) page the same way: converts become swaps, earn and staking
// yields and airdrops income in kind (DECISIONS 218).

const DAY = 86_400_000;
const FILLS_PER_CALL = 100;
const MOVES_PER_CALL = 100;
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
/** A row of `asset/deposit-history`. */
export type OkxDeposit = {
  ccy: string;
  chain?: string;
  amt: string;
  /** The initiator's account (phone, email, name) of an internal transfer; "" for one from the chain. */
  from?: string;
  /** OKX's own deposit address (on-chain), not the sender's. */
  to?: string;
  txId?: string;
  ts: string;
  /** "0" waiting for confirmations, "1" credited (not yet withdrawable), "2" successful, others held. */
  state: string;
  depId: string;
  fromWdId?: string;
};
/** A row of `asset/withdrawal-history`. */
export type OkxWithdrawal = {
  ccy: string;
  chain?: string;
  /** What leaves for `to`; the fee is on top of it. */
  amt: string;
  ts: string;
  from?: string;
  /** The receiving address (an email, phone or UID for an internal transfer). */
  to: string;
  /** The chain hash; "" for an internal transfer. */
  txId?: string;
  fee?: string;
  feeCcy?: string;
  /** "2" success, "-1" failed, "-2" canceled, others pending. */
  state: string;
  wdId: string;
};
/** A row of `asset/convert/history`: `side` is the base's (buy: the quote paid for the base). */
export type OkxConvert = {
  tradeId: string;
  state: string;
  instId: string;
  baseCcy: string;
  quoteCcy: string;
  side: "buy" | "sell";
  fillPx?: string;
  fillBaseSz: string;
  fillQuoteSz: string;
  ts: string;
};
/** A row of `asset/bills-history` (the funding account's bills). */
export type OkxBill = {
  billId: string;
  ccy: string;
  balChg: string;
  bal?: string;
  type: string;
  notes?: string;
  ts: string;
};
type AccountConfig = { uid?: string; mainUid?: string; perm?: string };

/**
 * Funding bill types that are a reward, income in kind (OKX "Asset bills details" `type`): 28
 * manually claimed airdrop, 48 event reward, 83 staking yield, 89 deposit yield, 139 ETH staking
 * earnings, 229 airdrop, 328 SOL staking reward, 343 Simple Earn Fixed interest.
 */
const REWARD_BILLS = new Set(["28", "48", "83", "89", "139", "229", "328", "343"]);
/**
 * Funding bill types read elsewhere (1 deposit, 2 withdrawal, 13 canceled withdrawal, 221 the
 * chain's withdrawal fee) or moving coins between one's own OKX accounts and earn products (75, 76
 * Simple Earn flexible, 80, 82 DeFi/staking, 130, 131 trading ↔ funding, 137, 138 ETH staking).
 */
const OWN_BILLS = new Set(["1", "2", "13", "75", "76", "80", "82", "130", "131", "137", "138", "221"]);
/** Transfers with another (sub-)account of the same owner: coins in or out of this one, not read yet. */
const SUB_ACCOUNT_BILLS = new Set(["20", "21", "22", "23"]);

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
  if (["deposits", "withdrawals", "converts", "bills"].includes(task.stream)) return fetchMoves(client, task);
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
 * One page of deposits or withdrawals between the task's start and end (ms, both included), newest
 * first. OKX pages them by time only: the next page asks for rows before the last row's ts + 1, so
 * rows sharing that instant are read again rather than lost (the mapping reads each id once); a
 * page of one instant only moves on past it.
 */
async function fetchMoves(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
  const after = task.cursor ?? (task.end !== undefined ? String(task.end + 1) : undefined);
  const params = {
    limit: String(MOVES_PER_CALL),
    ...(after !== undefined ? { after } : {}),
    ...(task.start !== undefined ? { before: String(task.start - 1) } : {}),
  };
  const call = {
    deposits: () => client.privateGetAssetDepositHistory(params),
    withdrawals: () => client.privateGetAssetWithdrawalHistory(params),
    converts: () => client.privateGetAssetConvertHistory(params),
    bills: () => client.privateGetAssetBillsHistory(params),
  }[task.stream as "deposits" | "withdrawals" | "converts" | "bills"];
  const answer = (await withClockRetry(client, call)) as { data?: { ts: string }[] };
  const rows = answer.data ?? [];
  if (rows.length < MOVES_PER_CALL) return { rows, next: null };
  const last = Number(rows[rows.length - 1]!.ts);
  const cursor = String(after !== undefined && last + 1 >= Number(after) ? last : last + 1);
  return { rows, next: { ...task, cursor } };
}

/**
 * OKX's fills as ledger rows (pure; docs/SOURCES.md "OKX"). "BTC-USDT" is base and quote; the
 * fill's value is its quote amount at the quote's USD price (USD at 1, EUR without one: counted).
 * The fee is in kind (the asset received: the base on a buy, the quote on a sell): its units sold
 * from their position at the fill's own price, the proceeds a fee event (DECISIONS 184); a maker
 * rebate (a positive fee) is income in kind. A fill in both endpoints is one (by billId).
 * Deposits and withdrawals as Binance's: a dollar stablecoin's a cash flow at its USD value, another
 * coin's a receive or send in kind naming its chain transaction (and a withdrawal its destination),
 * so the ledger can pair it with a linked wallet; a withdrawal's fee sold from the position.
 * A convert is a swap valued through its dollar side; a funding bill of a reward type income in
 * kind (the coin bought at its price then), one read elsewhere or an own move nothing, any other
 * counted (DECISIONS 218).
 */
export function mapOkx(pages: StoredPage[], priceAt: AssetPrice): MappedExchange {
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
  /** A fee in kind: its units sold from their position at their price then, the proceeds the fee (DECISIONS 184). */
  const fee = (id: string, time: Date, asset: string, amount: number) => {
    const p = usd(asset, time);
    if (p === undefined) return skip(`fee in ${asset} without a USD price`);
    trade(`${id}:k`, time, asset, "sell", amount, p);
    events.push({ externalId: id, time, kind: "fee", amount: amount * p });
  };
  /** A move in or out: cash for a dollar stablecoin, else the coin in kind (`receive`/`send`). */
  const move = (
    id: string,
    time: Date,
    kind: "receive" | "send",
    asset: string,
    quantity: number,
    chain: { txId?: string; address?: string },
  ) => {
    const what = kind === "receive" ? "deposit" : "withdrawal";
    const p = usd(asset, time);
    if (p === undefined || !(quantity > 0)) return skip(`${what} of ${asset} without a USD price`);
    if (USD_STABLES.has(asset))
      cashFlows.push({ externalId: id, time, amount: (kind === "receive" ? quantity : -quantity) * p });
    else events.push({ externalId: id, time, kind, symbol: asset, quantity, price: p, ...chain });
  };
  /** A swap of `fromQty` of one asset for `toQty` of another, valued through the dollar side when there is one. */
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
    if (page.task.stream === "converts") {
      for (const row of page.rows as OkxConvert[]) {
        if (row.state !== "fullyFilled" || seen.has(`c:${row.tradeId}`)) continue; // rejected: nothing moved
        seen.add(`c:${row.tradeId}`);
        const base = Number(row.fillBaseSz);
        const quote = Number(row.fillQuoteSz);
        const time = new Date(Number(row.ts));
        if (row.side === "buy") swap(`okx:c:${row.tradeId}`, time, row.quoteCcy, quote, row.baseCcy, base);
        else swap(`okx:c:${row.tradeId}`, time, row.baseCcy, base, row.quoteCcy, quote);
      }
      continue;
    }
    if (page.task.stream === "bills") {
      for (const row of page.rows as OkxBill[]) {
        if (seen.has(`b:${row.billId}`) || OWN_BILLS.has(row.type)) continue;
        seen.add(`b:${row.billId}`);
        const amount = Number(row.balChg);
        if (SUB_ACCOUNT_BILLS.has(row.type)) {
          skip("OKX transfer with a sub-account (not read yet)");
          continue;
        }
        if (!REWARD_BILLS.has(row.type) || !(amount > 0)) {
          skip(`OKX funding bill of type ${row.type} (not read yet)`);
          continue;
        }
        const time = new Date(Number(row.ts));
        const p = usd(row.ccy, time);
        if (p === undefined) {
          skip(`reward in ${row.ccy} without a USD price`);
          continue;
        }
        // Income worth the coin at the time, and the coin bought with it (as Kraken's rewards).
        const id = `okx:b:${row.billId}`;
        events.push({ externalId: id, time, kind: "income", symbol: row.ccy, amount: amount * p });
        trade(`${id}:b`, time, row.ccy, "buy", amount, p);
      }
      continue;
    }
    if (page.task.stream === "deposits") {
      for (const row of page.rows as OkxDeposit[]) {
        // Credited ("1", tradable but not yet withdrawable) or successful ("2"): in the account.
        if ((row.state !== "1" && row.state !== "2") || seen.has(`d:${row.depId}`)) continue;
        seen.add(`d:${row.depId}`);
        // OKX names no sender's address (`from` is an internal transfer's account, `to` its own
        // deposit address): the chain hash alone pairs it.
        move(`okx:d:${row.depId}`, new Date(Number(row.ts)), "receive", row.ccy, Number(row.amt), {
          ...(row.txId ? { txId: row.txId } : {}),
        });
      }
      continue;
    }
    if (page.task.stream === "withdrawals") {
      for (const row of page.rows as OkxWithdrawal[]) {
        if (row.state !== "2" || seen.has(`w:${row.wdId}`)) continue; // only a success left the account
        seen.add(`w:${row.wdId}`);
        const time = new Date(Number(row.ts));
        // On chain (a txId), `to` is the destination's address; an internal transfer's is an account.
        move(`okx:w:${row.wdId}`, time, "send", row.ccy, Number(row.amt), {
          ...(row.txId ? { txId: row.txId, address: row.to } : {}),
        });
        // The fee is on top of the amount; older rows say "0.01000000eth" (parseFloat reads the number).
        const amount = parseFloat(row.fee ?? "");
        if (amount > 0) fee(`okx:wf:${row.wdId}`, time, (row.feeCcy || row.ccy).toUpperCase(), amount);
      }
      continue;
    }
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
      const charged = Number(row.fee);
      if (!charged) continue;
      const asset = row.feeCcy;
      const price = asset === base ? basePrice : asset === quote ? quoteUsd : usd(asset, time);
      if (price === undefined) {
        skip(`fee in ${asset} without a USD price`);
        continue;
      }
      const amount = Math.abs(charged);
      if (charged < 0) {
        trade(`${id}:k`, time, asset, "sell", amount, price);
        events.push({ externalId: `okx:f:${row.billId}`, time, kind: "fee", amount: amount * price });
      } else {
        trade(`${id}:r`, time, asset, "buy", amount, price);
        events.push({ externalId: `okx:r:${row.billId}`, time, kind: "income", symbol: asset, amount: amount * price });
      }
    }
  }
  return { batch: { trades, cashFlows, marks: [], events }, skipped };
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
  // from fills, then deposits, withdrawals, converts and funding bills from the history's start
  // (OKX names no depth for the first three; bills go back to 2021-02); all under an end fixed at
  // the import's start.
  tasks: (fromMs, nowMs) => [
    { stream: "fills-history", start: Math.max(fromMs, nowMs - KEEPS_DAYS * DAY), end: nowMs },
    { stream: "fills", start: Math.max(fromMs, nowMs - RECENT_DAYS * DAY), end: nowMs },
    { stream: "deposits", start: fromMs, end: nowMs },
    { stream: "withdrawals", start: fromMs, end: nowMs },
    { stream: "converts", start: fromMs, end: nowMs },
    { stream: "bills", start: fromMs, end: nowMs },
  ],
  tradeTasks: async () => [],
  fetchPage,
  map: (pages, priceAt) => mapOkx(pages, priceAt),
  keeps: { days: KEEPS_DAYS, said: "1 year" },
  rateWaitSeconds: RATE_WAIT_SECONDS,
};
