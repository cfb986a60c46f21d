// Money-weighted return (XIRR). The time-weighted return and the daily curve come from the
// ledger pass (pass.ts).
import { MS_PER_DAY } from "./time";

export interface Flow {
  time: number;
  amount: number;
}

/**
 * XIRR: the annual rate r with Σ cf_i ÷ (1 + r)^((t_i − t_0) / 365 days) = 0.
 * Bracketed bisection refined by Newton steps; null when there is no sign change in the flows
 * or no root in (−1, 1e9).
 */
export function xirr(flows: Flow[]): number | null {
  if (flows.length < 2) return null;
  let hasPos = false;
  let hasNeg = false;
  for (const f of flows) {
    if (f.amount > 0) hasPos = true;
    if (f.amount < 0) hasNeg = true;
  }
  if (!hasPos || !hasNeg) return null;
  const t0 = flows[0].time;
  const years = flows.map((f) => (f.time - t0) / (365 * MS_PER_DAY));
  // Work in log(1+r) = x to keep the function smooth and bounded.
  const npv = (x: number): number => {
    let s = 0;
    for (let i = 0; i < flows.length; i++) s += flows[i].amount * Math.exp(-x * years[i]);
    return s;
  };
  let lo = Math.log(1e-9); // r = -0.999999999
  let hi = Math.log(1e9);
  let fLo = npv(lo);
  let fHi = npv(hi);
  if (!Number.isFinite(fLo) || !Number.isFinite(fHi)) {
    // Narrow the bracket until both ends are finite.
    lo = Math.log(1e-6);
    hi = Math.log(1e4);
    fLo = npv(lo);
    fHi = npv(hi);
  }
  if (fLo === 0) return Math.exp(lo) - 1;
  if (fHi === 0) return Math.exp(hi) - 1;
  if (Math.sign(fLo) === Math.sign(fHi)) return null;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    const fMid = npv(mid);
    if (fMid === 0 || hi - lo < 1e-15) {
      lo = hi = mid;
      break;
    }
    if (Math.sign(fMid) === Math.sign(fLo)) {
      lo = mid;
      fLo = fMid;
    } else hi = mid;
  }
  return Math.exp((lo + hi) / 2) - 1;
}
