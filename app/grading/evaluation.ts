// The evaluation: the metrics scored (tier, score, stars, confidence), the insights, and the
// percentile when a population is given; no score for a ledger without trades.
import type { PreparedLedger } from "./columns";
import { buildInsights } from "./insights";
import { percentileOf, scoreMetrics, starsOf, tierStars, type Tier } from "./score";
import type { CurvePoint, Evaluation, GradeOptions, Metrics, Position } from "./types";
import { ENGINE_VERSION } from "./version";

/** What the evaluation reports beside its score. */
export interface Report {
  metrics: Metrics;
  positions: Position[];
  curve: CurvePoint[];
  warnings: string[];
  /** The benchmark's return the score compares against (null: none). */
  scoredBenchmark: number | null;
  /** Calendar days from the first money in to asOf. */
  scoredDays: number;
}

export function evaluationOf(c: PreparedLedger, report: Report, options: GradeOptions): Evaluation {
  const evaluation = c.n === 0 ? unscored(c, report) : scored(c, report);
  if (options.population !== undefined)
    evaluation.percentile = evaluation.score === null ? null : percentileOf(evaluation.score, options.population);
  return evaluation;
}

function unscored(c: PreparedLedger, { metrics, positions, curve, warnings }: Report): Evaluation {
  warnings.unshift(
    c.trades.length === 0 && c.receives === 0
      ? "Empty ledger: no trades, so there is nothing to grade."
      : "No trades at or before asOf: nothing to grade.",
  );
  return {
    engineVersion: ENGINE_VERSION,
    asOf: c.asOf,
    tier: null,
    score: null,
    stars: null,
    confidence: 0,
    provisional: true,
    metrics,
    dimensions: null,
    positions,
    curve,
    insights: [],
    warnings,
  };
}

function scored(
  c: PreparedLedger,
  { metrics, positions, curve, warnings, scoredBenchmark, scoredDays }: Report,
): Evaluation {
  const s = scoreMetrics(metrics, { benchmarkReturn: scoredBenchmark, days: scoredDays });
  const d = s.dimensions;
  return {
    engineVersion: ENGINE_VERSION,
    asOf: c.asOf,
    tier: s.tier as Tier,
    score: s.score,
    stars: {
      overall: tierStars(s.tier),
      profitability: starsOf(d.profitability),
      riskControl: starsOf(d.riskControl),
      consistency: starsOf(d.consistency),
      discipline: starsOf(d.discipline),
      experience: starsOf(d.experience),
    },
    confidence: s.confidence,
    provisional: s.provisional,
    metrics,
    dimensions: d,
    positions,
    curve,
    insights: buildInsights(metrics, s, curve.length),
    warnings,
  };
}
