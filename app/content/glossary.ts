// One line per figure on the Stats tab: shown on hover/focus beside the figure and listed on
// /glossary. The wording follows docs/GRADING.md (the engine's definitions). The grade's own
// figures take their name and line from the metric list (app/lib/metrics.ts); the rest are here.
import { formatNumber } from "~/lib/format-number";
import { METRICS, type MetricKey } from "~/lib/metrics";

export type GlossaryEntry = { term: string; text: string };

function metricEntry<K extends MetricKey>(key: K): { term: (typeof METRICS)[K]["label"]; text: string } {
  return { term: METRICS[key].label, text: METRICS[key].glossary };
}

export const GLOSSARY = {
  simpleReturn: metricEntry("simpleReturn"),
  totalPnl: metricEntry("totalPnl"),
  twr: metricEntry("twr"),
  mwr: metricEntry("mwr"),
  "benchmark.return": metricEntry("benchmark.return"),
  "benchmark.excess": metricEntry("benchmark.excess"),
  alpha: metricEntry("alpha"),
  beta: metricEntry("beta"),
  "benchmark.alphaT": metricEntry("benchmark.alphaT"),
  "benchmark.sharpe": metricEntry("benchmark.sharpe"),
  "benchmark.psr": metricEntry("benchmark.psr"),
  "benchmark.monthsAhead": metricEntry("benchmark.monthsAhead"),
  riskFreeRate: metricEntry("riskFreeRate"),
  localReturn: metricEntry("localReturn"),
  currencyReturn: metricEntry("currencyReturn"),
  fxPnl: metricEntry("fxPnl"),
  fxRealizedPnl: metricEntry("fxRealizedPnl"),
  positionsAtCost: metricEntry("positionsAtCost"),
  psr: metricEntry("psr"),
  minTrackRecordDays: metricEntry("minTrackRecordDays"),
  maxDrawdown: metricEntry("maxDrawdown"),
  drawdown: { term: "Drawdown", text: "How far the index stands below its highest point so far, each day." },
  winRate: metricEntry("winRate"),
  profitFactor: metricEntry("profitFactor"),
  expectancy: metricEntry("expectancy"),
  avgReturn: {
    term: "Average return",
    text: "The average of each round trip's profit or loss divided by the money it put in.",
  },
  pnlShare: {
    term: "P&L share",
    text: "This group's profit or loss as a share of the net result of all round trips (negative when it lost money).",
  },
  trips: metricEntry("roundTrips"),
  holding: { term: "Holding time", text: "How long a round trip was open, averaged over its pieces by quantity." },
  avgHoldingDays: metricEntry("avgHoldingDays"),
  medianHoldingDays: metricEntry("medianHoldingDays"),
  trackRecordDays: metricEntry("trackRecordDays"),
  activeDays: metricEntry("activeDays"),
  maxLeverage: metricEntry("maxLeverage"),
  income: metricEntry("income"),
  sharpe: metricEntry("sharpe"),
  sortino: metricEntry("sortino"),
  volatility: metricEntry("volatility"),
  downsideDeviation: metricEntry("downsideDeviation"),
  index: {
    term: "Account index",
    text: "Your account's growth with deposits and withdrawals taken out: 1.00 is where it started, 1.20 is +20 %.",
  },
  monthlyReturn: {
    term: "Monthly return",
    text: "The index at the month's end divided by the index at the previous month's end, minus 1; the year column chains the months.",
  },
  dailyPnl: { term: "Daily P&L", text: "The day's change in account value, net of deposits and withdrawals." },
  returnDistribution: {
    term: "Return distribution",
    text: "How many round trips ended in each band of return (profit or loss divided by the money put in).",
  },
  streak: {
    term: "Streak",
    text: "Winners or losers in a row, in the order they closed; a break-even trip ends a streak.",
  },
  breakEven: {
    term: "Break-even",
    text: "A round trip whose profit or loss is within a billionth of its size: neither a win nor a loss.",
  },
  score: {
    term: "Score",
    text: "0 to 100, from five dimensions of skill and experience; it sets the tier (Bronze to Legend).",
  },
  confidence: {
    term: "Confidence",
    text: "How much the record says: grows with round trips (up to 30) and active days (up to 180).",
  },
} as const satisfies Record<string, GlossaryEntry>;

export type GlossaryKey = keyof typeof GLOSSARY;

/** "87% likely your edge is real; 140 more active days would make it 95%." */
export function skillInWords(
  psr: number | null | undefined,
  minTrackRecordDays: number | null | undefined,
  activeDays: number | null | undefined,
): string | null {
  if (psr === null || psr === undefined) return null;
  const likely = `${Math.round(psr * 100)}% likely your edge is real`;
  if (psr >= 0.95) return `${likely}: past the 95% mark.`;
  if (
    minTrackRecordDays === null ||
    minTrackRecordDays === undefined ||
    activeDays === null ||
    activeDays === undefined
  ) {
    return `${likely}; the record does not yet show a positive edge to build on.`;
  }
  const more = Math.max(1, Math.ceil(minTrackRecordDays - activeDays));
  return `${likely}; ${formatNumber(more, 0)} more active day${more === 1 ? "" : "s"} like these would make it 95%.`;
}
