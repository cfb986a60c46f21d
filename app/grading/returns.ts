// Valuation sweep (cash, marks, equity, the daily flow-adjusted index) and return figures:
// simple return, money-weighted return (XIRR) and time-weighted return.
import type { Columns } from "./columns";
import type { LotsResult } from "./lots";
import { scratchRaw } from "./scratch";
import { MS_PER_DAY, dayOf } from "./time";

const DAY_MS = 86_400_000;
const TC = 0;
const FC = 1;
const PV = 2;
const LINK = 3;
const BASE = 4;

export interface Flow {
  time: number;
  amount: number;
}

export interface Sweep {
  /** UTC day numbers of the curve points; the last point is valued at asOf. */
  days: Int32Array;
  equity: Float64Array;
  index: Float64Array;
  /** Largest |position value| ÷ equity at each curve point. */
  concentration: Float64Array;
  /** Equity right after each round trip's closing trade. */
  rtEquity: Float64Array;
  /** Marks (per symbol) at asOf; NaN for a symbol never marked. */
  markAtAsOf: Float64Array;
  cash: number;
  equityAtAsOf: number;
  /** TWR index at asOf (1 + twr) or NaN when no period had positive capital. */
  twrIndex: number;
  /** Number of sub-periods skipped because the capital at their start was ≤ 0. */
  skippedPeriods: number;
  negativeCash: boolean;
}

/**
 * Walks prices, cash flows and trades in time order (at equal times: prices, then flows, then
 * trades) and samples the end of each UTC day (the last one at asOf).
 */
export function sweep(c: Columns, lots: LotsResult, flows: Flow[]): Sweep {
  const nSym = c.symbols.length;
  const symQty = new Float64Array(nSym);
  const mark = new Float64Array(nSym).fill(NaN);
  const hasPriceMark = new Uint8Array(nSym);
  const symOpen = new Int32Array(nSym); // positions of the symbol with a non-zero quantity
  const activeAt = new Int32Array(nSym).fill(-1);
  const active = new Int32Array(nSym);
  let nActive = 0;
  const posQ = new Float64Array(c.nPos);

  const { time, price, sym, pos, n, markTime, markSym, markPrice } = c;
  const { posAfter, cashAfter, rtClose, rtCount } = lots;
  const rtEquity = scratchRaw("rtEquity", "f64", rtCount);
  let rtPtr = 0;

  const asOf = c.asOfMs;
  const firstDay = dayOf(c.firstMs);
  const lastDay = dayOf(asOf);
  const nDays = Number.isFinite(firstDay) && lastDay >= firstDay ? lastDay - firstDay + 1 : 0;
  const days = new Int32Array(nDays);
  const equity = new Float64Array(nDays);
  const index = new Float64Array(nDays);
  const concentration = new Float64Array(nDays);

  // Loop-carried doubles live in a typed array (as locals of this OSR-compiled loop V8 boxes them):
  //   st[TC] trade cash, st[FC] flow cash, st[PV] incremental Σ symQty × mark (re-based exactly at
  //   every sample), st[LINK] product of completed sub-period factors, st[BASE] capital at the
  //   start of the current sub-period.
  const st = new Float64Array(5);
  st[LINK] = 1;
  let anyBase = false;
  let skipped = 0;
  let negativeCash = false;

  let ti = 0;
  let fi = 0;
  let mi = 0;
  const nF = flows.length;
  const nM = markTime.length;
  let dayIdx = 0;
  let nextBoundary = (firstDay + 1) * DAY_MS; // events at or after this belong to a later day
  const maxOut = new Float64Array(1);

  // No closures over mutable locals here: captured doubles would be boxed on every write.
  for (;;) {
    const tT = ti < n ? time[ti] : Infinity;
    const tF = fi < nF ? flows[fi].time : Infinity;
    const tM = mi < nM ? markTime[mi] : Infinity;
    let tNext = tT < tF ? tT : tF;
    if (tM < tNext) tNext = tM;
    if (tNext === Infinity) break;
    while (tNext >= nextBoundary && dayIdx < nDays) {
      // End of a UTC day: value exactly (also re-bases the incremental st[PV]).
      st[PV] = valueActive(active, nActive, symQty, mark, maxOut);
      const eq = st[TC] + st[FC] + st[PV];
      days[dayIdx] = firstDay + dayIdx;
      equity[dayIdx] = eq;
      index[dayIdx] = st[BASE] > 0 ? (st[LINK] * eq) / st[BASE] : st[LINK];
      concentration[dayIdx] = maxOut[0] === 0 ? 0 : eq > 0 ? maxOut[0] / eq : 1;
      dayIdx++;
      nextBoundary += DAY_MS;
    }
    if (tM === tNext) {
      const s = markSym[mi];
      hasPriceMark[s] = 1;
      const q = symQty[s];
      const m = markPrice[mi];
      if (q !== 0) st[PV] += q * m - q * mark[s];
      mark[s] = m;
      mi++;
    } else if (tF === tNext) {
      const amount = flows[fi].amount;
      const v = st[TC] + st[FC] + valueActive(active, nActive, symQty, mark, maxOut);
      if (st[BASE] > 0) st[LINK] *= v / st[BASE];
      else if (anyBase) skipped++;
      st[FC] += amount;
      st[BASE] = v + amount;
      if (st[BASE] > 0) anyBase = true;
      fi++;
    } else {
      const s = sym[ti];
      const p = pos[ti];
      const oldQ = symQty[s];
      if (hasPriceMark[s] === 0) {
        const m = price[ti];
        if (oldQ !== 0) st[PV] += oldQ * m - oldQ * mark[s];
        mark[s] = m;
      }
      const before = posQ[p];
      const after = posAfter[ti];
      if (before !== after) {
        if (before === 0) symOpen[s]++;
        if (after === 0) symOpen[s]--;
        posQ[p] = after;
        let newQ = oldQ + (after - before);
        if (symOpen[s] === 0) newQ = 0;
        symQty[s] = newQ;
        st[PV] += newQ * mark[s] - oldQ * mark[s];
        if (symOpen[s] > 0 && activeAt[s] < 0) {
          activeAt[s] = nActive;
          active[nActive++] = s;
        } else if (symOpen[s] === 0 && activeAt[s] >= 0) {
          const at = activeAt[s];
          const last = active[--nActive];
          active[at] = last;
          activeAt[last] = at;
          activeAt[s] = -1;
        }
      }
      st[TC] = cashAfter[ti];
      if (st[TC] + st[FC] < 0) negativeCash = true;
      if (rtPtr < rtCount && rtClose[rtPtr] === ti) {
        rtEquity[rtPtr++] = st[TC] + st[FC] + st[PV];
      }
      ti++;
    }
  }
  // Remaining days up to asOf (the last point is valued at asOf itself).
  while (dayIdx < nDays) {
    st[PV] = valueActive(active, nActive, symQty, mark, maxOut);
    const eq = st[TC] + st[FC] + st[PV];
    days[dayIdx] = firstDay + dayIdx;
    equity[dayIdx] = eq;
    index[dayIdx] = st[BASE] > 0 ? (st[LINK] * eq) / st[BASE] : st[LINK];
    concentration[dayIdx] = maxOut[0] === 0 ? 0 : eq > 0 ? maxOut[0] / eq : 1;
    dayIdx++;
  }

  const eqAsOf = nDays > 0 ? equity[nDays - 1] : st[TC] + st[FC] + valueActive(active, nActive, symQty, mark, maxOut);
  let twrIndex = NaN;
  if (anyBase) twrIndex = st[BASE] > 0 ? (st[LINK] * eqAsOf) / st[BASE] : st[LINK];
  if (st[BASE] <= 0 && anyBase) skipped++;

  return {
    days,
    equity,
    index,
    concentration,
    rtEquity,
    markAtAsOf: mark,
    cash: st[TC] + st[FC],
    equityAtAsOf: eqAsOf,
    twrIndex,
    skippedPeriods: skipped,
    negativeCash,
  };
}

/** Σ symQty × mark over the active symbols; out[0] receives the largest |value|. */
function valueActive(
  active: Int32Array,
  nActive: number,
  symQty: Float64Array,
  mark: Float64Array,
  out: Float64Array,
): number {
  let v = 0;
  let maxAbs = 0;
  for (let a = 0; a < nActive; a++) {
    const s = active[a];
    const x = symQty[s] * mark[s];
    v += x;
    const ax = x < 0 ? -x : x;
    if (ax > maxAbs) maxAbs = ax;
  }
  out[0] = maxAbs;
  return v;
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
