import ccxt, { type Exchange } from "ccxt";
import { EXCHANGE_VIEWS } from "~/lib/exchanges";
import type { ImportedCashFlow, ImportedEvent, ImportedTrade } from "../imported";
import {
  ccxtClient,
  rebase,
  type AssetPrice,
  type ExchangeEntry,
  type FetchedPage,
  type HistoryTask,
  type MappedExchange,
  type StoredPage,
} from "../exchange.server";
import { USD_STABLES } from "./binance.server";

// Kraken spot (PROVIDERS.md §9; docs/SOURCES.md "Kraken"). Two private streams hold the whole
// account: TradesHistory (every fill) and Ledgers (every balance change: deposits, withdrawals,
// staking rewards, Buy Crypto, fees), 50 rows a call, newest first, paged by offset (`ofs`) under
// a fixed `end` so rows arriving meanwhile do not shift the pages. Calls spend a per-key counter
// that decays (+2 for these two): an "EAPI:Rate limit exceeded" is waited out, not retried at once.
// The ledger names no chain: DepositStatus and WithdrawStatus (+1 each, paged by `cursor`) give a
// move's chain `txid` and, for a withdrawal, its destination (`info`), joined to the ledger entry
// by `refid`, so the move can pair with a linked wallet by hash or address (DECISIONS 218).

/** A history call's +2 on a Starter key's counter decaying 0.33 a second: about 6 s, rounded up. */
const RATE_WAIT_SECONDS = 7;
const HELP = EXCHANGE_VIEWS.kraken.readOnlyKeyHelp;

/** Kraken's legacy asset codes (X… crypto, Z… fiat) and staking twins, as everyone else names them. */
const LEGACY: Record<string, string> = {
  XXBT: "BTC",
  XBT: "BTC",
  XETH: "ETH",
  ETH2: "ETH",
  XXDG: "DOGE",
  XDG: "DOGE",
  XLTC: "LTC",
  XXRP: "XRP",
  XXLM: "XLM",
  XETC: "ETC",
  XXMR: "XMR",
  XZEC: "ZEC",
  XREP: "REP",
  XMLN: "MLN",
  ZUSD: "USD",
  ZEUR: "EUR",
  ZGBP: "GBP",
  ZCAD: "CAD",
  ZJPY: "JPY",
  ZAUD: "AUD",
};

/** "XXBT" → "BTC", "ETH.S" (staked ETH) → "ETH", "SOL.F" (auto-earn) → "SOL" (pure). */
export function krakenAsset(code: string): string {
  const bare = code.replace(/\.(S|M|P|B|F)$/, "");
  return LEGACY[bare] ?? bare;
}

export type KrakenTrade = {
  txid: string;
  ordertxid: string;
  pair: string;
  time: number;
  type: "buy" | "sell";
  ordertype: string;
  price: string;
  cost: string;
  fee: string;
  vol: string;
  margin: string;
  misc: string;
};
/** A row of DepositStatus / WithdrawStatus: `refid` is the ledger entry's; `info` the address. */
export type KrakenMoveStatus = {
  method?: string;
  aclass?: string;
  asset: string;
  refid: string;
  txid?: string;
  info?: string;
  amount: string;
  fee?: string;
  time: number;
  status: string;
};
export type KrakenLedgerEntry = {
  id: string;
  refid: string;
  time: number;
  type: string;
  subtype: string;
  aclass: string;
  asset: string;
  amount: string;
  fee: string;
  balance: string;
};
type Pair = { pair: string; base: string; quote: string };
type KeyInfo = { permissions?: string[]; iban?: string; apiKeyName?: string };

/** GetApiKeyInfo's permission names, as Kraken's key page labels them. */
const MOVES: Record<string, string> = { "withdraw-funds": "Withdraw Funds" };
const TRADES: Record<string, string> = {
  "modify-orders": "Create & Modify Orders",
  "cancel-close-orders": "Cancel & Close Orders",
  "modify-trades": "Create & Modify Orders",
};
/** Harmless: reading, exports and deposit addresses. */
const READS = new Set(["query-funds", "query-open-trades", "query-closed-trades", "query-ledger", "export-data"]);
const NEEDED = ["query-closed-trades", "query-ledger"];

/** Read-only or not, from `GetApiKeyInfo`'s permissions (pure; exported for tests). */
export function readKrakenPermissions(
  permissions: string[],
): { permission: "trade" | "withdraw" | "read"; message: string } | null {
  const moves = permissions.filter((p) => p in MOVES || /withdraw/.test(p)).map((p) => MOVES[p] ?? p);
  if (moves.length)
    return {
      permission: "withdraw",
      message: `This key can withdraw. Create a read-only key: ${HELP} (untick ${[...new Set(moves)].join(", ")}).`,
    };
  // Anything that is not a query, an export or deposit addresses may change the account.
  const trades = permissions.filter((p) => !READS.has(p) && p !== "deposit-funds").map((p) => TRADES[p] ?? p);
  if (trades.length)
    return {
      permission: "trade",
      message: `This key can trade. Create a read-only key: ${HELP} (untick ${[...new Set(trades)].join(", ")}).`,
    };
  if (!NEEDED.every((p) => permissions.includes(p)))
    return {
      permission: "read",
      message: `This key cannot read the trades and ledger. Create a read-only key: ${HELP}`,
    };
  return null;
}

/**
 * A private call, once more after an "EAPI:Invalid nonce": Kraken wants each nonce above the
 * last it accepted for the key, and another program using the key (or a retried job) may have
 * sent a higher one. The next millisecond's nonce is higher; a clock offset would not help.
 */
async function withNonceRetry<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ccxt.InvalidNonce)) throw error;
    await new Promise((r) => setTimeout(r, 5));
    return call();
  }
}

const seconds = (ms: number) => Math.floor(ms / 1000);

async function fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
  const ofs = task.page ?? 0;
  switch (task.stream) {
    case "fills": {
      const answer = (await withNonceRetry(() =>
        client.privatePostTradesHistory({ ofs, ...(task.end ? { end: seconds(task.end) } : {}) }),
      )) as { result?: { trades?: Record<string, Omit<KrakenTrade, "txid">>; count?: number } };
      const rows = Object.entries(answer.result?.trades ?? {}).map(([txid, t]) => ({ txid, ...t }));
      const count = Number(answer.result?.count ?? 0);
      return { rows, next: rows.length && ofs + rows.length < count ? { ...task, page: ofs + rows.length } : null };
    }
    case "ledgers": {
      const answer = (await withNonceRetry(() =>
        client.privatePostLedgers({
          ofs,
          ...(task.start ? { start: seconds(task.start) } : {}),
          ...(task.end ? { end: seconds(task.end) } : {}),
        }),
      )) as { result?: { ledger?: Record<string, Omit<KrakenLedgerEntry, "id">>; count?: number } };
      const rows = Object.entries(answer.result?.ledger ?? {}).map(([id, l]) => ({ id, ...l }));
      const count = Number(answer.result?.count ?? 0);
      return { rows, next: rows.length && ofs + rows.length < count ? { ...task, page: ofs + rows.length } : null };
    }
    case "deposit-status":
    case "withdraw-status": {
      // `cursor` true asks for the paged form: `{ deposit | withdrawals: […], next_cursor }`.
      const params = {
        cursor: task.cursor ?? true,
        ...(task.start ? { start: seconds(task.start) } : {}),
        ...(task.end ? { end: seconds(task.end) } : {}),
      };
      const answer = (await withNonceRetry(() =>
        task.stream === "deposit-status"
          ? client.privatePostDepositStatus(params)
          : client.privatePostWithdrawStatus(params),
      )) as { result?: KrakenMoveStatus[] | Record<string, KrakenMoveStatus[] | string | undefined> };
      const result = answer.result ?? [];
      const listed = Array.isArray(result)
        ? result
        : ((result.deposit ?? result.deposits ?? result.withdrawals ?? result.withdrawal ?? []) as KrakenMoveStatus[]);
      const cursor = Array.isArray(result) ? undefined : (result.next_cursor as string | undefined);
      return { rows: listed, next: listed.length && cursor ? { ...task, cursor } : null };
    }
    case "pairs": {
      // Public: the base and quote of the pairs the fills name ("XXBTZUSD" → XXBT, ZUSD).
      const answer = (await client.publicGetAssetPairs({ pair: task.symbol })) as {
        result?: Record<string, { base: string; quote: string }>;
      };
      const rows: Pair[] = Object.entries(answer.result ?? {}).map(([pair, p]) => ({
        pair,
        base: p.base,
        quote: p.quote,
      }));
      return { rows, next: null };
    }
    default:
      throw new Error(`unknown Kraken stream ${task.stream}`);
  }
}

/**
 * Kraken's history as ledger rows (pure; docs/SOURCES.md "Kraken"). Fills valued through the
 * quote's USD price at the fill (USD itself at 1), the fee in the asset the ledger charged it in
 * (the quote by default); deposits and withdrawals of dollars as cash flows, of coins in kind;
 * staking and earn rewards as income that buys the coin; Buy Crypto (spend/receive) as a swap;
 * moves between the spot and staking wallets are no change at all (ETH and ETH.S are one asset
 * here). Margin and futures are counted, never dropped silently.
 */
export function mapKraken(pages: StoredPage[], priceAt: AssetPrice): MappedExchange {
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
  /** A fee in kind: its units sold from their position at their price, the proceeds the fee (DECISIONS 184). */
  const fee = (id: string, time: Date, asset: string, amount: number) => {
    if (!(amount > 0)) return;
    const p = usd(asset, time);
    if (p === undefined) return skip(`fee in ${asset} without a USD price`);
    trade(`${id}:k`, time, asset, "sell", amount, p);
    events.push({ externalId: id, time, kind: "fee", amount: amount * p });
  };

  const pairs = new Map<string, Pair>();
  const ledger: KrakenLedgerEntry[] = [];
  const fills: KrakenTrade[] = [];
  for (const page of pages) {
    if (page.task.stream === "pairs") for (const p of page.rows as Pair[]) pairs.set(p.pair, p);
    if (page.task.stream === "ledgers") ledger.push(...(page.rows as KrakenLedgerEntry[]));
    if (page.task.stream === "fills") fills.push(...(page.rows as KrakenTrade[]));
  }
  // A deposit's or withdrawal's chain, by the ledger entry's refid: its hash, and a withdrawal's
  // destination (a deposit's `info` is Kraken's own deposit address, not the sender's).
  const chainOf = new Map<string, { txId?: string; address?: string }>();
  for (const page of pages) {
    if (page.task.stream !== "deposit-status" && page.task.stream !== "withdraw-status") continue;
    for (const m of page.rows as KrakenMoveStatus[]) {
      if (!m.refid || m.status !== "Success") continue;
      chainOf.set(m.refid, {
        ...(m.txid ? { txId: m.txid } : {}),
        ...(page.task.stream === "withdraw-status" && m.txid && m.info ? { address: m.info } : {}),
      });
    }
  }
  // The asset a fill's fee was charged in, from its ledger entries (refid = the fill's txid).
  const feeAsset = new Map<string, string>();
  for (const l of ledger) if (l.type === "trade" && Number(l.fee) > 0) feeAsset.set(l.refid, l.asset);

  for (const row of fills) {
    const time = new Date(row.time * 1000);
    const id = `kraken:t:${row.txid}`;
    if (Number(row.margin) > 0 || /closing|closed/.test(row.misc ?? "")) {
      skip("margin trade (not graded yet)");
      continue;
    }
    const pair = pairs.get(row.pair);
    if (!pair) {
      skip("trade in a pair Kraken did not describe");
      continue;
    }
    const base = krakenAsset(pair.base);
    const quote = krakenAsset(pair.quote);
    const qty = Number(row.vol);
    const cost = Number(row.cost) || qty * Number(row.price);
    if (USD_STABLES.has(base) && USD_STABLES.has(quote)) {
      skip("trade between dollars and dollar stablecoins");
      continue;
    }
    const quoteUsd = usd(quote, time);
    if (quoteUsd === undefined || !(qty > 0)) {
      skip(`trade in ${quote} without a USD price`);
      continue;
    }
    const value = cost * quoteUsd;
    trade(id, time, base, row.type, qty, value / qty);
    trade(`${id}:q`, time, quote, row.type === "buy" ? "sell" : "buy", cost, quoteUsd);
    fee(`kraken:f:${row.txid}`, time, krakenAsset(feeAsset.get(row.txid) ?? pair.quote), Number(row.fee));
  }

  // Buy Crypto: a spend and a receive sharing a refid.
  const swaps = new Map<string, KrakenLedgerEntry[]>();
  for (const l of ledger) {
    const time = new Date(l.time * 1000);
    const asset = krakenAsset(l.asset);
    const amount = Number(l.amount);
    const id = `kraken:l:${l.id}`;
    switch (l.type) {
      case "trade":
      case "transfer":
        // Fills come from TradesHistory; transfers move coins between one's own spot and
        // staking wallets (ETH → ETH.S), the same asset here.
        break;
      case "deposit":
      case "withdrawal": {
        const p = usd(asset, time);
        if (p === undefined) {
          skip(`${l.type} of ${asset} without a USD price`);
          break;
        }
        if (USD_STABLES.has(asset)) cashFlows.push({ externalId: id, time, amount: amount * p });
        else
          events.push({
            externalId: id,
            time,
            kind: amount >= 0 ? "receive" : "send",
            symbol: asset,
            quantity: Math.abs(amount),
            price: p,
            ...chainOf.get(l.refid),
          });
        fee(`${id}:f`, time, asset, Number(l.fee));
        break;
      }
      case "staking":
      case "earn": {
        // Earn's allocations and deallocations are wallet moves; its rewards (and staking's) are income.
        if (l.type === "earn" && l.subtype !== "reward") break;
        if (!(amount > 0)) break;
        const p = usd(asset, time);
        if (p === undefined) {
          skip(`reward in ${asset} without a USD price`);
          break;
        }
        // Income worth the coin at the time, and the coin bought with it: the position grows at that cost.
        events.push({ externalId: id, time, kind: "income", symbol: asset, amount: amount * p });
        trade(`${id}:b`, time, asset, "buy", amount, p);
        fee(`${id}:f`, time, asset, Number(l.fee));
        break;
      }
      case "spend":
      case "receive":
        swaps.set(l.refid, [...(swaps.get(l.refid) ?? []), l]);
        break;
      case "margin":
      case "rollover":
      case "settled":
      case "credit":
        skip(`margin ledger entry (${l.type}, not graded yet)`);
        break;
      default:
        skip(`Kraken ledger entry of type ${l.type}`);
    }
  }
  for (const [refid, legs] of swaps) {
    const spent = legs.find((l) => Number(l.amount) < 0);
    const got = legs.find((l) => Number(l.amount) > 0);
    if (!spent || !got) {
      skip("Buy Crypto without both of its legs");
      continue;
    }
    const time = new Date(got.time * 1000);
    const from = krakenAsset(spent.asset);
    const to = krakenAsset(got.asset);
    const fromQty = -Number(spent.amount);
    const toQty = Number(got.amount);
    const fromUsd = usd(from, time);
    const toUsd = usd(to, time);
    // The dollar side's value when there is one, else whichever side has a price.
    const value =
      fromUsd !== undefined && (USD_STABLES.has(from) || toUsd === undefined)
        ? fromQty * fromUsd
        : toUsd !== undefined
          ? toQty * toUsd
          : undefined;
    if (value === undefined || !(fromQty > 0) || !(toQty > 0)) {
      skip("Buy Crypto without a USD price");
      continue;
    }
    const id = `kraken:s:${refid}`;
    trade(`${id}:s`, time, from, "sell", fromQty, value / fromQty);
    trade(`${id}:b`, time, to, "buy", toQty, value / toQty);
    fee(`${id}:f`, time, from, Number(spent.fee));
    fee(`${id}:g`, time, to, Number(got.fee));
  }
  return { batch: { trades, cashFlows, marks: [], events }, skipped };
}

export const kraken: ExchangeEntry = {
  id: "kraken",
  client(credentials, settings) {
    const client = ccxtClient("kraken", credentials, settings);
    rebase(client, "https://api.kraken.com", settings.baseUrl);
    return client;
  },
  async checkKey(client) {
    // GetApiKeyInfo needs no permission: it says what the key may do and whose account it is.
    const answer = (await withNonceRetry(() => client.privatePostGetApiKeyInfo())) as { result?: KeyInfo };
    const info = answer.result ?? {};
    const refused = readKrakenPermissions(info.permissions ?? []);
    if (refused) return { ok: false, ...refused };
    if (!info.iban) throw new Error("Kraken did not say which account this key is for.");
    // The public account id ("AA88 N84G WOAK NMOI"), spaces dropped (DECISIONS 200).
    return { ok: true, uid: info.iban.replace(/\s+/g, "") };
  },
  // Fills from the first (TradesHistory has no window limit); the ledger over the history's span.
  // The fixed `end` keeps the offset pages still while new rows arrive. ("fills", not "trades":
  // the provider reads the pages before the trade streams without its "trades" ones.)
  tasks: (fromMs, nowMs) => [
    { stream: "fills", end: nowMs, page: 0 },
    { stream: "ledgers", start: fromMs, end: nowMs, page: 0 },
    { stream: "deposit-status", start: fromMs, end: nowMs },
    { stream: "withdraw-status", start: fromMs, end: nowMs },
  ],
  async tradeTasks(_client, pages) {
    const names = new Set<string>();
    for (const p of pages) if (p.task.stream === "fills") for (const r of p.rows as KrakenTrade[]) names.add(r.pair);
    return names.size ? [{ stream: "pairs", symbol: [...names].sort().join(",") }] : [];
  },
  fetchPage,
  map: (pages, priceAt) => mapKraken(pages, priceAt),
  // ccxt signs with the base64-decoded secret: anything else would fail on every call.
  credentialProblem: ({ secret }) =>
    /^[A-Za-z0-9+/]+={0,2}$/.test(secret) && secret.length % 4 === 0
      ? null
      : "Kraken's private key is base64 (letters, digits, + and /, ending in =): paste it as Kraken showed it.",
  rateWaitSeconds: RATE_WAIT_SECONDS,
};
