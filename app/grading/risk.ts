// Risk and consistency figures from the daily flow-adjusted index.
import { monthOfDay } from "./time";

export interface RiskFigures {
  /** Daily index returns; the first is measured against the starting index of 1. */
  returns: Float64Array;
  /** The returns of the active days (a trade that day or a position open at its start), and their day positions. */
  activeReturns: Float64Array;
  /** The active days' returns less each day's risk-free return (what Sharpe, Sortino and the PSR read). */
  activeExcess: Float64Array;
  activeAt: Int32Array;
  drawdown: Float64Array;
  maxDrawdown: number | null;
  volatility: number | null;
  /** Sortino's denominator, annualised: the swing below the risk-free rate only (what risk control scores). */
  downsideDeviation: number | null;
  sharpe: number | null;
  sortino: number | null;
  months: number;
  positiveMonths: number | null;
}

const SQRT365 = Math.sqrt(365);
const NOISE = 1e-12;
/** Rounding of one addition, with headroom for the few that make a day's equity. */
const EPS = 8 * Number.EPSILON;
/** Past this relative uncertainty the equity is not noise but the figure itself (a near-total loss). */
const MAX_TOLERANCE = 1e-6;

/**
 * Each day's relative rounding error of its equity. Equity is cash + value, so when the two nearly
 * cancel (a levered book, an option bought on margin) the error is that of the larger one, and a
 * "return" of that size is floating noise, not a move: left in, it made a Sharpe ratio out of nothing
 * that a re-scaling of the same ledger took away.
 */
export function equityTolerance(cash: Float64Array, value: Float64Array): Float64Array {
  const tol = new Float64Array(cash.length);
  for (let i = 0; i < cash.length; i++) {
    const eq = Math.abs(cash[i] + value[i]);
    const gross = Math.abs(cash[i]) + Math.abs(value[i]);
    tol[i] = eq === 0 ? 0 : Math.min(MAX_TOLERANCE, (EPS * gross) / eq);
  }
  return tol;
}

/**
 * Drawdowns come from every day; volatility, Sharpe, Sortino and the months from the active days
 * only, so idle days (nothing held, nothing traded) neither dilute nor pad a record. Sharpe and
 * Sortino measure the return over the risk-free rate `rf` (per curve day; zeros: the v2 figures).
 */
export function riskFigures(
  days: Int32Array,
  index: Float64Array,
  hasCapital: boolean,
  active: Uint8Array,
  tolerance: Float64Array,
  rf: Float64Array = new Float64Array(index.length),
): RiskFigures {
  const n = index.length;
  const returns = new Float64Array(n);
  const drawdown = new Float64Array(n);
  let prev = 1;
  let prevTol = 0;
  let peak = 1;
  let peakTol = 0;
  let mdd = 0;
  for (let i = 0; i < n; i++) {
    const x = index[i];
    const tol = tolerance[i];
    const r = prev !== 0 ? x / prev - 1 : 0;
    // Returns within the two days' rounding (or 1e-12) are floating noise (e.g. a flat day after
    // re-scaling): snap to 0.
    const noise = NOISE + tol + prevTol;
    returns[i] = r > noise || r < -noise ? r : 0;
    prev = x;
    prevTol = tol;
    if (x > peak) {
      peak = x;
      peakTol = tol;
    }
    let dd = peak > 0 ? 1 - x / peak : 0;
    if (dd < NOISE + tol + peakTol) dd = 0;
    drawdown[i] = dd > 0 ? dd : 0;
    if (dd > mdd) mdd = dd;
  }

  let nA = 0;
  for (let i = 0; i < n; i++) nA += active[i];
  const activeReturns = new Float64Array(nA);
  const activeExcess = new Float64Array(nA);
  const activeAt = new Int32Array(nA);
  for (let i = 0, j = 0; i < n; i++) {
    if (active[i] === 0) continue;
    activeReturns[j] = returns[i];
    activeExcess[j] = returns[i] - rf[i];
    activeAt[j++] = i;
  }

  let volatility: number | null = null;
  let downsideDeviation: number | null = null;
  let sharpe: number | null = null;
  let sortino: number | null = null;
  if (hasCapital && nA >= 2) {
    volatility = deviation(activeReturns) * SQRT365;
    // Sharpe (1994) on the excess over the risk-free rate; Sortino & Price (1994) with the
    // risk-free rate as the minimum acceptable return: the downside is the excess below 0.
    let sum = 0;
    for (let i = 0; i < nA; i++) sum += activeExcess[i];
    const mean = sum / nA;
    let down = 0;
    for (let i = 0; i < nA; i++) {
      const m = activeExcess[i] < 0 ? activeExcess[i] : 0;
      down += m * m;
    }
    const sd = deviation(activeExcess);
    const dd = Math.sqrt(down / nA);
    sharpe = sd > 0 ? (mean / sd) * SQRT365 : null;
    sortino = dd > 0 ? (mean / dd) * SQRT365 : null;
    downsideDeviation = dd * SQRT365;
  }

  // Calendar months (UTC) with at least one active day: return from the index at the previous
  // month's last day (or the start, 1) to the index at the month's last curve day.
  let months = 0;
  let positive = 0;
  let startIdx = 1;
  let startTol = 0;
  let monthActive = false;
  for (let i = 0; i < n; i++) {
    if (active[i] === 1) monthActive = true;
    const last = i === n - 1 || monthOfDay(days[i + 1]) !== monthOfDay(days[i]);
    if (last) {
      if (monthActive) {
        months++;
        // A month is positive when its return exceeds its rounding (below that it is floating noise).
        const noise = NOISE + tolerance[i] + startTol;
        if (index[i] > startIdx * (1 + noise) && index[i] - startIdx > NOISE) positive++;
      }
      startIdx = index[i];
      startTol = tolerance[i];
      monthActive = false;
    }
  }

  return {
    returns,
    activeReturns,
    activeExcess,
    activeAt,
    drawdown,
    maxDrawdown: hasCapital && n > 0 ? mdd : null,
    volatility,
    downsideDeviation,
    sharpe,
    sortino,
    months,
    positiveMonths: hasCapital && months > 0 ? positive / months : null,
  };
}

/** Sample standard deviation (n − 1). */
function deviation(x: Float64Array): number {
  const n = x.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - mean;
    ss += d * d;
  }
  return Math.sqrt(ss / (n - 1));
}
