// Contracts held past their expiry with no closing trade (DECISIONS 197): the ledger is missing the
// settlement, so the position is closed at its last mark at the end of its expiry day, by a trade
// the engine writes, and the report says so. Without it a dead contract would stay open at its last
// price for ever, and its P&L would never be realized.
import { TRUSTED_CONFIDENCE, type Ledger, type Trade } from "../ledger";
import { formatIso, parseIsoMs } from "../time";

const DAY_MS = 86_400_000;
/** An open quantity below this fraction of what was traded is rounding residue, not a position. */
const RESIDUE = 1e-9;

/** A settlement the engine wrote: the position, the day it expired, what was closed and at what price. */
export interface Expired {
  account: string;
  symbol: string;
  expiry: string;
  /** Signed quantity closed (in contracts, as the ledger counts them): + a long closed, − a short. */
  quantity: number;
  price: number;
  /** The settlement trade's id in the prepared ledger. */
  id: string;
}

/**
 * The ledger with a closing trade for each (account, symbol) still open at the end of its expiry
 * day when asOf is later; the same ledger (and no settlement) when there is none. The closing price
 * is the last price known by then (a mark or a trade); quantities as the ledger counts them.
 */
export function settleExpired(ledger: Ledger): { ledger: Ledger; expired: Expired[] } {
  const asOfMs = ledger.asOf !== undefined ? parseIsoMs(ledger.asOf) : latestMs(ledger);
  // The expiring symbols (one expiry per symbol: parseLedger refuses two) and the end of their day.
  const ends = new Map<string, { end: number; expiry: string; sample: Trade }>();
  for (const t of ledger.trades) {
    if (t.expiry === undefined || ends.has(t.symbol)) continue;
    const end = parseIsoMs(t.expiry) + DAY_MS - 1;
    if (end < asOfMs) ends.set(t.symbol, { end, expiry: t.expiry, sample: t });
  }
  if (ends.size === 0) return { ledger, expired: [] };
  // Open quantity per (account, symbol) at the end of the expiry day, and the last price by then.
  const open = new Map<string, { account: string; symbol: string; net: number; gross: number }>();
  // The last price, and the last one that may raise a value (a trade's or a trusted mark's, §1 "Marks").
  const last = new Map<string, { t: number; price: number }>();
  const trusted = new Map<string, { t: number; price: number }>();
  const see = (symbol: string, t: number, price: number, vouched: boolean) => {
    const seen = last.get(symbol);
    if (seen === undefined || t >= seen.t) last.set(symbol, { t, price });
    const ref = trusted.get(symbol);
    if (vouched && (ref === undefined || t >= ref.t)) trusted.set(symbol, { t, price });
  };
  for (const t of ledger.trades) {
    const e = ends.get(t.symbol);
    if (e === undefined) continue;
    const ms = parseIsoMs(t.time);
    if (ms > e.end) continue;
    const key = `${t.account}\u0000${t.symbol}`;
    const o = open.get(key) ?? { account: t.account, symbol: t.symbol, net: 0, gross: 0 };
    o.net += t.side === "buy" ? t.quantity : -t.quantity;
    o.gross += t.quantity;
    open.set(key, o);
    see(t.symbol, ms, t.price, true);
  }
  for (const p of ledger.prices) {
    const e = ends.get(p.symbol);
    if (e === undefined) continue;
    const ms = parseIsoMs(p.time);
    if (ms <= e.end) see(p.symbol, ms, p.price, p.confidence !== undefined && p.confidence >= TRUSTED_CONFIDENCE);
  }
  const ids = new Set(ledger.trades.map((t) => String(t.id)));
  const added: Trade[] = [];
  const expired: Expired[] = [];
  for (const o of [...open.values()].sort((a, b) => cmp(a.account, b.account) || cmp(a.symbol, b.symbol))) {
    if (Math.abs(o.net) <= o.gross * RESIDUE) continue;
    const e = ends.get(o.symbol)!;
    // An untrusted last price closes a long no higher, and a short no lower, than the trusted one.
    const seen = last.get(o.symbol)!.price;
    const ref = trusted.get(o.symbol)!.price;
    const price = o.net > 0 ? Math.min(seen, ref) : Math.max(seen, ref);
    let id = `expiry:${o.account}:${o.symbol}`;
    while (ids.has(id)) id += "'";
    ids.add(id);
    const { sample } = e;
    const trade: Trade = {
      id,
      account: o.account,
      time: formatIso(e.end),
      symbol: o.symbol,
      assetClass: sample.assetClass,
      side: o.net > 0 ? "sell" : "buy",
      quantity: Math.abs(o.net),
      price,
      fee: 0,
    };
    if (sample.currency !== undefined) trade.currency = sample.currency;
    if (sample.multiplier !== undefined) trade.multiplier = sample.multiplier;
    trade.expiry = e.expiry;
    added.push(trade);
    expired.push({ account: o.account, symbol: o.symbol, expiry: e.expiry, quantity: o.net, price, id });
  }
  if (added.length === 0) return { ledger, expired: [] };
  return { ledger: { ...ledger, trades: [...ledger.trades, ...added] }, expired };
}

/** Whether any trade names an expiry (the fx path's check; the plain path learns it while reading). */
export function anyExpiry(ledger: Ledger): boolean {
  for (const t of ledger.trades) if (t.expiry !== undefined) return true;
  return false;
}

function latestMs(ledger: Ledger): number {
  let hi = -Infinity;
  const see = (items: readonly { time: string }[]) => {
    for (const x of items) {
      const t = parseIsoMs(x.time);
      if (t > hi) hi = t;
    }
  };
  see(ledger.trades);
  see(ledger.cashFlows ?? []);
  see(ledger.prices ?? []);
  see(ledger.events ?? []);
  return hi;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
