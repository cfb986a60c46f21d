// Dimension scores, confidence, the overall score and its tier. Every map is a monotone
// piecewise-linear ramp between written anchors, clamped at both ends (docs/GRADING.md).
import type { Metrics } from "./types";

export type Tier = "Bronze" | "Silver" | "Gold" | "Master" | "Legend";
export type Dimension = "profitability" | "riskControl" | "consistency" | "discipline" | "experience";
export const DIMENSIONS: readonly Dimension[] = [
  "profitability",
  "riskControl",
  "consistency",
  "discipline",
  "experience",
];

/** Weights of the dimensions in the overall score (sum 1). */
export const DIMENSION_WEIGHTS: Record<Dimension, number> = {
  profitability: 0.3,
  riskControl: 0.25,
  consistency: 0.2,
  discipline: 0.1,
  experience: 0.15,
};

/** Share of the overall score taken by the weakest skill dimension (profitability, risk, consistency). */
export const WEAKEST_LINK = 0.2;
/** Score a dimension is pulled towards when the sample is small. */
export const PRIOR = 30;
/** Below these the grade is provisional. */
export const MIN_ROUND_TRIPS = 20;
export const MIN_DAYS = 90;
/** Full confidence from these on. */
export const FULL_ROUND_TRIPS = 30;
export const FULL_DAYS = 180;
/** Highest score a provisional grade may show (top of Silver). */
export const PROVISIONAL_CAP = 59;

type Anchors = readonly (readonly [number, number])[];

/** Piecewise-linear interpolation through (x, y) anchors sorted by x; flat beyond both ends. */
export function ramp(x: number, anchors: Anchors): number {
  if (x <= anchors[0][0]) return anchors[0][1];
  for (let i = 1; i < anchors.length; i++) {
    const [x1, y1] = anchors[i];
    if (x <= x1) {
      const [x0, y0] = anchors[i - 1];
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return anchors[anchors.length - 1][1];
}

export interface Component {
  id: string;
  dimension: Dimension;
  /** Weight inside its dimension (the weights of a dimension sum to 1). */
  weight: number;
  /** The metric it is computed from. */
  metric: keyof Metrics;
  /** 0–100 */
  score: number;
  /** True when the metric was unavailable and a neutral value was used. */
  neutral: boolean;
}

export const ANCHORS = {
  return: [[-0.5, 0], [0, 30], [0.1, 60], [0.25, 85], [0.5, 100]],
  profitFactor: [[0.5, 0], [1, 35], [1.5, 65], [2, 85], [3, 100]],
  maxDrawdown: [[0, 100], [0.05, 90], [0.1, 75], [0.2, 50], [0.35, 20], [0.5, 0]],
  largestLoss: [[0, 100], [0.01, 90], [0.03, 70], [0.1, 30], [0.25, 0]],
  volatility: [[0.1, 100], [0.2, 75], [0.4, 40], [0.8, 0]],
  concentration: [[0.1, 100], [0.25, 85], [0.5, 55], [1, 20], [2, 0]],
  positiveMonths: [[0.2, 0], [0.5, 45], [0.7, 80], [0.85, 100]],
  sharpe: [[-1, 0], [0, 25], [1, 60], [2, 85], [3, 100]],
  winRate: [[0.2, 0], [0.4, 40], [0.5, 60], [0.6, 80], [0.7, 100]],
  holdingRatio: [[1, 100], [1.5, 75], [2, 55], [3, 25], [5, 0]],
  tailLossRatio: [[2, 100], [4, 50], [8, 10], [12, 0]],
  feeDrag: [[0.005, 100], [0.02, 80], [0.05, 50], [0.15, 0]],
  trackRecordDays: [[0, 0], [30, 10], [90, 30], [365, 70], [1095, 100]],
  roundTrips: [[0, 0], [5, 10], [20, 30], [100, 70], [500, 100]],
  instruments: [[1, 20], [5, 60], [15, 100]],
} as const satisfies Record<string, Anchors>;

/** Neutral values used when a metric is undefined (documented per component). */
const NEUTRAL = 50;

export function components(m: Metrics): Component[] {
  const out: Component[] = [];
  const add = (
    id: string,
    dimension: Dimension,
    weight: number,
    metric: keyof Metrics,
    value: number | null,
    anchors: Anchors,
    neutral: number = NEUTRAL,
  ) => {
    const ok = value !== null && Number.isFinite(value);
    out.push({ id, dimension, weight, metric, score: ok ? ramp(value, anchors) : neutral, neutral: !ok });
  };

  // Profitability
  add("return", "profitability", 0.7, "twrAnnualized", m.twrAnnualized, ANCHORS.return, 30);
  const pf = m.profitFactor === null && m.roundTrips > 0 && m.winRate !== null && m.winRate > 0 ? Infinity : m.profitFactor;
  out.push({
    id: "profit-factor",
    dimension: "profitability",
    weight: 0.3,
    metric: "profitFactor",
    score: pf === null ? 35 : ramp(pf, ANCHORS.profitFactor),
    neutral: pf === null,
  });

  // Risk control
  add("drawdown", "riskControl", 0.4, "maxDrawdown", m.maxDrawdown, ANCHORS.maxDrawdown);
  add("largest-loss", "riskControl", 0.25, "largestLoss", m.largestLoss, ANCHORS.largestLoss, m.roundTrips > 0 ? 100 : NEUTRAL);
  add("volatility", "riskControl", 0.15, "volatility", m.volatility, ANCHORS.volatility);
  add("concentration", "riskControl", 0.2, "concentration", m.concentration, ANCHORS.concentration);

  // Consistency: Laplace-smoothed shares so one good month or a few wins cannot score 100.
  const smoothMonths = m.positiveMonths === null ? null : (m.positiveMonths * m.months + 1) / (m.months + 2);
  add("positive-months", "consistency", 0.45, "positiveMonths", smoothMonths, ANCHORS.positiveMonths);
  add("sharpe", "consistency", 0.4, "sharpe", m.sharpe, ANCHORS.sharpe, 25);
  const smoothWin = m.winRate === null ? null : (m.winRate * m.roundTrips + 1) / (m.roundTrips + 2);
  add("win-rate", "consistency", 0.15, "winRate", smoothWin, ANCHORS.winRate);

  // Discipline
  add("holding-ratio", "discipline", 0.4, "holdingRatio", m.holdingRatio, ANCHORS.holdingRatio, 60);
  add("tail-loss", "discipline", 0.3, "tailLossRatio", m.tailLossRatio, ANCHORS.tailLossRatio, 60);
  add("fee-drag", "discipline", 0.3, "feeDrag", m.feeDrag, ANCHORS.feeDrag);

  // Experience
  add("track-record", "experience", 0.5, "trackRecordDays", m.trackRecordDays, ANCHORS.trackRecordDays, 0);
  add("round-trips", "experience", 0.35, "roundTrips", m.roundTrips, ANCHORS.roundTrips, 0);
  add("instruments", "experience", 0.15, "instruments", m.instruments, ANCHORS.instruments, 0);
  return out;
}

/** Confidence in [0, 1]: geometric mean of the sample (round trips) and time (days) coverage. */
export function confidenceOf(roundTrips: number, trackRecordDays: number): number {
  const a = Math.min(1, Math.max(0, roundTrips) / FULL_ROUND_TRIPS);
  const b = Math.min(1, Math.max(0, trackRecordDays) / FULL_DAYS);
  return Math.sqrt(a * b);
}

export function tierOf(score: number): Tier {
  if (score >= 90) return "Legend";
  if (score >= 75) return "Master";
  if (score >= 60) return "Gold";
  if (score >= 40) return "Silver";
  return "Bronze";
}

export function starsOf(score: number): number {
  return Math.min(5, 1 + Math.floor(score / 20));
}

/**
 * Share of the population strictly below `score`, as a fraction in [0, 1]
 * (0.9 means better than 90 % of the population). null for an empty population.
 */
export function percentileOf(score: number, populationScores: readonly number[]): number | null {
  let below = 0;
  let count = 0;
  for (const s of populationScores) {
    if (!Number.isFinite(s)) continue;
    count++;
    if (s < score) below++;
  }
  return count === 0 ? null : below / count;
}

export interface ScoreResult {
  /** Raw dimension scores (before shrinkage). */
  raw: Record<Dimension, number>;
  /** Reported dimension scores (skill dimensions shrunk towards PRIOR by confidence). */
  dimensions: Record<Dimension, number>;
  components: Component[];
  confidence: number;
  provisional: boolean;
  /** Score before the provisional cap. */
  uncapped: number;
  score: number;
  tier: Tier;
}

export function scoreMetrics(m: Metrics): ScoreResult {
  const comps = components(m);
  const raw = { profitability: 0, riskControl: 0, consistency: 0, discipline: 0, experience: 0 };
  for (const c of comps) raw[c.dimension] += c.weight * c.score;
  const confidence = confidenceOf(m.roundTrips, m.trackRecordDays ?? 0);
  const dims = { ...raw };
  for (const d of DIMENSIONS) {
    if (d !== "experience") dims[d] = PRIOR + confidence * (raw[d] - PRIOR);
  }
  let weighted = 0;
  for (const d of DIMENSIONS) weighted += DIMENSION_WEIGHTS[d] * dims[d];
  const weakest = Math.min(dims.profitability, dims.riskControl, dims.consistency);
  const uncapped = (1 - WEAKEST_LINK) * weighted + WEAKEST_LINK * weakest;
  const provisional = m.roundTrips < MIN_ROUND_TRIPS || (m.trackRecordDays ?? 0) < MIN_DAYS;
  const score = provisional ? Math.min(uncapped, PROVISIONAL_CAP) : uncapped;
  return { raw, dimensions: dims, components: comps, confidence, provisional, uncapped, score, tier: tierOf(score) };
}

/** Points of overall score a component adds (+) or removes (−) against a neutral 50. */
export function componentImpact(c: Component, confidence: number): number {
  const shrink = c.dimension === "experience" ? 1 : confidence;
  return (1 - WEAKEST_LINK) * DIMENSION_WEIGHTS[c.dimension] * c.weight * shrink * (c.score - 50);
}
