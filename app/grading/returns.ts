// Returns: the money-weighted return (XIRR) and the figures of GRADING.md §5. The time-weighted
// index and the daily curve come from the ledger pass (pass.ts).
import type { PreparedLedger } from "./columns";
import type { PassResult } from "./pass";
import { MS_PER_DAY } from "./time";
import type { Metrics } from "./types";

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

const YEAR_DAYS = 365;

export type ReturnFigures = Pick<
  Metrics,
  | "deposits"
  | "withdrawals"
  | "totalPnl"
  | "simpleReturn"
  | "mwrCumulative"
  | "twr"
  | "twrAnnualized"
  | "trackRecordDays"
  | "activeDays"
> & {
  /** The money-weighted rate (Metrics.mwr only over a full year). */
  mwrRate: number | null;
  /** The track record spans a year or more (annualised figures are reported). */
  fullYear: boolean;
};

/** P&L, flows, and the simple, money- and time-weighted returns (GRADING.md §5). */
export function returnFigures(
  c: PreparedLedger,
  pass: PassResult,
  flows: Flow[],
  unrealized: number,
  hasCapital: boolean,
): ReturnFigures {
  let deposits = 0;
  let withdrawals = 0;
  for (const f of flows) {
    if (f.amount > 0) deposits += f.amount;
    else withdrawals -= f.amount;
  }
  const totalPnl = pass.realizedPnl + unrealized + pass.income - pass.accountFees;
  const trackRecordDays = Number.isFinite(c.firstMs) ? Math.max(0, (c.asOfMs - c.firstMs) / MS_PER_DAY) : 0;
  const fullYear = trackRecordDays >= YEAR_DAYS;
  let activeDays = 0;
  for (let i = 0; i < pass.active.length; i++) activeDays += pass.active[i];
  const twr = hasCapital ? Math.max(-1, pass.twrIndex - 1) : null;
  const twrAnnualized = twr === null || !fullYear ? null : Math.pow(1 + twr, YEAR_DAYS / trackRecordDays) - 1;
  const mwrRate = moneyWeighted(flows, c.asOfMs, pass.equityAtAsOf, deposits);
  const flowDays = flows.length > 0 ? Math.max(0, (c.asOfMs - flows[0].time) / MS_PER_DAY) : 0;
  const mwrCumulative = mwrRate === null ? null : mwrRate <= -1 ? -1 : Math.pow(1 + mwrRate, flowDays / YEAR_DAYS) - 1;
  let simpleReturn = deposits > 0 ? totalPnl / deposits : null;
  if (simpleReturn !== null && simpleReturn < -1) simpleReturn = -1;
  return {
    deposits,
    withdrawals,
    totalPnl,
    simpleReturn,
    mwrRate,
    mwrCumulative,
    twr,
    twrAnnualized,
    trackRecordDays,
    activeDays,
    fullYear,
  };
}

/**
 * The XIRR of the investor's flows with the equity at asOf as the final inflow: −1 when nothing
 * came back (a total loss), null only without a deposit.
 */
function moneyWeighted(flows: Flow[], asOfMs: number, equity: number, deposits: number): number | null {
  if (deposits <= 0) return null;
  let back = Math.max(0, equity);
  for (const f of flows) if (f.amount < 0) back -= f.amount;
  if (back <= 0) return -1;
  const mwrFlows: Flow[] = flows.map((f) => ({ time: f.time, amount: -f.amount }));
  mwrFlows.push({ time: asOfMs, amount: Math.max(0, equity) });
  return xirr(mwrFlows);
}
