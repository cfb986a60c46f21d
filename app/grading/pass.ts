// One pass over the prepared ledger in time order: FIFO lot matching per (account, symbol), pieces
// and round trips, cash, the valuation of open positions, and the daily flow-adjusted curve.
//
// Lots live in one typed array of records indexed by the trade that opened them (a trade opens at
// most one lot), chained per position as a FIFO linked list. Price marks, cash flows and the ends
// of UTC days are merged in between the trades (at equal times: marks, then flows, then trades;
// a day ends before anything at or after midnight).
import type { PreparedLedger } from "./columns";
import { scratch, scratchRaw } from "./scratch";
import { dayOf } from "./time";

/** Relative tolerance under which a remaining quantity counts as zero. */
const QTY_EPS = 1e-9;

export interface Gap {
  /** Sorted trade index. */
  k: number;
  /** Quantity sold beyond the long position (left out). */
  excess: number;
}

export interface PassResult {
  realizedPnl: number;
  /** Fees of the counted quantities (every fee, unless a crypto gap left part of a sell out). */
  fees: number;
  pieces: number;
  /** Lowest trade-only cash (Σ sells − Σ buys − fees), including the initial 0. */
  minCash: number;
  /** Round trips in closing order. */
  rtCount: number;
  rtPnl: Float64Array;
  rtHoldDays: Float64Array;
  /** Σ entry price × quantity of the round trip's pieces (its size, for the break-even band). */
  rtNotional: Float64Array;
  /** Equity right after each round trip's closing trade: cash + value of the positions. */
  rtEquity: Float64Array;
  rtCash: Float64Array;
  rtValue: Float64Array;
  /** Open lots at the end: per position, head of the FIFO list (-1 when flat). */
  head: Int32Array;
  next: Int32Array;
  /** Lot records, LOT_FIELDS per opening trade (sorted index). */
  lots: Float64Array;
  /** Signed quantity per position at the end. */
  posQty: Float64Array;
  gaps: Gap[];
  gapCount: number;
  /** UTC day numbers of the curve points; the last point is valued at asOf. */
  days: Int32Array;
  equity: Float64Array;
  index: Float64Array;
  /** Largest |symbol value| ÷ equity at each curve point. */
  concentration: Float64Array;
  /** Cash, value of the positions and largest |symbol value| at each curve point. */
  dayCash: Float64Array;
  dayValue: Float64Array;
  maxAbs: Float64Array;
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

const MAX_GAPS_KEPT = 20;
// Local copies (not imports) so the hot loop reads plain constants.
const DAY_MS = 86_400_000;
const CRYPTO_CODE = 2;

// A lot is one record of four doubles, read together when matched: cheaper than four columns.
export const LOT_FIELDS = 4;
export const LOT_REM = 0; // remaining quantity
const LOT_PRICE = 1; // entry price
const LOT_FEE_PU = 2; // entry fee per unit
const LOT_TIME = 3; // open time (ms)
// Per position, the round trip in progress: P&L, quantity, quantity × holding days, notional.
const RT_FIELDS = 4;

// Running state, in a typed array: loop-carried doubles in locals of a long loop are boxed by V8.
const REALIZED = 0;
const FEES = 1;
const TC = 2; // trade cash
const MIN_CASH = 3;
const FC = 4; // flow cash
const PV = 5; // Σ symbol quantity × mark, kept incrementally, re-based exactly at every sample
const LINK = 6; // product of the completed sub-periods' factors
const BASE = 7; // capital at the start of the current sub-period
const ANY_BASE = 8;
const SKIPPED = 9;
const NEG_CASH = 10;
const NEXT_BOUNDARY = 11; // the next UTC midnight (events at or after it belong to a later day)
const MAX_ABS = 12; // out: largest |symbol value| of the last valuation
const ST_SIZE = 13;
// Integer state: cursors into marks, flows and days; the active symbol count; counters.
const MI = 0;
const FI = 1;
const DAY = 2;
const N_ACTIVE = 3;
const RT_COUNT = 4;
const PIECES = 5;
const GAP_COUNT = 6;
const IST_SIZE = 7;

/** Per-symbol valuation state. */
interface Symbols {
  qty: Float64Array;
  mark: Float64Array;
  hasPriceMark: Uint8Array;
  /** Positions of the symbol with a non-zero quantity. */
  open: Int32Array;
  /** Symbols with an open position, and each one's place in that list (-1: none). */
  active: Int32Array;
  activeAt: Int32Array;
}

/** Curve output, one entry per day. */
interface Curve {
  equity: Float64Array;
  index: Float64Array;
  cash: Float64Array;
  value: Float64Array;
  maxAbs: Float64Array;
}

export function ledgerPass(c: PreparedLedger): PassResult {
  const { n, nPos } = c;
  const nSym = c.symbols.length;
  const head = scratch("head", "i32", nPos, -1);
  const tail = scratch("tail", "i32", nPos, -1);
  const posQty = scratch("posQty", "f64", nPos);
  const rtAcc = scratch("rtAcc", "f64", nPos * RT_FIELDS);
  const next = scratch("next", "i32", n, -1);
  const lots = scratchRaw("lots", "f64", n * LOT_FIELDS);
  // A trade closes at most one round trip, so n bounds the count.
  const rtPnl = scratchRaw("rtPnl", "f64", n);
  const rtHold = scratchRaw("rtHold", "f64", n);
  const rtNotional = scratchRaw("rtNotional", "f64", n);
  const rtCash = scratchRaw("rtCash", "f64", n);
  const rtValue = scratchRaw("rtValue", "f64", n);
  const syms: Symbols = {
    qty: new Float64Array(nSym),
    mark: new Float64Array(nSym).fill(NaN),
    hasPriceMark: new Uint8Array(nSym),
    open: new Int32Array(nSym),
    active: new Int32Array(nSym),
    activeAt: new Int32Array(nSym).fill(-1),
  };

  const firstDay = dayOf(c.firstMs);
  const lastDay = dayOf(c.asOfMs);
  const nDays = Number.isFinite(firstDay) && lastDay >= firstDay ? lastDay - firstDay + 1 : 0;
  const days = new Int32Array(nDays);
  for (let i = 0; i < nDays; i++) days[i] = firstDay + i;
  const curve: Curve = {
    equity: new Float64Array(nDays),
    index: new Float64Array(nDays),
    cash: new Float64Array(nDays),
    value: new Float64Array(nDays),
    maxAbs: new Float64Array(nDays),
  };

  const st = new Float64Array(ST_SIZE);
  st[LINK] = 1;
  st[NEXT_BOUNDARY] = nDays > 0 ? (firstDay + 1) * DAY_MS : Infinity;
  const ist = new Int32Array(IST_SIZE);
  const gaps: Gap[] = [];

  tradeLoop(c, head, tail, posQty, rtAcc, next, lots, rtPnl, rtHold, rtNotional, rtCash, rtValue, syms, curve, st, ist, gaps);
  // What is left after the last trade: marks and flows up to asOf, then the remaining days (the
  // last point is valued at asOf itself).
  drainEvents(Infinity, c, syms, curve, st, ist);
  while (ist[DAY] < nDays) samplePoint(syms, curve, st, ist);
  const equityAtAsOf =
    nDays > 0 ? curve.cash[nDays - 1] + curve.value[nDays - 1] : st[TC] + st[FC] + valueActive(syms, st, ist[N_ACTIVE]);

  const anyBase = st[ANY_BASE] === 1;
  let skipped = st[SKIPPED];
  let twrIndex = NaN;
  if (anyBase) twrIndex = st[BASE] > 0 ? (st[LINK] * equityAtAsOf) / st[BASE] : st[LINK];
  if (st[BASE] <= 0 && anyBase) skipped++;
  const rtCount = ist[RT_COUNT];

  const result: PassResult = {
    realizedPnl: st[REALIZED],
    fees: st[FEES],
    pieces: ist[PIECES],
    minCash: st[MIN_CASH],
    rtCount,
    rtPnl: rtPnl.subarray(0, rtCount),
    rtHoldDays: rtHold.subarray(0, rtCount),
    rtNotional: rtNotional.subarray(0, rtCount),
    rtEquity: scratchRaw("rtEquity", "f64", rtCount),
    rtCash: rtCash.subarray(0, rtCount),
    rtValue: rtValue.subarray(0, rtCount),
    head,
    next,
    lots,
    posQty,
    gaps,
    gapCount: ist[GAP_COUNT],
    days,
    equity: curve.equity,
    index: curve.index,
    concentration: new Float64Array(nDays),
    dayCash: curve.cash,
    dayValue: curve.value,
    maxAbs: curve.maxAbs,
    markAtAsOf: syms.mark,
    cash: st[TC] + st[FC],
    equityAtAsOf,
    twrIndex,
    skippedPeriods: skipped,
    negativeCash: st[NEG_CASH] === 1,
  };
  finish(result);
  return result;
}

/**
 * A ledger without cash flows is graded as if funded by one deposit at its first trade (the
 * implied funding). That amount is only known after the pass (the lowest trade-only cash), so the
 * pass runs without it and this adds it: the deposit comes before any position exists, so it
 * starts the only sub-period with capital `amount` and shifts every later equity by `amount`.
 */
export function addInitialDeposit(r: PassResult, amount: number): void {
  for (let i = 0; i < r.dayCash.length; i++) r.dayCash[i] += amount;
  for (let i = 0; i < r.rtCash.length; i++) r.rtCash[i] += amount;
  r.cash += amount;
  r.negativeCash = r.minCash + amount < 0;
  finish(r);
  r.equityAtAsOf = r.equity[r.equity.length - 1]; // a ledger with trades has at least one day
  r.twrIndex = r.equityAtAsOf / amount;
  for (let i = 0; i < r.index.length; i++) r.index[i] = r.equity[i] / amount;
}

/** Equity (cash + value, summed in the order the figures were defined with) and concentration. */
function finish(r: PassResult): void {
  for (let i = 0; i < r.rtEquity.length; i++) r.rtEquity[i] = r.rtCash[i] + r.rtValue[i];
  const nDays = r.equity.length;
  for (let i = 0; i < nDays; i++) {
    const eq = (r.equity[i] = r.dayCash[i] + r.dayValue[i]);
    const m = r.maxAbs[i];
    r.concentration[i] = m === 0 ? 0 : eq > 0 ? m / eq : 1;
  }
}

/**
 * The trade loop, alone in its function so V8 optimises it whole (a loop in a larger function is
 * OSR-compiled, and ran about twice as slow). Marks, flows and day ends between two trades are
 * handled by drainEvents, called only when one is due.
 */
function tradeLoop(
  c: PreparedLedger, head: Int32Array, tail: Int32Array, posQty: Float64Array, rtAcc: Float64Array,
  next: Int32Array, lots: Float64Array, rtPnl: Float64Array, rtHold: Float64Array, rtNotional: Float64Array,
  rtCash: Float64Array, rtValue: Float64Array, syms: Symbols, curve: Curve, st: Float64Array, ist: Int32Array, gaps: Gap[],
): void {
  const { n, time, qty, price, fee, dir, cls, pos, sym } = c;
  const { qty: symQty, mark, hasPriceMark, open: symOpen, active, activeAt } = syms;
  let pieces = 0;
  let rtCount = 0;
  let nextEvent = nextEventTime(c, st, ist);

  for (let k = 0; k < n; k++) {
    const t = time[k];
    if (t >= nextEvent) {
      drainEvents(t, c, syms, curve, st, ist);
      nextEvent = nextEventTime(c, st, ist);
    }
    const p = pos[k];
    const q = qty[k];
    const px = price[k];
    const d = dir[k];
    const feePU = fee[k] / q;
    const tol = q * QTY_EPS;
    let remaining = q;
    const before = posQty[p];
    let pq = before;
    let closedRoundTrip = false;

    if (pq !== 0 && (pq > 0 ? d < 0 : d > 0)) {
      // Closing against the oldest lots.
      const side = pq > 0 ? 1 : -1;
      let L = head[p];
      let accPnl = 0;
      let accQ = 0;
      let accQH = 0;
      let accN = 0;
      while (L >= 0 && remaining > 0) {
        const o = L * LOT_FIELDS;
        const r = lots[o + LOT_REM];
        const entry = lots[o + LOT_PRICE];
        const m = r <= remaining + tol ? r : remaining;
        accPnl += (px - entry) * m * side - (lots[o + LOT_FEE_PU] + feePU) * m;
        accQ += m;
        accN += m * entry;
        accQH += m * ((t - lots[o + LOT_TIME]) / DAY_MS);
        pieces++;
        remaining -= m;
        if (remaining <= tol) remaining = 0;
        if (m === r) {
          lots[o + LOT_REM] = 0;
          L = next[L];
        } else {
          lots[o + LOT_REM] = r - m;
        }
      }
      head[p] = L;
      if (L < 0) tail[p] = -1;
      st[REALIZED] += accPnl;
      const ro = p * RT_FIELDS;
      rtAcc[ro] += accPnl;
      rtAcc[ro + 1] += accQ;
      rtAcc[ro + 2] += accQH;
      rtAcc[ro + 3] += accN;
      if (L < 0) {
        pq = 0;
        // Round trip complete.
        rtPnl[rtCount] = rtAcc[ro];
        rtHold[rtCount] = rtAcc[ro + 1] > 0 ? rtAcc[ro + 2] / rtAcc[ro + 1] : 0;
        rtNotional[rtCount] = rtAcc[ro + 3];
        closedRoundTrip = true;
        rtAcc[ro] = 0;
        rtAcc[ro + 1] = 0;
        rtAcc[ro + 2] = 0;
        rtAcc[ro + 3] = 0;
      } else {
        pq -= side * (q - remaining);
      }
    }

    let counted = q;
    if (remaining > 0) {
      if (d < 0 && cls[k] === CRYPTO_CODE) {
        // Crypto cannot be sold short: the excess is a data gap, left out of P&L and cash.
        counted = q - remaining;
        ist[GAP_COUNT]++;
        if (gaps.length < MAX_GAPS_KEPT) gaps.push({ k, excess: remaining });
      } else {
        // Open (or add to) a lot.
        const o = k * LOT_FIELDS;
        lots[o + LOT_REM] = remaining;
        lots[o + LOT_PRICE] = px;
        lots[o + LOT_FEE_PU] = feePU;
        lots[o + LOT_TIME] = t;
        if (tail[p] >= 0) next[tail[p]] = k;
        else head[p] = k;
        tail[p] = k;
        pq += d * remaining;
      }
    }
    posQty[p] = pq;

    const f = counted === q ? fee[k] : feePU * counted;
    st[FEES] += f;
    const cash = (st[TC] += d > 0 ? -px * counted - f : px * counted - f);
    if (cash < st[MIN_CASH]) st[MIN_CASH] = cash;
    if (cash + st[FC] < 0) st[NEG_CASH] = 1;

    // Valuation: the trade's price marks its symbol (unless the ledger gives marks for it).
    const s = sym[k];
    const oldQ = symQty[s];
    if (hasPriceMark[s] === 0) {
      if (oldQ !== 0) st[PV] += oldQ * px - oldQ * mark[s];
      mark[s] = px;
    }
    if (before !== pq) {
      if (before === 0) symOpen[s]++;
      if (pq === 0) symOpen[s]--;
      // A symbol with no open position is exactly flat (no floating residue across accounts).
      const newQ = symOpen[s] === 0 ? 0 : oldQ + (pq - before);
      symQty[s] = newQ;
      st[PV] += newQ * mark[s] - oldQ * mark[s];
      if (symOpen[s] > 0 && activeAt[s] < 0) {
        activeAt[s] = ist[N_ACTIVE];
        active[ist[N_ACTIVE]++] = s;
      } else if (symOpen[s] === 0 && activeAt[s] >= 0) {
        const at = activeAt[s];
        const last = active[--ist[N_ACTIVE]];
        active[at] = last;
        activeAt[last] = at;
        activeAt[s] = -1;
      }
    }
    if (closedRoundTrip) {
      rtCash[rtCount] = st[TC] + st[FC];
      rtValue[rtCount++] = st[PV];
    }
  }
  ist[RT_COUNT] = rtCount;
  ist[PIECES] = pieces;
}

/** Time of the next mark, flow or day end (Infinity when none is left). */
function nextEventTime(c: PreparedLedger, st: Float64Array, ist: Int32Array): number {
  let t = st[NEXT_BOUNDARY];
  if (ist[MI] < c.markTime.length && c.markTime[ist[MI]] < t) t = c.markTime[ist[MI]];
  if (ist[FI] < c.flowTime.length && c.flowTime[ist[FI]] < t) t = c.flowTime[ist[FI]];
  return t;
}

/** Handles, in time order, every mark and flow at or before `upTo` and every day that ends by then. */
function drainEvents(upTo: number, c: PreparedLedger, syms: Symbols, curve: Curve, st: Float64Array, ist: Int32Array): void {
  const { markTime, markSym, markPrice, flowTime, flowAmount } = c;
  const nDays = curve.equity.length;
  for (;;) {
    const tM = ist[MI] < markTime.length ? markTime[ist[MI]] : Infinity;
    const tF = ist[FI] < flowTime.length ? flowTime[ist[FI]] : Infinity;
    let tNext = tM < tF ? tM : tF;
    if (tNext > upTo) tNext = upTo;
    // Days that end before the next event (or the trade at upTo) are sampled first.
    while (tNext >= st[NEXT_BOUNDARY] && ist[DAY] < nDays && tNext !== Infinity) samplePoint(syms, curve, st, ist);
    if (tM === tNext && tM !== Infinity) {
      const s = markSym[ist[MI]];
      syms.hasPriceMark[s] = 1;
      const q = syms.qty[s];
      const m = markPrice[ist[MI]];
      if (q !== 0) st[PV] += q * m - q * syms.mark[s];
      syms.mark[s] = m;
      ist[MI]++;
    } else if (tF === tNext && tF !== Infinity) {
      const amount = flowAmount[ist[FI]];
      const v = st[TC] + st[FC] + valueActive(syms, st, ist[N_ACTIVE]);
      if (st[BASE] > 0) st[LINK] *= v / st[BASE];
      else if (st[ANY_BASE] === 1) st[SKIPPED]++;
      st[FC] += amount;
      st[BASE] = v + amount;
      if (st[BASE] > 0) st[ANY_BASE] = 1;
      ist[FI]++;
    } else return;
  }
}

/** The curve point of the day that ends now: values exactly (also re-bases the incremental PV). */
function samplePoint(syms: Symbols, curve: Curve, st: Float64Array, ist: Int32Array): void {
  const i = ist[DAY]++;
  st[PV] = valueActive(syms, st, ist[N_ACTIVE]);
  const cash = st[TC] + st[FC];
  const eq = cash + st[PV];
  curve.cash[i] = cash;
  curve.value[i] = st[PV];
  curve.index[i] = st[BASE] > 0 ? (st[LINK] * eq) / st[BASE] : st[LINK];
  curve.maxAbs[i] = st[MAX_ABS];
  st[NEXT_BOUNDARY] += DAY_MS;
}

/** Σ symbol quantity × mark over the active symbols; st[MAX_ABS] receives the largest |value|. */
function valueActive(syms: Symbols, st: Float64Array, nActive: number): number {
  const { active, qty, mark } = syms;
  let v = 0;
  let maxAbs = 0;
  for (let a = 0; a < nActive; a++) {
    const s = active[a];
    const x = qty[s] * mark[s];
    v += x;
    const ax = x < 0 ? -x : x;
    if (ax > maxAbs) maxAbs = ax;
  }
  st[MAX_ABS] = maxAbs;
  return v;
}
