// Dimension scores, confidence, the overall score and its tier. Every map is a monotone
// piecewise-linear ramp between written anchors, clamped at both ends (docs/GRADING.md).
import { DIMENSIONS, TIERS, tierOf, type Dimension, type Tier } from "../lib/vocabulary";
import type { Metrics } from "./types";

export { DIMENSIONS, TIERS, tierOf, type Dimension, type Tier };

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
/** Below these the grade is provisional (days: active days). */
export const MIN_ROUND_TRIPS = 20;
export const MIN_DAYS = 90;
/** Full confidence from these on (days: active days). */
export const FULL_ROUND_TRIPS = 30;
export const FULL_DAYS = 180;
/** Gross leverage up to this is free; beyond it the whole score is discounted (see leverageFactor). */
export const FREE_LEVERAGE = 2;
const LEVERAGE_EXPONENT = 0.8;
/** Highest score a provisional grade may show (top of Silver). */
export const PROVISIONAL_CAP = 59;
/** Highest score of a record that lost money while its benchmark did better (top of Bronze). */
export const BEHIND_MARKET_CAP = 39.9;

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
  /** The value scored (may be derived from the metric, e.g. smoothed or over active days). */
  value: number | null;
  /** 0–100 */
  score: number;
  /** True when the metric was unavailable and a neutral value was used. */
  neutral: boolean;
}

export const ANCHORS = {
  return: [
    [-0.5, 0],
    [0, 30],
    [0.1, 60],
    [0.25, 85],
    [0.5, 100],
  ],
  // Jensen's alpha: 0 (the market's return for the market's risk) is the middle of the scale.
  alpha: [
    [-0.3, 0],
    [-0.1, 25],
    [0, 50],
    [0.1, 75],
    [0.25, 92],
    [0.5, 100],
  ],
  profitFactor: [
    [0.5, 0],
    [1, 35],
    [1.5, 65],
    [2, 85],
    [3, 100],
  ],
  maxDrawdown: [
    [0, 100],
    [0.05, 90],
    [0.1, 75],
    [0.2, 50],
    [0.35, 20],
    [0.5, 0],
  ],
  largestLoss: [
    [0, 100],
    [0.01, 90],
    [0.03, 70],
    [0.1, 30],
    [0.25, 0],
  ],
  // Volatility's anchors × 1/√2: the downside deviation of returns swinging evenly around 0.
  downsideDeviation: [
    [0.07, 100],
    [0.14, 75],
    [0.28, 40],
    [0.56, 0],
  ],
  concentration: [
    [0.1, 100],
    [0.25, 85],
    [0.5, 55],
    [1, 20],
    [2, 0],
  ],
  maxLeverage: [
    [1, 100],
    [1.5, 80],
    [2, 60],
    [3, 35],
    [5, 10],
    [10, 0],
  ],
  psr: [
    [0.5, 0],
    [0.75, 35],
    [0.9, 65],
    [0.95, 85],
    [0.99, 100],
  ],
  positiveMonths: [
    [0.2, 0],
    [0.5, 45],
    [0.7, 80],
    [0.85, 100],
  ],
  // Flat at and below 0: with a negative mean, a larger loss can raise the ratio (the deviation
  // grows faster than the mean falls), so only positive Sharpe ratios and PSRs above ½ earn points.
  sharpe: [
    [0, 10],
    [1, 55],
    [2, 82],
    [3, 100],
  ],
  // Against the market (with a benchmark): no difference from it is the middle of the scale.
  sharpeVsMarket: [
    [-1.5, 0],
    [0, 50],
    [0.5, 70],
    [1, 85],
    [2, 100],
  ],
  psrVsMarket: [
    [0.05, 0],
    [0.5, 45],
    [0.75, 65],
    [0.9, 80],
    [0.95, 90],
    [0.99, 100],
  ],
  winRate: [
    [0.2, 0],
    [0.4, 40],
    [0.5, 60],
    [0.6, 80],
    [0.7, 100],
  ],
  holdingRatio: [
    [1, 100],
    [1.5, 75],
    [2, 55],
    [3, 25],
    [5, 0],
  ],
  tailLossRatio: [
    [2, 100],
    [4, 50],
    [8, 10],
    [12, 0],
  ],
  feeDrag: [
    [0.005, 100],
    [0.02, 80],
    [0.05, 50],
    [0.15, 0],
  ],
  activeDays: [
    [0, 0],
    [30, 10],
    [90, 30],
    [365, 70],
    [1095, 100],
  ],
  roundTrips: [
    [0, 0],
    [5, 10],
    [20, 30],
    [100, 70],
    [500, 100],
  ],
  instruments: [
    [1, 20],
    [5, 60],
    [15, 100],
  ],
} as const satisfies Record<string, Anchors>;

/** Neutral values used when a metric is undefined (documented per component). */
const NEUTRAL = 50;

export interface ScoreContext {
  /** The benchmark's return from the first deposit to asOf (null without a benchmark). */
  benchmarkReturn: number | null;
  /** Calendar days from the first money in to asOf (the window the score measures; default: the record's). */
  days?: number;
}

/**
 * The return that is scored without a benchmark: the period's TWR under a year (GIPS forbids
 * annualising a shorter record), else annualised over calendar time (GIPS 2020, 2.A.17: the
 * record's days, idle ones included), like twrAnnualized.
 */
export function scoredReturn(twr: number, trackRecordDays: number): number {
  return trackRecordDays >= 365 ? Math.pow(1 + twr, 365 / trackRecordDays) - 1 : twr;
}

export function components(m: Metrics, ctx: ScoreContext = { benchmarkReturn: null }): Component[] {
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
    out.push({
      id,
      dimension,
      weight,
      metric,
      value: ok ? value : null,
      score: ok ? ramp(value, anchors) : neutral,
      neutral: !ok,
    });
  };

  // Profitability: with a benchmark, what the record earned beyond the market's return for the
  // market risk it took (Jensen's alpha over the risk-free rate), so riding the market is the middle
  // of the scale whatever the market did; without one, the return itself.
  // A profit factor counts raw P&L, which a rising market lifts, so with a benchmark alpha is the
  // whole dimension.
  const b = ctx.benchmarkReturn !== null && m.twr !== null ? m.benchmark : null;
  if (b !== null) {
    add("alpha", "profitability", 1, "alpha", m.alpha, ANCHORS.alpha, 50);
  } else {
    const days = ctx.days ?? m.trackRecordDays;
    const ret = m.twr === null ? null : scoredReturn(m.twr, days);
    const annual = days >= 365;
    add("return", "profitability", 0.7, annual ? "twrAnnualized" : "twr", ret, ANCHORS.return, 30);
  }
  const pf =
    m.profitFactor === null && m.roundTrips > 0 && m.winRate !== null && m.winRate > 0 ? Infinity : m.profitFactor;
  if (b === null)
    out.push({
      id: "profit-factor",
      dimension: "profitability",
      weight: 0.3,
      metric: "profitFactor",
      value: pf,
      score: pf === null ? 35 : ramp(pf, ANCHORS.profitFactor),
      neutral: pf === null,
    });

  // Risk control
  add("drawdown", "riskControl", 0.35, "maxDrawdown", m.maxDrawdown, ANCHORS.maxDrawdown);
  add(
    "largest-loss",
    "riskControl",
    0.2,
    "largestLoss",
    m.largestLoss,
    ANCHORS.largestLoss,
    m.roundTrips > 0 ? 100 : NEUTRAL,
  );
  // Only the swing below the risk-free rate is risk (Sortino & Price): a bigger gain never scores lower (v3.3).
  add("downside", "riskControl", 0.15, "downsideDeviation", m.downsideDeviation, ANCHORS.downsideDeviation);
  add("concentration", "riskControl", 0.15, "concentration", m.concentration, ANCHORS.concentration);
  add("leverage", "riskControl", 0.15, "maxLeverage", m.maxLeverage, ANCHORS.maxLeverage);

  // Consistency: Laplace-smoothed shares so one good month or a few wins cannot score 100. With a
  // benchmark each figure is against the market over the same days (months ahead of it, Sharpe
  // beyond its Sharpe, the odds of beating its Sharpe), so a bull market does not lift a record.
  const smooth = (share: number | null) => (share === null ? null : (share * m.months + 1) / (m.months + 2));
  if (b !== null) {
    add("months-ahead", "consistency", 0.35, "benchmark", smooth(b.monthsAhead), ANCHORS.positiveMonths);
    const vs = m.sharpe === null || b.sharpe === null ? null : m.sharpe - b.sharpe;
    add("sharpe-vs-market", "consistency", 0.3, "sharpe", vs, ANCHORS.sharpeVsMarket);
    add("psr-vs-market", "consistency", 0.2, "benchmark", b.psr, ANCHORS.psrVsMarket, 45);
  } else {
    add("positive-months", "consistency", 0.35, "positiveMonths", smooth(m.positiveMonths), ANCHORS.positiveMonths);
    add("sharpe", "consistency", 0.3, "sharpe", m.sharpe, ANCHORS.sharpe, 25);
    add("psr", "consistency", 0.2, "psr", m.psr, ANCHORS.psr, 0);
  }
  const smoothWin = m.winRate === null ? null : (m.winRate * m.roundTrips + 1) / (m.roundTrips + 2);
  add("win-rate", "consistency", 0.15, "winRate", smoothWin, ANCHORS.winRate);

  // Discipline
  add("holding-ratio", "discipline", 0.4, "holdingRatio", m.holdingRatio, ANCHORS.holdingRatio, 60);
  add("tail-loss", "discipline", 0.3, "tailLossRatio", m.tailLossRatio, ANCHORS.tailLossRatio, 60);
  add("fee-drag", "discipline", 0.3, "feeDrag", m.feeDrag, ANCHORS.feeDrag);

  // Experience: the days actually trading or holding, not the span since the first trade.
  add("track-record", "experience", 0.5, "activeDays", m.activeDays, ANCHORS.activeDays, 0);
  add("round-trips", "experience", 0.35, "roundTrips", m.roundTrips, ANCHORS.roundTrips, 0);
  add("instruments", "experience", 0.15, "instruments", m.instruments, ANCHORS.instruments, 0);
  return out;
}

/**
 * Multiplier of the overall score for the largest gross leverage: 1 up to FREE_LEVERAGE (2×, what
 * a Reg T margin account holds overnight), then (2 ÷ L)^0.8 — 0.72 at 3×, 0.16 at 20×. Any
 * figure can be bought with leverage; this keeps a leveraged bet from buying a grade.
 */
export function leverageFactor(maxLeverage: number | null): number {
  if (maxLeverage === null || maxLeverage <= FREE_LEVERAGE) return 1;
  return Math.pow(FREE_LEVERAGE / maxLeverage, LEVERAGE_EXPONENT);
}

/** Confidence in [0, 1]: geometric mean of the sample (round trips) and time (active days) coverage. */
export function confidenceOf(roundTrips: number, activeDays: number): number {
  const a = Math.min(1, Math.max(0, roundTrips) / FULL_ROUND_TRIPS);
  const b = Math.min(1, Math.max(0, activeDays) / FULL_DAYS);
  return Math.sqrt(a * b);
}

/** Stars of a dimension score: 1 + ⌊score ÷ 20⌋, at most 5. */
export function starsOf(score: number): number {
  return Math.min(5, 1 + Math.floor(score / 20));
}

/** Overall stars: the tier's rank (Bronze 1 … Legend 5), so stars and badge never disagree. */
export function tierStars(tier: Tier): number {
  return TIERS.indexOf(tier) + 1;
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
  /** Score after the leverage factor, before the provisional and market caps. */
  uncapped: number;
  /** The record lost money while its benchmark did better: capped at BEHIND_MARKET_CAP. */
  behindMarket: boolean;
  /** Score before the leverage factor. */
  unlevered: number;
  leverageFactor: number;
  score: number;
  tier: Tier;
}

export function scoreMetrics(m: Metrics, ctx: ScoreContext = { benchmarkReturn: null }): ScoreResult {
  const comps = components(m, ctx);
  const raw = { profitability: 0, riskControl: 0, consistency: 0, discipline: 0, experience: 0 };
  for (const c of comps) raw[c.dimension] += c.weight * c.score;
  const confidence = confidenceOf(m.roundTrips, m.activeDays);
  const dims = { ...raw };
  for (const d of DIMENSIONS) {
    if (d !== "experience") dims[d] = PRIOR + confidence * (raw[d] - PRIOR);
  }
  let weighted = 0;
  for (const d of DIMENSIONS) weighted += DIMENSION_WEIGHTS[d] * dims[d];
  const weakest = Math.min(dims.profitability, dims.riskControl, dims.consistency);
  const unlevered = (1 - WEAKEST_LINK) * weighted + WEAKEST_LINK * weakest;
  const lf = leverageFactor(m.maxLeverage);
  const uncapped = unlevered * lf;
  const provisional = m.roundTrips < MIN_ROUND_TRIPS || m.activeDays < MIN_DAYS;
  let score = provisional ? Math.min(uncapped, PROVISIONAL_CAP) : uncapped;
  // Lost money while the market, over the same calendar time, did better.
  const behindMarket =
    m.twr !== null &&
    m.twr < 0 &&
    ctx.benchmarkReturn !== null &&
    scoredReturn(m.twr, ctx.days ?? m.trackRecordDays) <
      scoredReturn(ctx.benchmarkReturn, ctx.days ?? m.trackRecordDays);
  if (behindMarket) score = Math.min(score, BEHIND_MARKET_CAP);
  return {
    raw,
    dimensions: dims,
    components: comps,
    confidence,
    provisional,
    uncapped,
    behindMarket,
    unlevered,
    leverageFactor: lf,
    score,
    tier: tierOf(score),
  };
}

/** Points of overall score a component adds (+) or removes (−) against a neutral 50. */
export function componentImpact(c: Component, confidence: number): number {
  const shrink = c.dimension === "experience" ? 1 : confidence;
  return (1 - WEAKEST_LINK) * DIMENSION_WEIGHTS[c.dimension] * c.weight * shrink * (c.score - 50);
}
