// The grade's figures, in one list: each under the engine's field name (Metrics in
// app/grading/types.ts; a benchmark-relative one under its path, "benchmark.psr"), with the label
// every page prints, how its value reads, its glossary line and its place on the card. The report,
// the Stats tab, the card, the verify page and the glossary read them from here, so a label or a
// format changes once. Plain data: safe for the browser (the engine's types only, no engine code).
import type { BenchmarkMetrics, Metrics } from "~/grading/types";
import { formatCompact, formatMoney, formatNumber, MINUS, trueMinus } from "./format-number";

type NumberFields<T> = { [K in keyof T]-?: NonNullable<T[K]> extends number ? K : never }[keyof T] & string;

/** A figure's place in Metrics: a numeric field, or one of the benchmark's as "benchmark.<field>". */
export type MetricPath = NumberFields<Metrics> | `benchmark.${NumberFields<BenchmarkMetrics>}`;

/**
 * What a value is: a fraction shown as a percentage, dollars, a ratio (two decimals), a multiple
 * (two decimals and ×), a probability ("87% likely"), a duration in days (one decimal), a count.
 */
export type MetricFormat = "percent" | "money" | "ratio" | "multiple" | "probability" | "days" | "count";

/**
 * How its sign reads. signed: a gain or a loss (+ or − on the card, coloured). plain: never signed
 * nor coloured (a win rate). loss: a size kept positive by the engine and shown as a fall.
 */
export type MetricSign = "signed" | "plain" | "loss";

/**
 * Its place among the card's four figures. The fourth depends on the trader's privacy choice:
 * dollars when they show amounts, a percentage when they do not.
 */
export type CardSlot = { slot: 1 | 2 | 3 | 4; when?: "amounts" | "percentages" };

export type MetricDefinition = {
  label: string;
  /** The label where a table or a paired figure has no room for the whole one. */
  short?: string;
  format: MetricFormat;
  sign: MetricSign;
  /** A whole count of days: " days" after the number. */
  unit?: "days";
  /** What a missing value means, when it means more than "not known" (no losing trip: no factor). */
  none?: string;
  /**
   * When pages leave the figure out rather than print "—": "unknown" when it is null (no risk-free
   * series), "zero" when it is 0 too (no position held at cost). A grade without the field (an
   * older engine, no benchmark) never shows it.
   */
  omit?: "unknown" | "zero";
  /** One sentence, shown beside the figure and on /glossary (wording from docs/GRADING.md). */
  glossary: string;
  card?: CardSlot;
};

// The order is the glossary's.
export const METRICS = {
  simpleReturn: {
    label: "Total return",
    format: "percent",
    sign: "signed",
    glossary: "Total profit or loss divided by everything you deposited.",
  },
  totalPnl: {
    label: "Total P&L",
    format: "money",
    sign: "signed",
    glossary:
      "Realized plus unrealized profit, plus dividends and interest, minus account fees, in your base currency (settings).",
    card: { slot: 4, when: "amounts" },
  },
  twr: {
    label: "Time-weighted return",
    format: "percent",
    sign: "signed",
    glossary:
      "Your trading's return with deposits and withdrawals taken out, chained period by period (the GIPS standard).",
    card: { slot: 1 },
  },
  mwr: {
    label: "Money-weighted return",
    format: "percent",
    sign: "signed",
    glossary:
      "The yearly rate your actual deposits and withdrawals earned (Excel's XIRR); it rewards having more money in during good periods.",
    card: { slot: 4, when: "percentages" },
  },
  // The figures against the market, inside the engine's `benchmark` (null without one).
  "benchmark.return": {
    label: "Benchmark return",
    short: "Benchmark",
    format: "percent",
    sign: "signed",
    glossary:
      "The market over the same time: the S&P 500 for stocks and ETFs, Bitcoin for crypto, a blend of both for a mixed record, drawn on the same scale as your index.",
  },
  "benchmark.excess": {
    label: "Excess over the benchmark",
    short: "Excess",
    format: "percent",
    sign: "signed",
    glossary: "Your time-weighted return minus the benchmark's over the same time.",
  },
  alpha: {
    label: "Alpha (beyond the market)",
    short: "Alpha",
    format: "percent",
    sign: "signed",
    glossary:
      "What you earned beyond the benchmark's return for the market risk you took (Jensen's alpha over the T-bill rate), per year from a year of record.",
    omit: "unknown",
  },
  beta: {
    label: "Beta (market risk)",
    short: "Beta",
    format: "ratio",
    sign: "plain",
    glossary:
      "How much your daily returns moved with the benchmark's: 1 moves with the market, 2 twice as much, 0 not at all.",
    omit: "unknown",
  },
  "benchmark.alphaT": {
    label: "Alpha's t-statistic",
    short: "Alpha t",
    format: "ratio",
    sign: "signed",
    glossary:
      "How many standard errors the alpha stands from zero: beyond 2 either way it is about 95 % unlikely to be luck.",
  },
  "benchmark.sharpe": {
    label: "Benchmark's Sharpe ratio",
    short: "Benchmark's Sharpe",
    format: "ratio",
    sign: "signed",
    glossary:
      "The benchmark's Sharpe ratio over your active days, above the same risk-free rate: the bar your own Sharpe ratio is set against.",
  },
  "benchmark.psr": {
    label: "Beats the benchmark's Sharpe",
    format: "probability",
    sign: "plain",
    glossary:
      "The probability that your true Sharpe ratio is above the benchmark's, given how long, skewed and fat-tailed your record is.",
  },
  "benchmark.monthsAhead": {
    label: "Months ahead of the benchmark",
    short: "Months ahead",
    format: "percent",
    sign: "plain",
    glossary:
      "The share of the months with an active day whose return beat the benchmark's over the month (the batting average); a tie counts half.",
  },
  localReturn: {
    label: "Return without the currency",
    short: "Assets' own move",
    format: "percent",
    sign: "signed",
    glossary:
      "Your time-weighted return with the exchange rates' moves taken out: what your assets did on their own, in their own currencies.",
  },
  currencyReturn: {
    label: "Currency's part of the return",
    short: "Currency's part",
    format: "percent",
    sign: "signed",
    glossary:
      "What exchange rate moves did to the money you held in other currencies each day; with the return without them it makes the whole.",
  },
  fxPnl: {
    label: "FX P&L on cash",
    format: "money",
    sign: "signed",
    glossary: "What cash held in other currencies gained or lost as exchange rates moved, realized or not.",
  },
  fxRealizedPnl: {
    label: "Realized FX P&L",
    format: "money",
    sign: "signed",
    glossary:
      "FX gains and losses made final when cash in another currency was spent, withdrawn or exchanged; part of realized P&L.",
  },
  riskFreeRate: {
    label: "Risk-free rate",
    format: "percent",
    sign: "plain",
    glossary:
      "The 3-month US Treasury bill yield over your record, on average: the return Sharpe, Sortino and alpha are measured above.",
    omit: "unknown",
  },
  positionsAtCost: {
    label: "Positions valued at cost",
    format: "count",
    sign: "plain",
    glossary:
      "Positions whose later prices came from a source that does not vouch for them: held at the lower of that price and the last trusted one, so a thin price never lifts your grade.",
    omit: "zero",
  },
  psr: {
    label: "Edge is real (skill vs luck)",
    format: "probability",
    sign: "plain",
    glossary:
      "The probability that your true Sharpe ratio is above zero, given how long, skewed and fat-tailed your record is (probabilistic Sharpe ratio).",
  },
  minTrackRecordDays: {
    label: "Days for 95 % confidence",
    format: "count",
    sign: "plain",
    unit: "days",
    glossary:
      "How many active days a record like yours needs before the edge is 95 % likely to be real (minimum track record length).",
  },
  maxDrawdown: {
    label: "Max drawdown",
    format: "percent",
    sign: "loss",
    glossary: "The deepest fall of your account index from a previous high.",
    card: { slot: 2 },
  },
  winRate: {
    label: "Win rate",
    format: "percent",
    sign: "plain",
    glossary: "Round trips that made money divided by all completed round trips.",
    card: { slot: 3 },
  },
  profitFactor: {
    label: "Profit factor",
    format: "ratio",
    sign: "plain",
    none: "no losses",
    glossary: "Money made by winners divided by money lost by losers; above 1 means the winners paid for the losers.",
  },
  expectancy: {
    label: "Expectancy",
    format: "money",
    sign: "signed",
    glossary: "The average profit or loss per round trip, in your base currency (settings).",
  },
  roundTrips: {
    label: "Round trips",
    short: "Trips",
    format: "count",
    sign: "plain",
    glossary: "Completed trades from opening a position to closing it back to zero, matched first in, first out.",
  },
  avgHoldingDays: {
    label: "Average holding",
    format: "days",
    sign: "plain",
    glossary: "The mean time your round trips stayed open.",
  },
  medianHoldingDays: {
    label: "Median holding",
    format: "days",
    sign: "plain",
    glossary: "The middle holding time: half your round trips were shorter, half longer.",
  },
  trackRecordDays: {
    label: "Track record",
    format: "count",
    sign: "plain",
    unit: "days",
    glossary: "Days from your first activity to the grade; active days are those with a trade or an open position.",
  },
  activeDays: {
    label: "Active days",
    format: "count",
    sign: "plain",
    glossary: "Days with a trade or a position open at the day's start; idle days do not count as evidence.",
  },
  maxLeverage: {
    label: "Max leverage",
    format: "multiple",
    sign: "plain",
    glossary: "The largest total position size divided by account value right after any trade.",
  },
  income: {
    label: "Dividends and interest",
    format: "money",
    sign: "signed",
    glossary: "Income paid into your accounts: dividends, interest and staking rewards.",
  },
  sharpe: {
    label: "Sharpe ratio",
    short: "Sharpe",
    format: "ratio",
    sign: "signed",
    glossary:
      "Average daily return above the risk-free rate divided by its volatility, yearly (√365), over active days.",
  },
  sortino: {
    label: "Sortino ratio",
    short: "Sortino",
    format: "ratio",
    sign: "signed",
    glossary: "Like the Sharpe ratio, but dividing only by the volatility of losing days.",
  },
  volatility: {
    label: "Volatility",
    format: "percent",
    sign: "plain",
    glossary: "How much your daily returns swing, as a yearly standard deviation.",
  },
  downsideDeviation: {
    label: "Downside deviation",
    format: "percent",
    sign: "plain",
    glossary:
      "How much your daily returns fall below the risk-free rate, as a yearly figure: the risk the grade counts, since gains are no risk.",
  },
} as const satisfies { [P in MetricPath]?: MetricDefinition };

export type MetricKey = keyof typeof METRICS;

/** The figures against the market, in the list's order: pages show them when the grade has a benchmark. */
export type BenchmarkMetricKey = Extract<MetricKey, `benchmark.${string}`>;
export const BENCHMARK_METRICS: readonly BenchmarkMetricKey[] = (Object.keys(METRICS) as MetricKey[]).filter(
  (k): k is BenchmarkMetricKey => k.startsWith("benchmark."),
);

const BENCHMARK_NAMES: Record<string, string> = { SPY: "S&P 500", BTC: "Bitcoin" };

/** A benchmark's name on the pages: a mixed record's blend (engine 3) states its weights. */
export function benchmarkLabel(symbol: string): string {
  const blend = /^SPY (\d+)\/BTC (\d+)$/.exec(symbol);
  if (blend) return `S&P 500 (${blend[1]} %) and Bitcoin (${blend[2]} %)`;
  return BENCHMARK_NAMES[symbol] ?? symbol;
}

/** What a figure is read from: the engine's Metrics, or a grade with its amounts taken out (all null). */
export type MetricSource = { [K in NumberFields<Metrics>]?: number | null } & {
  benchmark?: { [K in NumberFields<BenchmarkMetrics>]?: number | null } | null;
};

/** A figure's value in a grade; undefined when the grade has no such field (an older engine, no benchmark). */
export function metricValue(m: MetricSource, key: MetricKey): number | null | undefined {
  const dot = key.indexOf(".");
  if (dot < 0) return m[key as NumberFields<Metrics>];
  const field = key.slice(dot + 1) as NumberFields<BenchmarkMetrics>;
  return m.benchmark ? m.benchmark[field] : undefined;
}

/** The value a page shows, or undefined when the page leaves the figure out (see `omit`). */
export function shownValue(m: MetricSource, key: MetricKey): number | null | undefined {
  const v = metricValue(m, key);
  const { omit }: MetricDefinition = METRICS[key];
  if (v === undefined || (v === null && omit) || (v === 0 && omit === "zero")) return undefined;
  return v;
}

/** The value as the figure shows it: a loss as a fall below zero. */
function shown(key: MetricKey, value: number): number {
  return METRICS[key].sign === "loss" ? -Math.abs(value) : value;
}

/**
 * A figure as the report prints it: "+12.3%", "−4.5%", "$1,234.56", "1.85", "3.2 days", "—" when
 * unknown. A percentage reads as the card draws it, so a return or a drawdown is one string on
 * every page, the card and /verify; only an amount is in the trader's `locale` (DECISIONS 205).
 */
export function formatMetric(
  key: MetricKey,
  value: number | null | undefined,
  currency = "USD",
  locale?: string,
): string {
  const m: MetricDefinition = METRICS[key];
  if (value === null) return m.none ?? "—";
  if (value === undefined) return "—";
  const v = shown(key, value);
  const unit = m.unit ? ` ${m.unit}` : "";
  switch (m.format) {
    case "percent":
      return cardPercent(v, m.sign !== "plain");
    case "money":
      return formatMoney(v, currency, locale);
    case "ratio":
      return trueMinus(v.toFixed(2));
    case "multiple":
      return `${trueMinus(v.toFixed(2))}×`;
    case "probability":
      return `${Math.round(v * 100)}% likely`;
    case "days":
      return `${v.toFixed(1)} days`;
    case "count":
      return `${formatCompact(Math.round(v))}${unit}`;
  }
}

/**
 * A fraction as a signed percentage ("+12.3%", "−4.5%", one decimal unless told); huge values use
 * the compact K/M/B form so they never overflow. A value that rounds to zero has no sign.
 */
export function cardPercent(fraction: number | null | undefined, signed = true, digits = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return "—";
  const abs = Math.abs(fraction * 100);
  const body = abs >= 10_000 ? formatCompact(abs) : formatNumber(abs, digits, digits);
  const zero = abs < 10_000 && Number(body.replaceAll(",", "")) === 0;
  const sign = zero ? "" : fraction < 0 ? MINUS : signed && fraction > 0 ? "+" : "";
  return `${sign}${body}%`;
}

export function cardUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const sign = value < 0 ? MINUS : value > 0 ? "+" : "";
  const abs = Math.abs(value);
  const body = abs >= 10_000 ? formatCompact(abs) : formatNumber(abs, abs >= 100 ? 0 : 2);
  return `${sign}$${body}`;
}

/** The card's figures (a percentage or dollars, with a true minus); the card, the badge and /verify show them. */
export type CardMetricKey = {
  [K in MetricKey]: (typeof METRICS)[K] extends { card: CardSlot } ? K : never;
}[MetricKey];

/** A figure as the card draws it: "+12.3%", "−4.5%", "+$1,234", "—" when unknown. */
export function cardMetric(key: CardMetricKey, value: number | null | undefined): string {
  // Dollars are shorter on the card (no cents from $100); a percentage is the report's own string.
  return METRICS[key].format === "money" ? cardUsd(value) : formatMetric(key, value);
}

/** Green, red or neither: a plain figure is never coloured, a loss is red unless it is zero. */
export function cardTone(key: CardMetricKey, value: number | null | undefined): "up" | "down" | "flat" {
  if (METRICS[key].sign === "plain" || value === null || value === undefined || !Number.isFinite(value)) return "flat";
  const v = shown(key, value);
  return v === 0 ? "flat" : v > 0 ? "up" : "down";
}

/** The metrics the card draws, in slot order; the fourth slot follows the trader's privacy choice. */
export const CARD_METRICS: readonly CardMetricKey[] = (Object.keys(METRICS) as MetricKey[])
  .filter((k): k is CardMetricKey => "card" in METRICS[k])
  .sort((a, b) => METRICS[a].card.slot - METRICS[b].card.slot);

export function cardSlots(showAmounts: boolean): CardMetricKey[] {
  const when = showAmounts ? "amounts" : "percentages";
  return CARD_METRICS.filter((k) => {
    const card: CardSlot = METRICS[k].card;
    return card.when === undefined || card.when === when;
  });
}
