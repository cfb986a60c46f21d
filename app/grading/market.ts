// Skill and the market (GRADING.md §6b): the probabilistic Sharpe ratio over the active days, the
// benchmark's series, its figures and the return the score measures against; and which benchmark
// fits a ledger.
import { CRYPTO, type PreparedLedger } from "./columns";
import type { PassResult } from "./pass";
import type { Flow, ReturnFigures } from "./returns";
import type { RiskFigures } from "./risk";
import {
  benchmarkFigures,
  benchmarkReturn,
  benchmarkSeries,
  dailySharpe,
  meanRiskFreeRate,
  skillFigures,
  type BenchmarkSeries,
} from "./stats";
import { monthOfDay, zoneDayOf } from "./time";
import type { Metrics } from "./types";

export type MarketFigures = Pick<
  Metrics,
  "psr" | "minTrackRecordDays" | "benchmark" | "alpha" | "beta" | "riskFreeRate"
> & {
  /** The benchmark on the curve's days (null without a benchmark or capital). */
  bench: BenchmarkSeries | null;
  /** The benchmark's return from the first money in to asOf, what the score compares against. */
  scoredBenchmark: number | null;
};

/** The figures, and a warning when the benchmark's series starts after the first activity. */
export function marketFigures(
  c: PreparedLedger,
  pass: PassResult,
  risk: RiskFigures,
  flows: Flow[],
  returns: ReturnFigures,
  rf: Float64Array,
  warnings: string[],
): MarketFigures {
  const hasCapital = returns.twr !== null; // the TWR is null exactly when there is no capital
  // The PSR asks whether the true Sharpe ratio (over the risk-free rate) is above 0.
  const skill = hasCapital ? skillFigures(risk.activeExcess) : { psr: null, minTrackRecordDays: null };
  const bench = hasCapital ? benchmarkSeries(c.benchTime, c.benchPrice, c.firstMs, pass.dayStart, c.asOfMs) : null;
  const riskFreeRate = hasCapital ? meanRiskFreeRate(rf, c.rfTime.length > 0) : null;
  const figures: MarketFigures = {
    ...skill,
    benchmark: null,
    alpha: null,
    beta: null,
    riskFreeRate,
    bench,
    scoredBenchmark: null,
  };
  if (bench === null || c.benchSymbol === null) return figures;
  // Measured against the market from the first money in (a trade before any deposit is no record),
  // over every calendar day from then (GIPS: returns over calendar time).
  const funded = Math.max(flows.find((f) => f.amount > 0)?.time ?? c.firstMs, c.firstMs);
  const from = Math.max(0, Math.min(pass.days.length - 1, zoneDayOf(funded, c.timeZone) - pass.days[0]));
  const n = pass.days.length - from;
  const r = risk.returns.subarray(from);
  const rB = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const i = from + j;
    rB[j] = bench.index[i] / (i === 0 ? 1 : bench.index[i - 1]) - 1;
  }
  const bf = benchmarkFigures(r, rB, rf.subarray(from), returns.fullYear);
  figures.scoredBenchmark = benchmarkReturn(c.benchTime, c.benchPrice, funded, c.asOfMs);
  figures.alpha = bf.alphaScored;
  figures.beta = bf.beta;
  // The benchmark's Sharpe ratio over the record's own active days, and the probability that the
  // record's true Sharpe ratio beats it (the PSR with the benchmark's as SR*).
  const eB = new Float64Array(risk.activeAt.length);
  for (let j = 0; j < eB.length; j++) {
    const i = risk.activeAt[j];
    eB[j] = bench.index[i] / (i === 0 ? 1 : bench.index[i - 1]) - 1 - rf[i];
  }
  const srB = dailySharpe(eB);
  figures.benchmark = {
    symbol: c.benchSymbol,
    return: bench.periodReturn,
    excess: returns.twr === null ? null : returns.twr - bench.periodReturn,
    beta: bf.beta,
    alpha: bf.alphaAnnual,
    alphaT: bf.alphaT,
    sharpe: srB === null ? null : srB * Math.sqrt(365),
    psr: srB === null ? null : skillFigures(risk.activeExcess, srB).psr,
    monthsAhead: monthsAhead(pass.days, pass.index, bench.index, pass.active),
  };
  if (c.benchTime[0] > c.firstMs)
    warnings.push(
      `The benchmark series starts after the first activity; its first close stands in before ${new Date(c.benchTime[0]).toISOString().slice(0, 10)}.`,
    );
  return figures;
}

/** The asset class with the largest average exposure over the curve's days (see dominantAssetClass). */
export function dominantClassOf(pass: PassResult): "stocks" | "crypto" | null {
  const e = pass.classExposure;
  const crypto = e[CRYPTO];
  const stocks = e[0] + e[1] + e[3] + e[4] + e[5] + e[6];
  if (crypto === 0 && stocks === 0) return null;
  return crypto > stocks ? "crypto" : "stocks";
}

/** Below this a month's difference from the benchmark is a tie (floating noise, or a record that is its benchmark). */
const TIE = 1e-6;

/**
 * Batting average: the share of calendar months with an active day whose index return beat the
 * benchmark's over the same month (a tie counts half); null without such a month.
 */
export function monthsAhead(
  days: Int32Array,
  index: Float64Array,
  bench: Float64Array,
  active: Uint8Array,
): number | null {
  let months = 0;
  let ahead = 0;
  let start = 1;
  let startB = 1;
  let monthActive = false;
  for (let i = 0; i < days.length; i++) {
    if (active[i] === 1) monthActive = true;
    if (i === days.length - 1 || monthOfDay(days[i + 1]) !== monthOfDay(days[i])) {
      if (monthActive && start > 0 && startB > 0) {
        months++;
        const d = index[i] / start - bench[i] / startB;
        ahead += d > TIE ? 1 : d < -TIE ? 0 : 0.5;
      }
      start = index[i];
      startB = bench[i];
      monthActive = false;
    }
  }
  return months === 0 ? null : ahead / months;
}

/**
 * Crypto's share of the average exposure over the curve's days (stocks, ETFs and options the rest),
 * the weights of a blended benchmark; null when nothing was ever held at a day's end.
 */
export function cryptoShareOf(pass: PassResult): number | null {
  const e = pass.classExposure;
  const crypto = e[CRYPTO];
  const stocks = e[0] + e[1] + e[3] + e[4] + e[5] + e[6];
  return crypto + stocks > 0 ? crypto / (crypto + stocks) : null;
}
