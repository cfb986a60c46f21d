// Risk and consistency figures from the daily flow-adjusted index.
import { monthOfDay } from "./time";

export interface RiskFigures {
  /** Daily index returns; the first is measured against the starting index of 1. */
  returns: Float64Array;
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

export function riskFigures(days: Int32Array, index: Float64Array, hasCapital: boolean): RiskFigures {
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

  let volatility: number | null = null;
  let sharpe: number | null = null;
  let sortino: number | null = null;
  if (hasCapital && n >= 2) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += returns[i];
    const mean = sum / n;
    let ss = 0;
    let down = 0;
    for (let i = 0; i < n; i++) {
      const d = returns[i] - mean;
      ss += d * d;
      const m = returns[i] < 0 ? returns[i] : 0;
      down += m * m;
    }
    const sd = Math.sqrt(ss / (n - 1));
    const dd = Math.sqrt(down / n);
    volatility = sd * SQRT365;
    sharpe = sd > 0 ? (mean / sd) * SQRT365 : null;
    sortino = dd > 0 ? (mean / dd) * SQRT365 : null;
  }

  // Calendar months (UTC): return from the index at the previous month's last day (or the start, 1)
  // to the index at the month's last curve day.
  let months = 0;
  let positive = 0;
  let startIdx = 1;
  for (let i = 0; i < n; i++) {
    const last = i === n - 1 || monthOfDay(days[i + 1]) !== monthOfDay(days[i]);
    if (last) {
      months++;
      // A month is positive when its return exceeds 1e-12 (below that it is floating noise).
      if (index[i] > startIdx * (1 + 1e-12) && index[i] - startIdx > 1e-12) positive++;
      startIdx = index[i];
    }
  }

  return {
    returns,
    drawdown,
    maxDrawdown: hasCapital && n > 0 ? mdd : null,
    volatility,
    sharpe,
    sortino,
    months,
    positiveMonths: hasCapital && months > 0 ? positive / months : null,
  };
}
