// Skill and the market (GRADING.md §6b): the probabilistic Sharpe ratio over the active days, the
// benchmark's series, its figures and the return the score measures against; and which benchmark
// fits a ledger.
import { CRYPTO, type PreparedLedger } from "./columns";
import type { PassResult } from "./pass";
import type { Flow, ReturnFigures } from "./returns";
import type { RiskFigures } from "./risk";
import { benchmarkFigures, benchmarkReturn, benchmarkSeries, skillFigures, type BenchmarkSeries } from "./stats";
import type { Metrics } from "./types";

export type MarketFigures = Pick<Metrics, "psr" | "minTrackRecordDays" | "benchmark"> & {
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
  warnings: string[],
): MarketFigures {
  const hasCapital = returns.twr !== null; // the TWR is null exactly when there is no capital
  const skill = hasCapital ? skillFigures(risk.activeReturns) : { psr: null, minTrackRecordDays: null };
  const bench = hasCapital ? benchmarkSeries(c.benchTime, c.benchPrice, c.firstMs, pass.days, c.asOfMs) : null;
  const figures: MarketFigures = { ...skill, benchmark: null, bench, scoredBenchmark: null };
  if (bench === null || c.benchSymbol === null) return figures;
  const rB = new Float64Array(risk.activeAt.length);
  for (let j = 0; j < rB.length; j++) {
    const i = risk.activeAt[j];
    rB[j] = bench.index[i] / (i === 0 ? 1 : bench.index[i - 1]) - 1;
  }
  const bf = benchmarkFigures(risk.activeReturns, rB, returns.fullYear);
  // Scored against the market from the first money in (a trade before any deposit is no record).
  const funded = flows.find((f) => f.amount > 0)?.time ?? c.firstMs;
  figures.scoredBenchmark = benchmarkReturn(c.benchTime, c.benchPrice, Math.max(funded, c.firstMs), c.asOfMs);
  figures.benchmark = {
    symbol: c.benchSymbol,
    return: bench.periodReturn,
    excess: returns.twr === null ? null : returns.twr - bench.periodReturn,
    beta: bf.beta,
    alpha: bf.alpha,
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
  const stocks = e[0] + e[1] + e[3];
  if (crypto === 0 && stocks === 0) return null;
  return crypto > stocks ? "crypto" : "stocks";
}
