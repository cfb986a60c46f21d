// Skill-vs-luck statistics and the benchmark comparison, from the daily returns of the active days.

/** Standard normal CDF Φ(z), accurate to ~1e-15 (erf series for |x| < 3, continued fraction beyond). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return NaN;
  const x = Math.abs(z) / Math.SQRT2;
  const tail = 0.5 * erfc(x); // P(Z > |z|)
  return z >= 0 ? 1 - tail : tail;
}

function erfc(x: number): number {
  if (x < 3) {
    // erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)): every term positive, no cancellation.
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
  }
  // Continued fraction (modified Lentz): erfc(x) = e^(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))).
  const tiny = 1e-300;
  let f = x;
  let C = x;
  let D = 0;
  for (let i = 1; i < 500; i++) {
    const a = i / 2;
    D = x + a * D;
    D = D === 0 ? tiny : D;
    C = x + a / C;
    C = C === 0 ? tiny : C;
    D = 1 / D;
    const delta = C * D;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

export interface SkillFigures {
  /** Probabilistic Sharpe ratio against a benchmark Sharpe of 0 (Bailey & López de Prado, 2012). */
  psr: number | null;
  /** Days of track record for a 95 % confidence that the true Sharpe ratio is above 0. */
  minTrackRecordDays: number | null;
}

/**
 * PSR = Φ(SR·√(n−1) ÷ √(1 − γ₃·SR + (γ₄ − 1)·SR²/4)), SR = mean ÷ sample standard deviation of the
 * daily returns (not annualised), γ₃ = m₃/m₂^1.5 and γ₄ = m₄/m₂² from population moments.
 * MinTRL = 1 + (1 − γ₃·SR + (γ₄ − 1)·SR²/4)·(1.6449 ÷ SR)², for SR > 0.
 */
export function skillFigures(returns: ArrayLike<number>, srStar = 0): SkillFigures {
  const n = returns.length;
  if (n < 3) return { psr: null, minTrackRecordDays: null };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += returns[i];
  const mean = sum / n;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = returns[i] - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  const sd = Math.sqrt(m2 / (n - 1));
  m2 /= n;
  m3 /= n;
  m4 /= n;
  if (!(sd > 0) || !(m2 > 0)) return { psr: null, minTrackRecordDays: null };
  const sr = mean / sd;
  const g3 = m3 / Math.pow(m2, 1.5);
  const g4 = m4 / (m2 * m2);
  const radicand = 1 - g3 * sr + ((g4 - 1) / 4) * sr * sr;
  if (!(radicand > 0)) return { psr: null, minTrackRecordDays: null };
  // Against a benchmark Sharpe ratio SR* (the paper's general form): Φ((SR − SR*)·√(n−1) ÷ √radicand).
  const psr = normalCdf(((sr - srStar) * Math.sqrt(n - 1)) / Math.sqrt(radicand));
  const minTrackRecordDays = sr > srStar ? 1 + radicand * Math.pow(1.6449 / (sr - srStar), 2) : null;
  return { psr, minTrackRecordDays };
}

export interface BenchmarkSeries {
  /** Benchmark level at the end of each curve day (the last at asOf), carried forward; ÷ its level at the first activity. */
  index: Float64Array;
  /** B(asOf) ÷ B(first activity) − 1. */
  periodReturn: number;
}

/**
 * The benchmark on the curve's days: the latest close at or before each point (carried forward);
 * before its first close, the first close (a series that starts late is back-filled, said in a warning).
 */
export function benchmarkSeries(
  benchTime: Float64Array,
  benchPrice: Float64Array,
  firstMs: number,
  dayStart: Float64Array,
  asOfMs: number,
): BenchmarkSeries | null {
  const nDays = dayStart.length - 1;
  if (benchTime.length === 0 || nDays <= 0) return null;
  let j = 0;
  const at = (t: number) => {
    while (j + 1 < benchTime.length && benchTime[j + 1] <= t) j++;
    return benchPrice[j];
  };
  const start = at(firstMs);
  const index = new Float64Array(nDays);
  if (!(start > 0)) return null;
  for (let i = 0; i < nDays; i++) {
    const end = i === nDays - 1 ? asOfMs : dayStart[i + 1] - 1;
    index[i] = at(end) / start;
  }
  return { index, periodReturn: index[index.length - 1] - 1 };
}

/** B(to) ÷ B(from) − 1 with closes carried forward (the first close stands in before the series starts). */
export function benchmarkReturn(
  benchTime: Float64Array,
  benchPrice: Float64Array,
  fromMs: number,
  toMs: number,
): number | null {
  if (benchTime.length === 0) return null;
  const at = (t: number) => {
    let j = 0;
    while (j + 1 < benchTime.length && benchTime[j + 1] <= t) j++;
    return benchPrice[j];
  };
  return at(toMs) / at(fromMs) - 1;
}

/**
 * The risk-free return of each curve day: (1 + y)^(1/365) − 1, y the latest annual yield at or
 * before the day's end (the last point: at asOf), carried forward; before the series starts, its
 * first yield. All zeros without a series (a rate of 0, the v2 definitions).
 */
export function riskFreeDaily(
  rfTime: Float64Array,
  rfRate: Float64Array,
  dayStart: Float64Array,
  asOfMs: number,
): Float64Array {
  const nDays = Math.max(0, dayStart.length - 1);
  const out = new Float64Array(nDays);
  if (rfTime.length === 0) return out;
  let j = 0;
  for (let i = 0; i < nDays; i++) {
    const end = i === nDays - 1 ? asOfMs : dayStart[i + 1] - 1;
    while (j + 1 < rfTime.length && rfTime[j + 1] <= end) j++;
    // Compounded over 365 calendar days, like every annualised figure here.
    out[i] = Math.pow(1 + rfRate[j], 1 / 365) - 1;
  }
  return out;
}

/** The mean annual yield over the curve's days (what the report says was used), or null without a series. */
export function meanRiskFreeRate(rfDaily: Float64Array, hasSeries: boolean): number | null {
  if (!hasSeries || rfDaily.length === 0) return null;
  let s = 0;
  for (let i = 0; i < rfDaily.length; i++) s += Math.pow(1 + rfDaily[i], 365) - 1;
  return s / rfDaily.length;
}

/** mean ÷ sample standard deviation (daily, not annualised); null with fewer than 2 values or no spread. */
export function dailySharpe(x: ArrayLike<number>): number | null {
  const n = x.length;
  if (n < 2) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
  const sd = Math.sqrt(ss / (n - 1));
  // A series that does not move (beyond rounding) has no Sharpe ratio.
  return sd > FLAT * Math.abs(mean) && sd > 0 ? mean / sd : null;
}

/** Relative spread under which a series is flat: its variance is rounding, not movement. */
const FLAT = 1e-9;

export interface BenchmarkFigures {
  /** Sample covariance ÷ sample variance of the excess returns over the window. */
  beta: number | null;
  /** Jensen's alpha over the window: Σ (e − β·e_B), each day's excess over the risk-free rate. */
  alphaPeriod: number | null;
  /** alphaPeriod annualised over calendar time (× 365 ÷ days) for a year or more; else alphaPeriod (GIPS). */
  alphaScored: number | null;
  /** The same, null under a year (what Metrics.benchmark.alpha reports). */
  alphaAnnual: number | null;
  /** Regression t-statistic of the daily alpha (null when the residuals are all 0). */
  alphaT: number | null;
}

/** Below this, an alpha is floating noise (a record that is its benchmark). */
const ALPHA_NOISE = 1e-9;

/**
 * Jensen's alpha and beta (Jensen 1968) on daily returns in excess of the risk-free rate, over every
 * calendar day of the window (idle days included: a day out of the market has no market exposure,
 * and leaving it out would charge a part-time trader the market's whole move). With e = r − rf and
 * e_B = r_B − rf: β = cov(e, e_B) ÷ var(e_B), daily α = mean e − β·mean e_B, the period's alpha =
 * days × daily α, annualised as × 365 ÷ days for a window of a year or more.
 */
export function benchmarkFigures(
  r: ArrayLike<number>,
  rB: ArrayLike<number>,
  rf: ArrayLike<number>,
  fullYear: boolean,
): BenchmarkFigures {
  const n = r.length;
  const none = { beta: null, alphaPeriod: null, alphaScored: null, alphaAnnual: null, alphaT: null };
  if (n < 2) return none;
  let se = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    se += r[i] - rf[i];
    sb += rB[i] - rf[i];
  }
  const me = se / n;
  const mb = sb / n;
  let cov = 0;
  let varB = 0;
  for (let i = 0; i < n; i++) {
    const db = rB[i] - rf[i] - mb;
    cov += (r[i] - rf[i] - me) * db;
    varB += db * db;
  }
  // A benchmark that does not move (beyond rounding) has no beta to measure against.
  if (!(varB > 0) || Math.sqrt(varB / (n - 1)) <= FLAT * Math.abs(mb)) return none;
  const beta = cov / varB; // the (n − 1)s cancel
  const daily = me - beta * mb;
  let alphaPeriod = daily * n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const u = r[i] - rf[i] - daily - beta * (rB[i] - rf[i]);
    ss += u * u;
  }
  // Standard error of the intercept: s·√(1/n + mean_B² ÷ Sxx), s² = Σu² ÷ (n − 2).
  const s2 = n > 2 ? ss / (n - 2) : 0;
  const seAlpha = Math.sqrt(s2 * (1 / n + (mb * mb) / varB));
  if (Math.abs(alphaPeriod) < ALPHA_NOISE) alphaPeriod = 0;
  const alphaT = seAlpha > 0 && alphaPeriod !== 0 ? daily / seAlpha : alphaPeriod === 0 ? 0 : null;
  const alphaAnnual = fullYear ? (alphaPeriod * 365) / n : null;
  return { beta, alphaPeriod, alphaScored: alphaAnnual ?? alphaPeriod, alphaAnnual, alphaT };
}
