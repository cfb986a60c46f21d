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
export function skillFigures(returns: ArrayLike<number>): SkillFigures {
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
  const psr = normalCdf((sr * Math.sqrt(n - 1)) / Math.sqrt(radicand));
  const minTrackRecordDays = sr > 0 ? 1 + radicand * Math.pow(1.6449 / sr, 2) : null;
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
  days: Int32Array,
  asOfMs: number,
): BenchmarkSeries | null {
  if (benchTime.length === 0 || days.length === 0) return null;
  let j = 0;
  const at = (t: number) => {
    while (j + 1 < benchTime.length && benchTime[j + 1] <= t) j++;
    return benchPrice[j];
  };
  const start = at(firstMs);
  const index = new Float64Array(days.length);
  if (!(start > 0)) return null;
  for (let i = 0; i < days.length; i++) {
    const end = i === days.length - 1 ? asOfMs : (days[i] + 1) * 86_400_000 - 1;
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

export interface BenchmarkFigures {
  beta: number | null;
  /** Annualised Jensen's alpha on daily returns (risk-free 0). */
  alpha: number | null;
}

/**
 * β = sample covariance of the daily returns ÷ sample variance of the benchmark's, over the same
 * days; α = (mean r − β·mean r_B) × 365, null when the record is shorter than a year.
 */
export function benchmarkFigures(r: ArrayLike<number>, rB: ArrayLike<number>, fullYear: boolean): BenchmarkFigures {
  const n = r.length;
  if (n < 2) return { beta: null, alpha: null };
  let sr = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    sr += r[i];
    sb += rB[i];
  }
  const mr = sr / n;
  const mb = sb / n;
  let cov = 0;
  let varB = 0;
  for (let i = 0; i < n; i++) {
    cov += (r[i] - mr) * (rB[i] - mb);
    varB += (rB[i] - mb) * (rB[i] - mb);
  }
  cov /= n - 1;
  varB /= n - 1;
  const beta = varB > 0 ? cov / varB : null;
  const alpha = beta !== null && fullYear ? (mr - beta * mb) * 365 : null;
  return { beta, alpha };
}
