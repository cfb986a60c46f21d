import type { Ledger, PriceMark, Trade } from "~/grading";

/**
 * Which market prices may value a record between its own trades (pure; the fetching is in
 * ledger.server.ts). A broker reports a position's price only when it trades or at the import's
 * holdings, so without daily closes an open position is flat between them and the account line
 * stops at the last import while the market moves. Daily closes from the price source fill the
 * gaps, from a symbol's first fill to asOf, but only for a symbol whose closes agree with the
 * trader's own fills: a ticker the source reads as another instrument, or a history the source
 * has unadjusted differently, would otherwise invent a gain or a loss.
 */

/** A fill agrees with the market when it is within this share of that day's close. */
export const FILL_AGREEMENT = 0.2;
/** The share of a symbol's fills that must agree before its closes are used. */
export const AGREEING_SHARE = 0.9;
/** Symbols given daily closes at most (the most traded, by value): one price request each. */
export const MARKED_SYMBOLS_MAX = 100;

/**
 * A close with the instant it became known (the New York close; the end of the UTC day for a coin),
 * and who quoted it and how far it vouches for it (0–1) when known: they go on its mark, where a
 * confidence below the engine's threshold, or none, may lower a value but never raise it (DECISIONS 208).
 */
export type Close = { time: number; price: number; source?: string; confidence?: number };

/** The symbols worth a market series: traded as stocks, ETFs or crypto, the most traded first (by value), at most MARKED_SYMBOLS_MAX. */
export function symbolsToMark(trades: readonly Trade[]): Array<{ symbol: string; assetClass: Trade["assetClass"] }> {
  const value = new Map<string, { symbol: string; assetClass: Trade["assetClass"]; value: number }>();
  for (const t of trades) {
    if (t.assetClass === "option") continue;
    const key = `${t.assetClass}\u0000${t.symbol}`;
    const entry = value.get(key) ?? { symbol: t.symbol, assetClass: t.assetClass, value: 0 };
    entry.value += t.quantity * t.price;
    value.set(key, entry);
  }
  return [...value.values()]
    .sort((a, b) => b.value - a.value || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
    .slice(0, MARKED_SYMBOLS_MAX)
    .map(({ symbol, assetClass }) => ({ symbol, assetClass }));
}

/** The index of the first close at or after `t` (closes ascending; closes.length when none is). */
function firstAtOrAfter(closes: readonly Close[], t: number): number {
  let lo = 0;
  let hi = closes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (closes[mid]!.time < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether a symbol's closes agree with its fills: at least AGREEING_SHARE of the priced fills
 * within FILL_AGREEMENT of the close of their day (the first close after a fill when the day's
 * own is not known yet, e.g. a fill before the New York close).
 */
export function closesAgree(fills: ReadonlyArray<{ time: number; price: number }>, closes: readonly Close[]): boolean {
  let priced = 0;
  let agreeing = 0;
  for (const f of fills) {
    if (!(f.price > 0)) continue;
    const i = firstAtOrAfter(closes, f.time);
    const after = closes[i];
    const near = after !== undefined && after.time - f.time <= 86_400_000 ? after : closes[i - 1];
    if (near === undefined) continue;
    priced++;
    if (Math.abs(f.price / near.price - 1) <= FILL_AGREEMENT) agreeing++;
  }
  return priced > 0 && agreeing >= AGREEING_SHARE * priced;
}

/**
 * The ledger with the market's daily closes as marks for each symbol whose closes agree with its
 * fills (from its first fill to asOf), each with its close's source and confidence, and the
 * symbols that got none: no series, or one that disagrees with the fills. Marks at the same
 * instant as a kept mark are left to the kept one (the broker's own price).
 */
export function withMarketCloses(
  ledger: Ledger,
  series: ReadonlyMap<string, readonly Close[]>,
): { ledger: Ledger; marked: string[]; unpriced: string[] } {
  const asOf = ledger.asOf === undefined ? Infinity : Date.parse(ledger.asOf);
  const fills = new Map<string, Array<{ time: number; price: number }>>();
  for (const t of ledger.trades) {
    const list = fills.get(t.symbol) ?? [];
    list.push({ time: Date.parse(t.time), price: t.price });
    fills.set(t.symbol, list);
  }
  const kept = new Set(ledger.prices.map((p) => `${p.symbol}\u0000${Date.parse(p.time)}`));
  const added: PriceMark[] = [];
  const marked: string[] = [];
  const unpriced: string[] = [];
  for (const [symbol, own] of [...fills].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const closes = series.get(symbol);
    if (!closes?.length || !closesAgree(own, closes)) {
      if (own.some((f) => f.price > 0)) unpriced.push(symbol);
      continue;
    }
    const first = Math.min(...own.map((f) => f.time));
    for (const c of closes) {
      if (c.time <= first || c.time > asOf || kept.has(`${symbol}\u0000${c.time}`)) continue;
      added.push({
        symbol,
        time: new Date(c.time).toISOString(),
        price: c.price,
        ...(c.source !== undefined ? { source: c.source } : {}),
        ...(c.confidence !== undefined ? { confidence: c.confidence } : {}),
      });
    }
    marked.push(symbol);
  }
  return { ledger: added.length ? { ...ledger, prices: [...ledger.prices, ...added] } : ledger, marked, unpriced };
}
