// One line per figure on the Stats tab: shown on hover/focus beside the figure and listed on
// /glossary. The wording follows docs/GRADING.md (the engine's definitions).
import { formatNumber } from "~/lib/format-number";

export type GlossaryEntry = { term: string; text: string };

export const GLOSSARY = {
  simpleReturn: { term: "Total return", text: "Total profit or loss divided by everything you deposited." },
  totalPnl: {
    term: "Total P&L",
    text: "Realized plus unrealized profit, plus dividends and interest, minus account fees, in dollars.",
  },
  twr: {
    term: "Time-weighted return",
    text: "Your trading's return with deposits and withdrawals taken out, chained period by period (the GIPS standard).",
  },
  mwr: {
    term: "Money-weighted return",
    text: "The yearly rate your actual deposits and withdrawals earned (Excel's XIRR); it rewards having more money in during good periods.",
  },
  benchmark: {
    term: "Benchmark",
    text: "The market over the same days: the S&P 500 for stocks and ETFs, Bitcoin for crypto, drawn on the same scale as your index.",
  },
  excess: { term: "Excess return", text: "Your time-weighted return minus the benchmark's over the same time." },
  psr: {
    term: "Edge is real (skill vs luck)",
    text: "The probability that your true Sharpe ratio is above zero, given how long, skewed and fat-tailed your record is (probabilistic Sharpe ratio).",
  },
  minTrackRecordDays: {
    term: "Days for 95 % confidence",
    text: "How many active days a record like yours needs before the edge is 95 % likely to be real (minimum track record length).",
  },
  maxDrawdown: { term: "Max drawdown", text: "The deepest fall of your account index from a previous high." },
  drawdown: { term: "Drawdown", text: "How far the index stands below its highest point so far, each day." },
  winRate: { term: "Win rate", text: "Round trips that made money divided by all completed round trips." },
  profitFactor: {
    term: "Profit factor",
    text: "Money made by winners divided by money lost by losers; above 1 means the winners paid for the losers.",
  },
  expectancy: { term: "Expectancy", text: "The average profit or loss per round trip, in dollars." },
  avgReturn: {
    term: "Average return",
    text: "The average of each round trip's profit or loss divided by the money it put in.",
  },
  pnlShare: {
    term: "P&L share",
    text: "This group's profit or loss as a share of the net result of all round trips (negative when it lost money).",
  },
  trips: {
    term: "Round trips",
    text: "Completed trades from opening a position to closing it back to zero, matched first in, first out.",
  },
  holding: { term: "Holding time", text: "How long a round trip was open, averaged over its pieces by quantity." },
  avgHoldingDays: { term: "Average holding", text: "The mean time your round trips stayed open." },
  medianHoldingDays: {
    term: "Median holding",
    text: "The middle holding time: half your round trips were shorter, half longer.",
  },
  trackRecordDays: {
    term: "Track record",
    text: "Days from your first activity to the grade; active days are those with a trade or an open position.",
  },
  activeDays: {
    term: "Active days",
    text: "Days with a trade or a position open at the day's start; idle days do not count as evidence.",
  },
  maxLeverage: {
    term: "Max leverage",
    text: "The largest total position size divided by account value right after any trade.",
  },
  income: {
    term: "Dividends and interest",
    text: "Income paid into your accounts: dividends, interest and staking rewards.",
  },
  sharpe: {
    term: "Sharpe ratio",
    text: "Average daily return divided by its volatility, yearly (√365), over active days.",
  },
  sortino: {
    term: "Sortino ratio",
    text: "Like the Sharpe ratio, but dividing only by the volatility of losing days.",
  },
  volatility: { term: "Volatility", text: "How much your daily returns swing, as a yearly standard deviation." },
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

/** "87 % likely your edge is real; 140 more active days would make it 95 %." */
export function skillInWords(
  psr: number | null | undefined,
  minTrackRecordDays: number | null | undefined,
  activeDays: number | null | undefined,
): string | null {
  if (psr === null || psr === undefined) return null;
  const likely = `${Math.round(psr * 100)} % likely your edge is real`;
  if (psr >= 0.95) return `${likely}: past the 95 % mark.`;
  if (
    minTrackRecordDays === null ||
    minTrackRecordDays === undefined ||
    activeDays === null ||
    activeDays === undefined
  ) {
    return `${likely}; the record does not yet show a positive edge to build on.`;
  }
  const more = Math.max(1, Math.ceil(minTrackRecordDays - activeDays));
  return `${likely}; ${formatNumber(more, 0)} more active day${more === 1 ? "" : "s"} like these would make it 95 %.`;
}
