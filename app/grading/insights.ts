// Insights: 3 to 5 short sentences, each citing the metric behind it, ranked by how many
// overall-score points the finding adds or costs. A provisional grade always leads with what
// would lift it.
import type { Insight, Metrics } from "./types";
import {
  BEHIND_MARKET_CAP,
  componentImpact,
  MIN_DAYS,
  MIN_ROUND_TRIPS,
  PROVISIONAL_CAP,
  tierOf,
  type Component,
  type ScoreResult,
} from "./score";

const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)} %`;
const signedPct = (x: number) => `${x >= 0 ? "+" : "−"}${(Math.abs(x) * 100).toFixed(1)} %`;
const times = (x: number) => `${x.toFixed(1)}×`;
// In the grade's base currency (v3.1): dollars as before, another base by its code.
const usd = (x: number, base = "USD") =>
  base === "USD" ? `$${Math.abs(x).toFixed(2)}` : `${Math.abs(x).toFixed(2)} ${base}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function sentence(c: Component, m: Metrics, recordDays: number): string | null {
  switch (c.id) {
    case "return":
      if (m.twr === null) return null;
      return (
        `Time-weighted return of ${signedPct(m.twr)} over ${plural(recordDays, "day")}` +
        (m.twrAnnualized !== null ? `, ${signedPct(m.twrAnnualized)} a year.` : " (under a year, so not annualised).")
      );
    case "alpha":
      return versusMarket(m);
    case "months-ahead": {
      const b = m.benchmark;
      if (b === null || b.monthsAhead === null) return null;
      return `${Math.round(b.monthsAhead * m.months)} of ${plural(m.months, "month")} beat ${benchmarkName(b.symbol)}.`;
    }
    case "sharpe-vs-market": {
      const b = m.benchmark;
      if (b === null || b.sharpe === null || m.sharpe === null) return null;
      return `Sharpe ratio of ${m.sharpe.toFixed(2)} against ${b.sharpe.toFixed(2)} for ${benchmarkName(b.symbol)} over the same days.`;
    }
    case "psr-vs-market": {
      const b = m.benchmark;
      if (b === null || b.psr === null) return null;
      return `${Math.round(b.psr * 100)} % likely your risk-adjusted return really beats ${benchmarkName(b.symbol)}'s (probabilistic Sharpe ratio).`;
    }
    case "leverage":
      return m.maxLeverage === null
        ? null
        : `Gross exposure reached ${times(m.maxLeverage)} equity at its peak (max leverage).`;
    case "psr": {
      if (m.psr === null) return null;
      const odds = `${Math.round(m.psr * 100)} % likely your edge is real (probabilistic Sharpe ratio)`;
      if (m.psr >= 0.95 || m.minTrackRecordDays === null) return `${odds}.`;
      const more = Math.ceil(m.minTrackRecordDays - m.activeDays);
      return more > 0 ? `${odds}; ${plural(more, "more active day")} like these would make it 95 %.` : `${odds}.`;
    }
    case "profit-factor":
      if (m.profitFactor !== null) return `Winners earned ${times(m.profitFactor)} what losers lost (profit factor).`;
      if (m.roundTrips > 0 && (m.winRate ?? 0) > 0)
        return `No losing round trip in ${plural(m.roundTrips, "round trip")}: profit factor is unbounded.`;
      return null;
    case "drawdown":
      return m.maxDrawdown === null ? null : `Deepest fall from a peak was ${pct(m.maxDrawdown)} (max drawdown).`;
    case "largest-loss":
      return m.largestLoss === null ? null : `Largest single round-trip loss took ${pct(m.largestLoss)} of equity.`;
    case "downside":
      return m.downsideDeviation === null
        ? null
        : `Losing days swing ${pct(m.downsideDeviation)} a year (downside deviation); gains are not counted as risk.`;
    case "concentration":
      return m.concentration === null ? null : `Largest position averaged ${pct(m.concentration, 0)} of equity.`;
    case "positive-months":
      return m.positiveMonths === null
        ? null
        : `${Math.round(m.positiveMonths * m.months)} of ${plural(m.months, "month")} had a positive return.`;
    case "sharpe":
      return m.sharpe === null ? null : `Sharpe ratio of ${m.sharpe.toFixed(2)} (daily returns, annualised).`;
    case "win-rate":
      return m.winRate === null ? null : `Won ${pct(m.winRate, 0)} of ${plural(m.roundTrips, "round trip")}.`;
    case "holding-ratio":
      if (m.holdingRatio === null) return null;
      return m.holdingRatio >= 1
        ? `Losers held ${times(m.holdingRatio)} longer than winners.`
        : `Winners held ${times(1 / m.holdingRatio)} longer than losers.`;
    case "tail-loss":
      return m.tailLossRatio === null || m.largestLossAmount === null
        ? null
        : `Largest loss (${usd(m.largestLossAmount, m.baseCurrency)}) was ${times(m.tailLossRatio)} the average loss.`;
    case "fee-drag":
      return m.feeDrag === null ? null : `Fees cost ${pct(m.feeDrag, 2)} of equity a year.`;
    case "track-record":
      return `${plural(m.activeDays, "active day")} of trading or holding.`;
    case "round-trips":
      return `${plural(m.roundTrips, "completed round trip")}.`;
    case "instruments":
      return `Traded ${plural(m.instruments, "instrument")}.`;
  }
  return null;
}

/** What the market did over the record, and what the record did. */
export function marketSentence(m: Metrics): string | null {
  const b = m.benchmark;
  if (b === null || m.twr === null) return null;
  const market = `${benchmarkName(b.symbol)} ${b.return >= 0 ? "rose" : "fell"} ${pct(Math.abs(b.return))}`;
  const you = `you ${m.twr >= 0 ? "gained" : "lost"} ${pct(Math.abs(m.twr))}`;
  return `Over the same time ${market} while ${you}.`;
}

/** |t| of an alpha below which it is no evidence either way (≈ 95 % two-sided). */
const EVIDENCE_T = 2;

/**
 * How the record compares with simply holding its benchmark, in plain words: alpha (per year from a
 * year of record) "at similar risk", or "in line" when the alpha is not 2 standard errors from 0.
 */
export function versusMarket(m: Metrics): string | null {
  const b = m.benchmark;
  if (b === null || m.alpha === null) return null;
  const name = benchmarkName(b.symbol);
  const perYear = m.trackRecordDays >= 365 ? "/yr" : "";
  const evident = m.alpha !== 0 && (b.alphaT === null || Math.abs(b.alphaT) >= EVIDENCE_T);
  if (!evident)
    return m.alpha === 0
      ? `In line with ${name}: no evidence of skill yet.`
      : `In line with ${name}: no evidence of skill yet (alpha ${signedPct(m.alpha)}${perYear}).`;
  return m.alpha > 0
    ? `${signedPct(m.alpha)}${perYear} over ${name} at similar risk (alpha).`
    : `${signedPct(m.alpha)}${perYear} behind ${name} at similar risk (alpha).`;
}

/** How insights name a benchmark. */
export function benchmarkName(symbol: string): string {
  const blend = /^SPY (\d+)\/BTC (\d+)$/.exec(symbol);
  if (blend) return `a blend of the S&P 500 (${blend[1]} %) and Bitcoin (${blend[2]} %)`;
  return symbol === "SPY" ? "the S&P 500" : symbol === "BTC" ? "Bitcoin" : symbol;
}

/**
 * `recordDays` is the curve's day count, the one the stats page prints (analytics recordDays):
 * trackRecordDays is elapsed time, and rounding 579.96 said "over 580 days" beside "581 days".
 */
export function buildInsights(m: Metrics, s: ScoreResult, recordDays: number): Insight[] {
  const out: Insight[] = [];
  if (s.provisional) {
    const needRt = Math.max(0, MIN_ROUND_TRIPS - m.roundTrips);
    const needDays = Math.max(0, MIN_DAYS - m.activeDays);
    const parts: string[] = [];
    if (needRt > 0) parts.push(`${plural(needRt, "more round trip")}`);
    if (needDays > 0) parts.push(`${plural(needDays, "more active day")} of history`);
    out.push({
      id: "provisional",
      text: `Provisional grade (capped at ${tierOf(PROVISIONAL_CAP)}): ${parts.join(" and ")} would lift the cap.`,
      metric: needRt > 0 ? "roundTrips" : "activeDays",
      impact: round1(s.score - s.uncapped),
    });
  }
  if (s.behindMarket && s.score < s.uncapped && m.benchmark !== null) {
    out.push({
      id: "behind-market",
      text: `Money was lost while ${benchmarkName(m.benchmark.symbol)} did better, so the grade is capped at ${tierOf(BEHIND_MARKET_CAP)}.`,
      metric: "benchmark",
      impact: round1(
        Math.min(s.score, PROVISIONAL_CAP) - Math.min(s.uncapped, s.provisional ? PROVISIONAL_CAP : Infinity),
      ),
    });
  }
  if (s.leverageFactor < 1) {
    out.push({
      id: "leverage-discount",
      text: `Leverage of ${times(m.maxLeverage ?? 0)} equity discounts the whole grade by ${Math.round((1 - s.leverageFactor) * 100)} % (over 2× counts against it).`,
      metric: "maxLeverage",
      impact: round1(s.uncapped - s.unlevered),
    });
  }
  const ranked = s.components
    .map((c, order) => ({ c, order, impact: componentImpact(c, s.confidence) }))
    .filter((x) => !x.c.neutral)
    .map((x) => ({ ...x, text: sentence(x.c, m, recordDays) }))
    .filter((x): x is typeof x & { text: string } => x.text !== null)
    .sort((a, b) => Math.abs(b.impact) - Math.abs(a.impact) || a.order - b.order);
  // What the market did, and how the record compares with holding it, are always said when a
  // benchmark was given (the market sentence scores nothing itself: impact 0).
  const vs = ranked.findIndex((x) => x.c.id === "alpha");
  if (vs > 0) ranked.unshift(...ranked.splice(vs, 1));
  const said = marketSentence(m);
  if (said !== null && out.length < 5) out.push({ id: "excess-return", text: said, metric: "benchmark", impact: 0 });
  for (const x of ranked) {
    if (out.length >= 5) break;
    out.push({ id: x.c.id, text: x.text, metric: x.c.metric, impact: round1(x.impact) });
  }
  return out;
}

function round1(x: number): number {
  const r = Math.round(x * 10) / 10;
  return r === 0 ? 0 : r;
}
