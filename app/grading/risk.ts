// Risk and consistency figures from the daily flow-adjusted index.
import { monthOfDay } from "./time";

export interface RiskFigures {
  /** Daily index returns; the first is measured against the starting index of 1. */
  returns: Float64Array;
  /** The returns of the active days (a trade that day or a position open at its start), and their day positions. */
  activeReturns: Float64Array;
  activeAt: Int32Array;
  drawdown: Float64Array;
  maxDrawdown: number | null;
  volatility: number | null;
  sharpe: number | null;
  sortino: number | null;
  months: number;
  positiveMonths: number | null;
}

const SQRT365 = Math.sqrt(365);
const NOISE = 1e-12;

/**
 * Drawdowns come from every day; volatility, Sharpe, Sortino and the months from the active days
 * only, so idle days (nothing held, nothing traded) neither dilute nor pad a record.
 */
export function riskFigures(
  days: Int32Array,
  index: Float64Array,
  hasCapital: boolean,
  active: Uint8Array,
): RiskFigures {
  const n = index.length;
  const returns = new Float64Array(n);
  const drawdown = new Float64Array(n);
  let prev = 1;
  let peak = 1;
  let mdd = 0;
  for (let i = 0; i < n; i++) {
    const x = index[i];
    const r = prev !== 0 ? x / prev - 1 : 0;
    // Returns below 1e-12 in size are floating noise (e.g. a flat day after re-scaling): snap to 0.
    returns[i] = r > NOISE || r < -NOISE ? r : 0;
    prev = x;
    if (x > peak) peak = x;
    let dd = peak > 0 ? 1 - x / peak : 0;
    if (dd < NOISE) dd = 0;
    drawdown[i] = dd > 0 ? dd : 0;
    if (dd > mdd) mdd = dd;
  }

  let nA = 0;
  for (let i = 0; i < n; i++) nA += active[i];
  const activeReturns = new Float64Array(nA);
  const activeAt = new Int32Array(nA);
  for (let i = 0, j = 0; i < n; i++) {
    if (active[i] === 0) continue;
    activeReturns[j] = returns[i];
    activeAt[j++] = i;
  }

  let volatility: number | null = null;
  let sharpe: number | null = null;
  let sortino: number | null = null;
  if (hasCapital && nA >= 2) {
    let sum = 0;
    for (let i = 0; i < nA; i++) sum += activeReturns[i];
    const mean = sum / nA;
    let ss = 0;
    let down = 0;
    for (let i = 0; i < nA; i++) {
      const d = activeReturns[i] - mean;
      ss += d * d;
      const m = activeReturns[i] < 0 ? activeReturns[i] : 0;
      down += m * m;
    }
    const sd = Math.sqrt(ss / (nA - 1));
    const dd = Math.sqrt(down / nA);
    volatility = sd * SQRT365;
    sharpe = sd > 0 ? (mean / sd) * SQRT365 : null;
    sortino = dd > 0 ? (mean / dd) * SQRT365 : null;
  }

  // Calendar months (UTC) with at least one active day: return from the index at the previous
  // month's last day (or the start, 1) to the index at the month's last curve day.
  let months = 0;
  let positive = 0;
  let startIdx = 1;
  let monthActive = false;
  for (let i = 0; i < n; i++) {
    if (active[i] === 1) monthActive = true;
    const last = i === n - 1 || monthOfDay(days[i + 1]) !== monthOfDay(days[i]);
    if (last) {
      if (monthActive) {
        months++;
        // A month is positive when its return exceeds 1e-12 (below that it is floating noise).
        if (index[i] > startIdx * (1 + 1e-12) && index[i] - startIdx > 1e-12) positive++;
      }
      startIdx = index[i];
      monthActive = false;
    }
  }

  return {
    returns,
    activeReturns,
    activeAt,
    drawdown,
    maxDrawdown: hasCapital && n > 0 ? mdd : null,
    volatility,
    sharpe,
    sortino,
    months,
    positiveMonths: hasCapital && months > 0 ? positive / months : null,
  };
}
