// One pass over the prepared ledger in time order: FIFO lot matching per (account, symbol), pieces
// and round trips, cash, the valuation of open positions, the daily flow-adjusted curve, and the
// ledger's events (income, fees, splits, renames, spin-offs, transfers, deposits in kind).
//
// Lots live in one typed array of records, chained per position as a FIFO linked list: a trade
// opens at most one lot, events (spin-offs, partial transfers) some more; a lot consumed whole
// gives its record back for the next one, so the records in use stay few and close together
// (indexed by the trade that opened them, they were spread over the whole array and most reads of
// a lot missed the cache). Price marks, cash flows, events and the ends of UTC days
// are merged in between the trades (at one instant: marks, flows, income and fees, splits/renames/
// spin-offs, transfers, then trade rows; a day ends before anything at or after midnight).
import {
  EV_FEE,
  EV_FXPNL,
  EV_FXRATE,
  EV_INCOME,
  EV_RENAME,
  EV_SPINOFF,
  EV_SPLIT,
  EV_TRANSFER,
  type PreparedEvent,
  type PreparedLedger,
} from "./columns";
import { scratch, scratchRaw } from "./scratch";
import { dayStartMs, zoneDayOf } from "./time";

/**
 * Dust: an excess of at most this fraction of the quantity asked closes a lot rather than opening
 * one. Relative only: a fixed floor of units swallowed whole lots of wei or satoshi-sized trades.
 */
const DUST = 1e-6;
const MAX_GAPS_KEPT = 20;

export interface Gap {
  /** Sorted trade index. */
  k: number;
  /** Quantity sold beyond the long position (left out). */
  excess: number;
}

export interface PassResult {
  realizedPnl: number;
  /** Fees of the counted quantities, trades' and standalone. */
  fees: number;
  /** Income (dividends, interest, staking rewards). */
  income: number;
  /** Standalone account fees (also in fees). */
  accountFees: number;
  pieces: number;
  /** Lowest cash from activity (trades, income, fees; no flows), including the initial 0. */
  minCash: number;
  /** Round trips in closing order. */
  rtCount: number;
  rtPnl: Float64Array;
  rtHoldDays: Float64Array;
  /** Σ entry price × quantity of the round trip's pieces (its size, for the break-even band). */
  rtNotional: Float64Array;
  /** Total equity of all accounts just before the round trip's opening trade (cash + positions). */
  rtOpenEquity: Float64Array;
  rtOpenCash: Float64Array;
  rtOpenValue: Float64Array;
  /** Open and close time (ms), side (+1 long, −1 short) and position of each round trip. */
  rtClose: Float64Array;
  rtOpenTime: Float64Array;
  rtSide: Int8Array;
  rtPos: Int32Array;
  /** Open lots at the end: per position, head of the FIFO list (-1 when flat). */
  head: Int32Array;
  next: Int32Array;
  /** Lot records, LOT_FIELDS each. */
  lots: Float64Array;
  /** Signed quantity per position at the end. */
  posQty: Float64Array;
  /** Positions: (account, symbol) of each, including those events created. */
  nPos: number;
  posSym: Int32Array;
  posAcc: Int32Array;
  gaps: Gap[];
  gapCount: number;
  /** Day numbers of the curve points, in the ledger's time zone (UTC by default); the last point is valued at asOf. */
  days: Int32Array;
  /** The instant each curve day starts, and after the last one where the next would (nDays + 1 entries). */
  dayStart: Float64Array;
  equity: Float64Array;
  index: Float64Array;
  /** 1 when a trade happened that day or a position was open at its start. */
  active: Uint8Array;
  /** Net flows of each day (cash and in kind, and the implied deposit). */
  dayFlow: Float64Array;
  /** Largest |symbol value| ÷ equity at each curve point. */
  concentration: Float64Array;
  /** Cash, value of the positions and largest |symbol value| at each curve point. */
  dayCash: Float64Array;
  dayValue: Float64Array;
  maxAbs: Float64Array;
  /** Σ over curve days of |position value| per asset class code (for the dominant class). */
  classExposure: Float64Array;
  /** Without any flow: gross exposure (Σ |symbol value|) and equity without the implied deposit, after each trade. */
  tradeGross: Float64Array;
  tradeEquity: Float64Array;
  /** With flows: the largest gross exposure ÷ equity after a trade (Infinity on equity ≤ 0). */
  maxLeverage: number;
  /** Marks (per symbol) at asOf; NaN for a symbol never marked. */
  markAtAsOf: Float64Array;
  /** Per symbol, 1 when an untrusted mark was held down to its last trusted price (see setUntrustedMark). */
  heldAtCost: Uint8Array;
  cash: number;
  equityAtAsOf: number;
  /** TWR index at asOf (1 + twr) or NaN when no period had positive capital. */
  twrIndex: number;
  /** Number of sub-periods skipped because the capital at their start was ≤ 0. */
  skippedPeriods: number;
  /** A sub-period lost more than its capital (the chain is bounded at −100 %). */
  boundedLoss: boolean;
  negativeCash: boolean;
  /** Flows in kind (receive +, send −), in time order. */
  inKindTime: number[];
  inKindAmount: number[];
  /** Event warnings (excess transfers, unsupported shapes). */
  eventWarnings: string[];
  /** FX P&L that reached cash (foreign cash re-valued, exchanges off the reference rate; fx.ts). */
  fxPnl: number;
  /** At each rate change: the equity just before it (without an implied deposit) and what the change added to it. */
  fxEquity: number[];
  fxGain: number[];
}

// A lot is one record of four doubles, read together when matched: cheaper than four columns.
export const LOT_FIELDS = 4;
export const LOT_REM = 0; // remaining quantity
export const LOT_PRICE = 1; // entry price
export const LOT_FEE_PU = 2; // entry fee per unit
export const LOT_TIME = 3; // open time (ms)
// Per position, the round trip in progress: P&L, quantity, quantity × holding days, notional,
// the cash and position value just before its opening trade, its open time and side (+1 long, −1 short).
const RT_FIELDS = 8;
/** Fields a round trip carries from its opening (copied when it moves to another position). */
const RT_OPEN_FIRST = 4;

// Running state, in typed arrays between the trade runs (which keep what they change in locals).
const REALIZED = 0;
const FEES = 1;
const TC = 2; // cash from activity: trades, income, standalone fees
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
const GROSS = 13; // Σ |symbol quantity × mark|, kept like PV
const INCOME = 14;
const OPEN_AT_START = 16; // a position worth something was open when the current day started
const BOUNDED = 17;
const ACCOUNT_FEES = 18;
const MAX_LEV = 19; // largest gross ÷ equity after a trade (ledgers with flows)
const FX_PNL = 20;
// Σ signed entry notional of open margin lots (futures, forex, CFDs): cash holds only their margin,
// so cash + MARGIN is the account's cash for "cash below zero" (DECISIONS 196).
const MARGIN = 21;
const ST_SIZE = 22;
// Integer state: cursors into marks, flows, events and days; the active symbol count; counters.
const MI = 0;
const FI = 1;
const DAY = 2;
const N_ACTIVE = 3;
const RT_COUNT = 4;
const PIECES = 5;
const GAP_COUNT = 6;
const EI = 7;
const TRADE_AT = 8; // index of the next trade when the pass stops for events (trades before it are done)
const LAST_SAMPLED_TRADE = 9; // TRADE_AT at the previous day end
const IST_SIZE = 10;

/** Per-symbol valuation state. */
interface Symbols {
  qty: Float64Array;
  mark: Float64Array;
  /**
   * The last price that may raise the symbol's value: its last fill or trusted mark, re-priced with
   * the mark by corporate actions and rates. An untrusted mark is held to it (docs/GRADING.md §1, "Marks").
   */
  trusted: Float64Array;
  /** 1 once an untrusted mark of the symbol was held down to its trusted price. */
  heldAtCost: Uint8Array;
  /** Positions of the symbol with a non-zero quantity. */
  open: Int32Array;
  /** Symbols with an open position, and each one's place in that list (-1: none). */
  active: Int32Array;
  activeAt: Int32Array;
  cls: Uint8Array;
  /** Time of the last corporate action that re-priced the mark (one per instant). */
  actionAt: Float64Array;
}

/** Curve output, one entry per day. */
interface Curve {
  equity: Float64Array;
  index: Float64Array;
  cash: Float64Array;
  value: Float64Array;
  maxAbs: Float64Array;
  active: Uint8Array;
  classExposure: Float64Array;
  /** Net flows (cash and in kind) during each day. */
  flow: Float64Array;
  /** The instant each day starts (nDays + 1 entries): the day ends sampled. */
  dayStart: Float64Array;
}

/** Position and lot storage; events may add positions and lots, so arrays can grow. */
interface Book {
  head: Int32Array;
  tail: Int32Array;
  posQty: Float64Array;
  rtAcc: Float64Array;
  next: Int32Array;
  lots: Float64Array;
  /**
   * Records below lotTop have been used; `free` heads the list (by next) of those given back (-1: none).
   * A lot consumed whole gives its record back, so the records in use stay few and close together.
   */
  lotTop: number;
  free: number;
  /** Trades not yet passed, each of which may open a lot: the storage keeps room for them. */
  tradesLeft: number;
  nPos: number;
  posSym: Int32Array;
  posAcc: Int32Array;
  /** (account × symbols + symbol) → position, built on the first event that needs it. */
  posIndex: Map<number, number> | null;
  nSym: number;
}

export function ledgerPass(c: PreparedLedger): PassResult {
  const { n } = c;
  const nSym = c.symbols.length;
  // Events may create positions (rename, spin-off, transfer targets): room for them up front.
  // (Rate changes and exchanges create none: a multi-currency ledger has hundreds of them a year.)
  let nEv = c.ev.length;
  if (c.fx !== undefined) nEv = c.ev.filter((e) => e.kind !== EV_FXRATE && e.kind !== EV_FXPNL).length;
  const posCap = c.nPos + (nEv > 0 ? nEv * Math.max(1, c.accounts.length) : 0);
  const posSym = new Int32Array(posCap);
  const posAcc = new Int32Array(posCap);
  posSym.set(c.posSym);
  posAcc.set(c.posAcc);
  const book: Book = {
    head: scratch("head", "i32", posCap, -1),
    tail: scratch("tail", "i32", posCap, -1),
    posQty: scratch("posQty", "f64", posCap),
    rtAcc: scratch("rtAcc", "f64", posCap * RT_FIELDS),
    next: scratchRaw("next", "i32", n + 16),
    lots: scratchRaw("lots", "f64", (n + 16) * LOT_FIELDS),
    lotTop: 0,
    free: -1,
    tradesLeft: n,
    nPos: c.nPos,
    posSym,
    posAcc,
    posIndex: null,
    nSym,
  };
  // A trade closes at most one round trip; a transfer or rename may end one too.
  const rtCap = n + c.ev.length;
  const rtPnl = scratchRaw("rtPnl", "f64", rtCap);
  const rtHold = scratchRaw("rtHold", "f64", rtCap);
  const rtNotional = scratchRaw("rtNotional", "f64", rtCap);
  const rtOpenCash = scratchRaw("rtOpenCash", "f64", rtCap);
  const rtOpenValue = scratchRaw("rtOpenValue", "f64", rtCap);
  const rtClose = scratchRaw("rtClose", "f64", rtCap);
  const rtOpenTime = scratchRaw("rtOpenTime", "f64", rtCap);
  const rtSide = scratchRaw("rtSide", "i8", rtCap);
  const rtPos = scratchRaw("rtPos", "i32", rtCap);
  const unfunded = c.flowTime.length === 0 && c.receives === 0;
  const tradeGross = unfunded ? scratchRaw("tradeGross", "f64", n) : new Float64Array(0);
  const tradeEquity = unfunded ? scratchRaw("tradeEquity", "f64", n) : new Float64Array(0);
  const syms: Symbols = {
    qty: new Float64Array(nSym),
    mark: new Float64Array(nSym).fill(NaN),
    trusted: new Float64Array(nSym).fill(NaN),
    heldAtCost: new Uint8Array(nSym),
    open: new Int32Array(nSym),
    active: new Int32Array(nSym),
    activeAt: new Int32Array(nSym).fill(-1),
    cls: c.symCls,
    actionAt: new Float64Array(nSym).fill(NaN),
  };

  // Days in the trader's time zone (v3.3): UTC days, exactly as before, without one.
  const firstDay = zoneDayOf(c.firstMs, c.timeZone);
  const lastDay = zoneDayOf(c.asOfMs, c.timeZone);
  const nDays = Number.isFinite(firstDay) && lastDay >= firstDay ? lastDay - firstDay + 1 : 0;
  const days = new Int32Array(nDays);
  for (let i = 0; i < nDays; i++) days[i] = firstDay + i;
  const dayStart = new Float64Array(nDays + 1);
  for (let i = 0; i <= nDays; i++) dayStart[i] = dayStartMs(firstDay + i, c.timeZone);
  const curve: Curve = {
    equity: new Float64Array(nDays),
    index: new Float64Array(nDays),
    cash: new Float64Array(nDays),
    value: new Float64Array(nDays),
    maxAbs: new Float64Array(nDays),
    active: new Uint8Array(nDays),
    classExposure: new Float64Array(7),
    flow: new Float64Array(nDays),
    dayStart,
  };

  const st = new Float64Array(ST_SIZE);
  st[LINK] = 1;
  st[NEXT_BOUNDARY] = nDays > 0 ? dayStart[1] : Infinity;
  const ist = new Int32Array(IST_SIZE);
  const gaps: Gap[] = [];
  const rt: RoundTrips = {
    pnl: rtPnl,
    hold: rtHold,
    notional: rtNotional,
    openCash: rtOpenCash,
    openValue: rtOpenValue,
    close: rtClose,
    openTime: rtOpenTime,
    side: rtSide,
    pos: rtPos,
  };
  const ctx: Context = {
    c,
    book,
    syms,
    curve,
    st,
    ist,
    rt,
    inKindTime: [],
    inKindAmount: [],
    warnings: [],
    fxEquity: [],
    fxGain: [],
  };

  tradeLoop(ctx, tradeGross, tradeEquity, gaps);
  ist[TRADE_AT] = c.n;
  book.tradesLeft = 0;
  // What is left after the last trade: marks, flows and events up to asOf, then the remaining days
  // (the last point is valued at asOf itself).
  drainEvents(Infinity, ctx);
  while (ist[DAY] < nDays) samplePoint(syms, curve, st, ist);
  const equityAtAsOf =
    nDays > 0 ? curve.cash[nDays - 1] + curve.value[nDays - 1] : st[TC] + st[FC] + valueActive(syms, st, ist[N_ACTIVE]);

  const anyBase = st[ANY_BASE] === 1;
  let skipped = st[SKIPPED];
  let twrIndex = NaN;
  if (anyBase) {
    const f = st[BASE] > 0 ? equityAtAsOf / st[BASE] : 1;
    twrIndex = st[LINK] * (f < 0 ? 0 : f);
    if (f < 0) st[BOUNDED] = 1;
  }
  if (st[BASE] <= 0 && anyBase) skipped++;
  const rtCount = ist[RT_COUNT];

  const result: PassResult = {
    realizedPnl: st[REALIZED],
    fees: st[FEES],
    income: st[INCOME],
    accountFees: st[ACCOUNT_FEES],
    pieces: ist[PIECES],
    minCash: st[MIN_CASH],
    rtCount,
    rtPnl: rtPnl.subarray(0, rtCount),
    rtHoldDays: rtHold.subarray(0, rtCount),
    rtNotional: rtNotional.subarray(0, rtCount),
    rtOpenEquity: scratchRaw("rtOpenEquity", "f64", rtCount),
    rtOpenCash: rtOpenCash.subarray(0, rtCount),
    rtOpenValue: rtOpenValue.subarray(0, rtCount),
    rtClose: rtClose.subarray(0, rtCount),
    rtOpenTime: rtOpenTime.subarray(0, rtCount),
    rtSide: rtSide.subarray(0, rtCount),
    rtPos: rtPos.subarray(0, rtCount),
    head: book.head,
    next: book.next,
    lots: book.lots,
    posQty: book.posQty,
    nPos: book.nPos,
    posSym: book.posSym,
    posAcc: book.posAcc,
    gaps,
    gapCount: ist[GAP_COUNT],
    days,
    dayStart,
    equity: curve.equity,
    index: curve.index,
    active: curve.active,
    dayFlow: curve.flow,
    concentration: new Float64Array(nDays),
    dayCash: curve.cash,
    dayValue: curve.value,
    maxAbs: curve.maxAbs,
    classExposure: curve.classExposure,
    tradeGross,
    tradeEquity,
    maxLeverage: st[MAX_LEV],
    markAtAsOf: syms.mark,
    heldAtCost: syms.heldAtCost,
    // Margin products hold only their margin: their notional is not out of cash.
    cash: st[TC] + st[FC] + st[MARGIN],
    equityAtAsOf,
    twrIndex,
    skippedPeriods: skipped,
    boundedLoss: st[BOUNDED] === 1,
    negativeCash: st[NEG_CASH] === 1,
    inKindTime: ctx.inKindTime,
    inKindAmount: ctx.inKindAmount,
    eventWarnings: ctx.warnings,
    fxPnl: st[FX_PNL],
    fxEquity: ctx.fxEquity,
    fxGain: ctx.fxGain,
  };
  finish(result);
  return result;
}

/**
 * A ledger without cash flows is graded as if funded by one deposit at its first trade (the
 * implied funding). That amount is only known after the pass (the lowest cash from activity), so
 * the pass runs without it and this adds it: the deposit comes before any position exists, so it
 * starts the only sub-period with capital `amount` and shifts every later equity by `amount`.
 */
export function addInitialDeposit(r: PassResult, amount: number): void {
  for (let i = 0; i < r.dayCash.length; i++) r.dayCash[i] += amount;
  for (let i = 0; i < r.rtOpenCash.length; i++) r.rtOpenCash[i] += amount;
  for (let i = 0; i < r.tradeEquity.length; i++) r.tradeEquity[i] += amount;
  r.cash += amount;
  r.dayFlow[0] += amount;
  r.negativeCash = r.minCash + amount < 0;
  finish(r);
  r.equityAtAsOf = r.equity[r.equity.length - 1]; // a ledger with trades has at least one day
  r.twrIndex = Math.max(0, r.equityAtAsOf / amount);
  r.boundedLoss = r.equityAtAsOf < 0;
  for (let i = 0; i < r.index.length; i++) r.index[i] = Math.max(0, r.equity[i] / amount);
}

/** Equity (cash + value, summed in the order the figures were defined with) and concentration. */
function finish(r: PassResult): void {
  for (let i = 0; i < r.rtOpenEquity.length; i++) r.rtOpenEquity[i] = r.rtOpenCash[i] + r.rtOpenValue[i];
  const nDays = r.equity.length;
  for (let i = 0; i < nDays; i++) {
    const eq = (r.equity[i] = r.dayCash[i] + r.dayValue[i]);
    const m = r.maxAbs[i];
    r.concentration[i] = m === 0 ? 0 : eq > 0 ? m / eq : 1;
  }
}

interface RoundTrips {
  pnl: Float64Array;
  hold: Float64Array;
  notional: Float64Array;
  openCash: Float64Array;
  openValue: Float64Array;
  close: Float64Array;
  openTime: Float64Array;
  side: Int8Array;
  pos: Int32Array;
}

/** What the event handlers share with the trade loop. */
interface Context {
  c: PreparedLedger;
  book: Book;
  syms: Symbols;
  curve: Curve;
  st: Float64Array;
  ist: Int32Array;
  rt: RoundTrips;
  inKindTime: number[];
  inKindAmount: number[];
  warnings: string[];
  fxEquity: number[];
  fxGain: number[];
}

/**
 * The trades in order, with the marks, flows, events and day ends due between them handled by
 * drainEvents: runs of trades between two such items go to tradeRun.
 */
function tradeLoop(ctx: Context, tradeGross: Float64Array, tradeEquity: Float64Array, gaps: Gap[]): void {
  const { c, book, st, ist } = ctx;
  const { n, time } = c;
  let k = 0;
  while (k < n) {
    ist[TRADE_AT] = k;
    book.tradesLeft = n - k;
    drainEvents(time[k], ctx);
    // Events may grow the lot storage: the run reads the current arrays.
    k = tradeRun(ctx, k, nextEventTime(c, st, ist), book.next, book.lots, tradeGross, tradeEquity, gaps);
  }
}

/**
 * Trades from `k0` up to the next one at or after `until` (returned; n when none), alone in their
 * function so V8 optimises the loop whole (a loop in a larger function is OSR-compiled, and ran
 * about twice as slow), and with the lot storage fixed for the run. The running state the loop
 * changes on every trade is in locals, kept in `st` and `ist` between runs (where drainEvents reads
 * and changes it) and around the flows in kind.
 */
function tradeRun(
  ctx: Context,
  k0: number,
  until: number,
  next: Int32Array,
  lots: Float64Array,
  tradeGross: Float64Array,
  tradeEquity: Float64Array,
  gaps: Gap[],
): number {
  // The constants the loop reads, as literals: optimised code reads a module-level constant
  // (imported or this file's own) from its cell or context slot and checks it for the hole at each
  // use, 26 loads per trade and a quarter of the pass's instructions. pass-constants.test.ts checks
  // each against the constant of the same name (row kinds: columns.ts; DAY_MS: MS_PER_DAY; CLASS_CODES).
  const ROW_TRADE = 0;
  const ROW_RECEIVE = 1;
  const ROW_SEND = 2;
  const ROW_FEE = 3;
  const ROW_INCOME = 4;
  const ROW_INCOME_HELD = 5;
  const ROW_THIN = 6;
  const LOT_FIELDS = 4;
  const LOT_REM = 0;
  const LOT_PRICE = 1;
  const LOT_FEE_PU = 2;
  const LOT_TIME = 3;
  const DUST = 1e-6;
  const DAY_MS = 86_400_000;
  const RT_FIELDS = 8;
  const CRYPTO_CODE = 2;
  const MARGIN_CODE = 4; // classes from this code on (future, forex, CFD) are margin products
  const TC = 2;
  const FC = 4;
  const ANY_BASE = 8;
  const GROSS = 13;
  const INCOME = 14;
  const ACCOUNT_FEES = 18;
  const N_ACTIVE = 3;
  const GAP_COUNT = 6;
  const { c, book, syms, st, ist, rt } = ctx;
  const { n, time, qty, price, fee, dir, cls, pos, sym, row } = c;
  const { head, tail, posQty, rtAcc } = book;
  const { qty: symQty, mark, trusted, open: symOpen, active, activeAt } = syms;
  const {
    pnl: rtPnl,
    hold: rtHold,
    notional: rtNotional,
    openCash: rtOpenCash,
    openValue: rtOpenValue,
    close: rtClose,
    openTime: rtOpenTime,
    side: rtSide,
    pos: rtPos,
  } = rt;
  // Without any flow the whole ledger is funded by the implied deposit added after the pass.
  const unfunded = tradeGross.length > 0 || (c.flowTime.length === 0 && c.receives === 0);
  // Receive and send rows are flows in kind too; most ledgers have none, and skip reading the kinds.
  const anyRows = c.receives > 0 || c.sends > 0 || c.inKindFees > 0 || c.inKindIncome > 0 || c.thinTrades > 0;
  let realized = st[REALIZED];
  let fees = st[FEES];
  let tc = st[TC];
  let minCash = st[MIN_CASH];
  let fc = st[FC];
  let pv = st[PV];
  let gross = st[GROSS];
  let maxLev = st[MAX_LEV];
  let anyBase = st[ANY_BASE] === 1;
  let negCash = st[NEG_CASH] === 1;
  let mc = st[MARGIN];
  let nActive = ist[N_ACTIVE];
  let rtCount = ist[RT_COUNT];
  let pieces = ist[PIECES];
  let top = book.lotTop;
  let free = book.free;

  let k = k0;
  for (; k < n; k++) {
    const t = time[k];
    // (The first trade of a run is due: what came before it was just drained.)
    if (t >= until && k > k0) break;
    const kind = anyRows ? row[k] : ROW_TRADE;
    if (kind === ROW_RECEIVE) {
      // A receive is a deposit in kind: the units' value arrives, then buys them (no fee).
      st[TC] = tc;
      ist[N_ACTIVE] = nActive;
      inKindFlow(ctx, t, qty[k] * price[k]);
      fc = st[FC];
      gross = st[GROSS];
      anyBase = st[ANY_BASE] === 1;
    }
    const p = pos[k];
    const q = qty[k];
    let px = price[k];
    const d = dir[k];
    if (kind === ROW_INCOME || kind === ROW_INCOME_HELD) {
      // Income in kind: its value is income, which then buys the units (cash is unchanged). A value
      // its source does not vouch for counts at no more than the trusted price, 0 without one.
      if (kind === ROW_INCOME_HELD) {
        const ref = trusted[sym[k]];
        const held = ref === ref ? (px < ref ? px : ref) : 0;
        if (held !== px) ctx.syms.heldAtCost[sym[k]] = 1;
        px = held;
      }
      tc += px * q;
      st[INCOME] += px * q;
    }
    const feePU = fee[k] / q;
    const tol = q * DUST;
    let remaining = q;
    const before = posQty[p];
    let pq = before;
    const ro = p * RT_FIELDS;
    // Quantity matched against lots: a lot consumed whole (dust either way) counts whole, so cash
    // and P&L see the same units.
    let counted = 0;
    const margin = cls[k] >= MARGIN_CODE;

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
          // Consumed: the record goes back to the free list.
          const after = next[L];
          next[L] = free;
          free = L;
          L = after;
        } else {
          lots[o + LOT_REM] = r - m;
        }
      }
      head[p] = L;
      counted = accQ;
      realized += accPnl;
      if (margin) mc -= side * accN;
      const rPnl = rtAcc[ro] + accPnl;
      const rQ = rtAcc[ro + 1] + accQ;
      const rQH = rtAcc[ro + 2] + accQH;
      const rN = rtAcc[ro + 3] + accN;
      if (L < 0) {
        tail[p] = -1;
        pq = 0;
        // Round trip complete.
        const i = rtCount++;
        rtPnl[i] = rPnl;
        rtHold[i] = rQ > 0 ? rQH / rQ : 0;
        rtNotional[i] = rN;
        rtOpenCash[i] = rtAcc[ro + 4];
        rtOpenValue[i] = rtAcc[ro + 5];
        rtOpenTime[i] = rtAcc[ro + 6];
        rtSide[i] = rtAcc[ro + 7];
        rtPos[i] = p;
        rtClose[i] = t;
        rtAcc[ro] = 0;
        rtAcc[ro + 1] = 0;
        rtAcc[ro + 2] = 0;
        rtAcc[ro + 3] = 0;
      } else {
        rtAcc[ro] = rPnl;
        rtAcc[ro + 1] = rQ;
        rtAcc[ro + 2] = rQH;
        rtAcc[ro + 3] = rN;
        pq -= side * (q - remaining);
      }
    }

    if (remaining > 0) {
      if (d < 0 && (cls[k] === CRYPTO_CODE || kind === ROW_SEND || kind === ROW_FEE)) {
        // Crypto cannot be sold short, nor units sent or paid that are not held: the excess is a
        // data gap, left out of P&L and cash.
        ist[GAP_COUNT]++;
        if (gaps.length < MAX_GAPS_KEPT) gaps.push({ k, excess: remaining });
      } else {
        // Open (or add to) a lot; a position opened from flat starts a round trip.
        if (pq === 0) {
          // Cash and value are still those from before this trade (updated below).
          rtAcc[ro + 4] = tc + fc;
          rtAcc[ro + 5] = pv;
          rtAcc[ro + 6] = t;
          rtAcc[ro + 7] = d;
        }
        // A record given back, else a new one (the storage has room for one per trade left).
        let J = free;
        if (J >= 0) free = next[J];
        else J = top++;
        next[J] = -1;
        const o = J * LOT_FIELDS;
        lots[o + LOT_REM] = remaining;
        lots[o + LOT_PRICE] = px;
        lots[o + LOT_FEE_PU] = feePU;
        lots[o + LOT_TIME] = t;
        const last = tail[p];
        if (last >= 0) next[last] = J;
        else head[p] = J;
        tail[p] = J;
        pq += d * remaining;
        counted += remaining;
        if (margin) mc += d * remaining * px;
      }
    }
    posQty[p] = pq;

    const f = counted === q ? fee[k] : feePU * counted;
    fees += f;
    tc += d > 0 ? -px * counted - f : px * counted - f;
    // Cash and leverage are measured at the end of an instant: a swap's legs at one instant are one
    // exchange, whatever their order (bought first, the coin bought read as 2× leverage on margin).
    const instantEnd = k + 1 === n || time[k + 1] !== t;
    if (instantEnd) {
      if (tc < minCash) minCash = tc;
      if (tc + fc + mc < 0) negCash = true;
    }

    // Valuation: the trade's price marks its symbol (the mark is the latest price or trade).
    const s = sym[k];
    const oldQ = symQty[s];
    const vpx = kind === ROW_THIN ? thinMark(syms, s, oldQ + (pq - before), px) : px;
    if (oldQ !== 0) {
      const oldV = oldQ * mark[s];
      pv += oldQ * vpx - oldV;
      gross -= oldV < 0 ? -oldV : oldV;
    }
    mark[s] = vpx;
    if (kind !== ROW_INCOME_HELD && kind !== ROW_THIN) trusted[s] = px;
    let newQ = oldQ;
    if (before !== pq) {
      let open = symOpen[s];
      if (before === 0) open++;
      if (pq === 0) open--;
      symOpen[s] = open;
      // A symbol with no open position is exactly flat (no floating residue across accounts).
      newQ = open === 0 ? 0 : oldQ + (pq - before);
      symQty[s] = newQ;
      pv += newQ * vpx - oldQ * vpx;
      if (open > 0 && activeAt[s] < 0) {
        activeAt[s] = nActive;
        active[nActive++] = s;
      } else if (open === 0 && activeAt[s] >= 0) {
        const at = activeAt[s];
        const last = active[--nActive];
        active[at] = last;
        activeAt[last] = at;
        activeAt[s] = -1;
      }
    }
    if (newQ !== 0) {
      const v = newQ * vpx;
      gross += v < 0 ? -v : v;
    }
    if (unfunded) {
      // The implied deposit is known only after the pass: keep both sides (no exposure within an instant).
      tradeGross[k] = instantEnd ? gross : 0;
      tradeEquity[k] = tc + fc + pv;
    } else if (anyBase && instantEnd) {
      // (Trades before any capital arrived — deposits missing from the ledger — have no leverage to measure.)
      const eq = tc + fc + pv;
      if (gross > maxLev * eq) maxLev = eq > 0 ? gross / eq : Infinity;
    }
    if (kind === ROW_FEE && counted > 0) {
      // A fee in kind: the units were sold at their price, and the proceeds pay the fee (no flow).
      const paid = px * counted;
      tc -= paid;
      fees += paid;
      st[ACCOUNT_FEES] += paid;
      if (tc < minCash) minCash = tc;
      if (tc + fc + mc < 0) negCash = true;
    }
    if (kind === ROW_SEND && counted > 0) {
      // A send is a withdrawal in kind of what it could sell.
      st[TC] = tc;
      ist[N_ACTIVE] = nActive;
      inKindFlow(ctx, t, -px * counted);
      fc = st[FC];
      gross = st[GROSS];
      anyBase = st[ANY_BASE] === 1;
    }
  }
  st[REALIZED] = realized;
  st[FEES] = fees;
  st[TC] = tc;
  st[MIN_CASH] = minCash;
  st[PV] = pv;
  st[GROSS] = gross;
  st[MAX_LEV] = maxLev;
  st[NEG_CASH] = negCash ? 1 : 0;
  st[MARGIN] = mc;
  ist[N_ACTIVE] = nActive;
  ist[RT_COUNT] = rtCount;
  ist[PIECES] = pieces;
  book.lotTop = top;
  book.free = free;
  return k;
}

/** Time of the next mark, flow, event or day end (Infinity when none is left). */
function nextEventTime(c: PreparedLedger, st: Float64Array, ist: Int32Array): number {
  let t = st[NEXT_BOUNDARY];
  if (ist[MI] < c.markTime.length && c.markTime[ist[MI]] < t) t = c.markTime[ist[MI]];
  if (ist[FI] < c.flowTime.length && c.flowTime[ist[FI]] < t) t = c.flowTime[ist[FI]];
  if (ist[EI] < c.ev.length && c.ev[ist[EI]].time < t) t = c.ev[ist[EI]].time;
  return t;
}

/** Handles, in instant order, every mark, flow and event at or before `upTo` and every day that ends by then. */
function drainEvents(upTo: number, ctx: Context): void {
  const { c, syms, curve, st, ist } = ctx;
  const { markTime, markSym, markPrice, markTrusted, flowTime, flowAmount, ev } = c;
  const nDays = curve.equity.length;
  for (;;) {
    const tM = ist[MI] < markTime.length ? markTime[ist[MI]] : Infinity;
    const tF = ist[FI] < flowTime.length ? flowTime[ist[FI]] : Infinity;
    const tE = ist[EI] < ev.length ? ev[ist[EI]].time : Infinity;
    let tNext = tM < tF ? tM : tF;
    if (tE < tNext) tNext = tE;
    if (tNext > upTo) tNext = upTo;
    // Days that end before the next item (or the trade at upTo) are sampled first.
    while (tNext >= st[NEXT_BOUNDARY] && ist[DAY] < nDays && tNext !== Infinity) samplePoint(syms, curve, st, ist);
    // A rate change comes first at its instant: the marks and flows there are already at its rate.
    if (tE === tNext && tE !== Infinity && ev[ist[EI]].kind === EV_FXRATE) {
      applyEvent(ctx, ev[ist[EI]]);
      ist[EI]++;
    } else if (tM === tNext && tM !== Infinity) {
      const s = markSym[ist[MI]];
      const m = markPrice[ist[MI]];
      if (markTrusted[ist[MI]] === 1) {
        setMark(syms, st, s, m);
        syms.trusted[s] = m;
      } else setUntrustedMark(syms, st, s, m);
      ist[MI]++;
    } else if (tF === tNext && tF !== Infinity) {
      applyFlow(ctx, flowAmount[ist[FI]]);
      ist[FI]++;
    } else if (tE === tNext && tE !== Infinity) {
      applyEvent(ctx, ev[ist[EI]]);
      ist[EI]++;
    } else return;
  }
}

/**
 * The value per unit a fill its source does not vouch for leaves on its symbol (`q` units after it):
 * like an untrusted mark, at most the trusted price for a long and at least it for a short. The
 * first price a symbol has is what was paid: it becomes the trusted price, so later thin fills
 * cannot raise the position above it.
 */
function thinMark(syms: Symbols, s: number, q: number, px: number): number {
  const ref = syms.trusted[s];
  if (ref !== ref) {
    syms.trusted[s] = px;
    return px;
  }
  const held = q > 0 ? (px > ref ? ref : px) : q < 0 ? (px < ref ? ref : px) : px;
  if (held !== px) syms.heldAtCost[s] = 1;
  return held;
}

/**
 * A mark the source does not vouch for: it lowers the position's value freely but raises it no
 * further than the last trusted price (a long is held at the lower of the two, a short at the
 * higher). Without a trusted price yet, it is not used.
 */
function setUntrustedMark(syms: Symbols, st: Float64Array, s: number, m: number): void {
  const ref = syms.trusted[s];
  if (ref !== ref) return;
  const q = syms.qty[s];
  const held = q > 0 ? (m > ref ? ref : m) : q < 0 ? (m < ref ? ref : m) : m;
  if (held !== m) syms.heldAtCost[s] = 1;
  setMark(syms, st, s, held);
}

function setMark(syms: Symbols, st: Float64Array, s: number, m: number): void {
  const q = syms.qty[s];
  if (q !== 0) {
    const old = syms.mark[s];
    st[PV] += q * m - q * old;
    st[GROSS] += Math.abs(q * m) - Math.abs(q * old);
  }
  syms.mark[s] = m;
}

/** A cash flow (or a flow in kind) closes the current TWR sub-period, valued just before it. */
function applyFlow(ctx: Context, amount: number): void {
  const { syms, st, ist } = ctx;
  const v = st[TC] + st[FC] + valueActive(syms, st, ist[N_ACTIVE]);
  if (st[BASE] > 0) {
    const f = v / st[BASE];
    // A sub-period cannot lose more than its capital: the chain is bounded at −100 %.
    if (f < 0) st[BOUNDED] = 1;
    st[LINK] *= f < 0 ? 0 : f;
  } else if (st[ANY_BASE] === 1) st[SKIPPED]++;
  st[FC] += amount;
  if (ist[DAY] < ctx.curve.flow.length) ctx.curve.flow[ist[DAY]] += amount;
  st[BASE] = v + amount;
  if (st[BASE] > 0) st[ANY_BASE] = 1;
}

function inKindFlow(ctx: Context, t: number, amount: number): void {
  applyFlow(ctx, amount);
  ctx.inKindTime.push(t);
  ctx.inKindAmount.push(amount);
}

/** The curve point of the day that ends now: values exactly (also re-bases the incremental PV). */
function samplePoint(syms: Symbols, curve: Curve, st: Float64Array, ist: Int32Array): void {
  const i = ist[DAY]++;
  st[PV] = valueActive(syms, st, ist[N_ACTIVE]);
  const cash = st[TC] + st[FC];
  const eq = cash + st[PV];
  curve.cash[i] = cash;
  curve.value[i] = st[PV];
  const idx = st[BASE] > 0 ? (st[LINK] * eq) / st[BASE] : st[LINK];
  if (idx < 0) st[BOUNDED] = 1;
  curve.index[i] = idx < 0 ? 0 : idx;
  curve.maxAbs[i] = st[MAX_ABS];
  // A trade happened since the last day end when the pass has moved past more trades since then.
  curve.active[i] = ist[TRADE_AT] > ist[LAST_SAMPLED_TRADE] || st[OPEN_AT_START] === 1 ? 1 : 0;
  ist[LAST_SAMPLED_TRADE] = ist[TRADE_AT];
  // Money at risk, not a position worth nothing (an airdrop valued at 0): idle days are no evidence.
  st[OPEN_AT_START] = st[GROSS] > 0 ? 1 : 0;
  const { active, qty, mark, cls } = syms;
  for (let a = 0; a < ist[N_ACTIVE]; a++) {
    const s = active[a];
    curve.classExposure[cls[s]] += Math.abs(qty[s] * mark[s]);
  }
  st[NEXT_BOUNDARY] = curve.dayStart[i + 2] ?? Infinity;
}

/** Σ symbol quantity × mark over the active symbols; st[MAX_ABS] receives the largest |value|, st[GROSS] the sum of |value|. */
function valueActive(syms: Symbols, st: Float64Array, nActive: number): number {
  const { active, qty, mark } = syms;
  let v = 0;
  let maxAbs = 0;
  let gross = 0;
  for (let a = 0; a < nActive; a++) {
    const s = active[a];
    const x = qty[s] * mark[s];
    v += x;
    const ax = x < 0 ? -x : x;
    gross += ax;
    if (ax > maxAbs) maxAbs = ax;
  }
  st[MAX_ABS] = maxAbs;
  st[GROSS] = gross;
  return v;
}

// ---------------------------------------------------------------------------------------------
// Events. Rare next to trades, so written for clarity: each leaves the book consistent and
// re-values the positions exactly.

function applyEvent(ctx: Context, e: PreparedEvent): void {
  const { st } = ctx;
  switch (e.kind) {
    case EV_INCOME:
      st[TC] += e.x;
      st[INCOME] += e.x;
      break;
    case EV_FEE: {
      st[FEES] += e.x;
      st[ACCOUNT_FEES] += e.x;
      const cash = (st[TC] -= e.x);
      if (cash < st[MIN_CASH]) st[MIN_CASH] = cash;
      if (cash + st[FC] + st[MARGIN] < 0) st[NEG_CASH] = 1;
      break;
    }
    case EV_SPLIT:
      split(ctx, e);
      break;
    case EV_RENAME:
      rename(ctx, e);
      break;
    case EV_SPINOFF:
      spinoff(ctx, e);
      break;
    case EV_TRANSFER:
      transfer(ctx, e);
      break;
    case EV_FXRATE:
      rateChange(ctx, e);
      break;
    case EV_FXPNL:
      fxCash(st, e.x);
      break;
  }
  st[PV] = valueActive(ctx.syms, st, ctx.ist[N_ACTIVE]);
}

/** FX P&L into cash (activity cash, like income: never a flow). */
function fxCash(st: Float64Array, x: number): void {
  st[FX_PNL] += x;
  const cash = (st[TC] += x);
  if (cash < st[MIN_CASH]) st[MIN_CASH] = cash;
  if (cash + st[FC] + st[MARGIN] < 0) st[NEG_CASH] = 1;
}

/**
 * A currency's rate changes: its symbols' marks (in the base) move by new ÷ old rate, its cash
 * balance is re-valued (e.x, computed by fx.ts); what that adds to the equity is the currency's
 * part of the return at this instant (docs/GRADING.md §5).
 */
function rateChange(ctx: Context, e: PreparedEvent): void {
  const { syms, st, ist } = ctx;
  const symCur = ctx.c.symCur!;
  const before = st[TC] + st[FC] + valueActive(syms, st, ist[N_ACTIVE]);
  let gain = e.x;
  for (let s = 0; s < symCur.length; s++) {
    if (symCur[s] !== e.acc) continue;
    const m = syms.mark[s];
    if (m !== m) continue;
    gain += syms.qty[s] * m * (e.y - 1);
    setMark(syms, st, s, m * e.y);
    syms.trusted[s] *= e.y;
  }
  fxCash(st, e.x);
  ctx.fxEquity.push(before);
  ctx.fxGain.push(gain);
}

function eventName(ctx: Context, e: PreparedEvent): string {
  return `event ${ctx.c.events[e.src].id}`;
}

/** The position of (account, symbol), created when the ledger never had it. */
function posOf(book: Book, acc: number, sym: number): number {
  if (book.posIndex === null) {
    book.posIndex = new Map();
    for (let p = 0; p < book.nPos; p++) book.posIndex.set(book.posAcc[p] * book.nSym + book.posSym[p], p);
  }
  const key = acc * book.nSym + sym;
  let p = book.posIndex.get(key);
  if (p === undefined) {
    p = book.nPos++;
    book.posIndex.set(key, p);
    book.posAcc[p] = acc;
    book.posSym[p] = sym;
  }
  return p;
}

/** Positions of a symbol (optionally in one account) that hold something. */
function openPositionsOf(book: Book, sym: number, acc = -1): number[] {
  const out: number[] = [];
  for (let p = 0; p < book.nPos; p++) {
    if (book.posSym[p] === sym && (acc < 0 || book.posAcc[p] === acc) && book.head[p] >= 0) out.push(p);
  }
  return out;
}

/** Sets a position's quantity and keeps the symbol's quantity, open count and the active list in step. */
function setPosQty(ctx: Context, p: number, q: number): void {
  const { book, syms, ist } = ctx;
  const s = book.posSym[p];
  const before = book.posQty[p];
  if (before === q) return;
  book.posQty[p] = q;
  if (before === 0) syms.open[s]++;
  if (q === 0) syms.open[s]--;
  syms.qty[s] = syms.open[s] === 0 ? 0 : syms.qty[s] + (q - before);
  if (syms.open[s] > 0 && syms.activeAt[s] < 0) {
    syms.activeAt[s] = ist[N_ACTIVE];
    syms.active[ist[N_ACTIVE]++] = s;
  } else if (syms.open[s] === 0 && syms.activeAt[s] >= 0) {
    const at = syms.activeAt[s];
    const last = syms.active[--ist[N_ACTIVE]];
    syms.active[at] = last;
    syms.activeAt[last] = at;
    syms.activeAt[s] = -1;
  }
}

function newLot(book: Book, rem: number, price: number, feePU: number, openTime: number): number {
  if (book.free >= 0) {
    const L = book.free;
    book.free = book.next[L];
    return setLot(book, L, rem, price, feePU, openTime);
  }
  if ((book.lotTop + 1 + book.tradesLeft) * LOT_FIELDS > book.lots.length) {
    const cap = Math.ceil((book.lotTop + 1 + book.tradesLeft) * 1.5) + 16;
    const lots = new Float64Array(cap * LOT_FIELDS);
    lots.set(book.lots);
    const next = new Int32Array(cap).fill(-1);
    next.set(book.next);
    book.lots = lots;
    book.next = next;
  }
  return setLot(book, book.lotTop++, rem, price, feePU, openTime);
}

function setLot(book: Book, L: number, rem: number, price: number, feePU: number, openTime: number): number {
  const o = L * LOT_FIELDS;
  book.lots[o + LOT_REM] = rem;
  book.lots[o + LOT_PRICE] = price;
  book.lots[o + LOT_FEE_PU] = feePU;
  book.lots[o + LOT_TIME] = openTime;
  book.next[L] = -1;
  return L;
}

/** Merges a chain of lots (linked by next, ending at -1) into position p's list by open time (existing lots first on ties). */
function mergeLots(book: Book, p: number, chain: number): void {
  const { lots, next } = book;
  let a = book.head[p];
  let b = chain;
  let h = -1;
  let t = -1;
  while (a >= 0 || b >= 0) {
    let take: number;
    if (b < 0 || (a >= 0 && lots[a * LOT_FIELDS + LOT_TIME] <= lots[b * LOT_FIELDS + LOT_TIME])) {
      take = a;
      a = next[a];
    } else {
      take = b;
      b = next[b];
    }
    if (t < 0) h = take;
    else next[t] = take;
    t = take;
  }
  if (t >= 0) next[t] = -1;
  book.head[p] = h;
  book.tail[p] = t;
}

/** Moves the round trip in progress of position `from` into `to` (which is flat, or joins it). */
function moveRoundTrip(book: Book, from: number, to: number, toWasFlat: boolean): void {
  const a = from * RT_FIELDS;
  const b = to * RT_FIELDS;
  for (let i = 0; i < 4; i++) {
    book.rtAcc[b + i] += book.rtAcc[a + i];
    book.rtAcc[a + i] = 0;
  }
  if (toWasFlat) copyOpening(book, from, to);
}

/** A round trip's opening figures (equity before it, time, side) carried to another position. */
function copyOpening(book: Book, from: number, to: number): void {
  for (let i = RT_OPEN_FIRST; i < RT_FIELDS; i++) book.rtAcc[to * RT_FIELDS + i] = book.rtAcc[from * RT_FIELDS + i];
}

function scaleLots(book: Book, p: number, ratio: number): void {
  for (let L = book.head[p]; L >= 0; L = book.next[L]) {
    const o = L * LOT_FIELDS;
    book.lots[o + LOT_REM] *= ratio;
    book.lots[o + LOT_PRICE] /= ratio;
    book.lots[o + LOT_FEE_PU] /= ratio;
  }
  // Holding-time weights are quantity-weighted: scale both so their ratio stays.
  book.rtAcc[p * RT_FIELDS + 1] *= ratio;
  book.rtAcc[p * RT_FIELDS + 2] *= ratio;
}

/** A split: open lots' quantity × ratio and price ÷ ratio; the symbol's price ÷ ratio (once per instant). */
function split(ctx: Context, e: PreparedEvent): void {
  const { book, syms } = ctx;
  for (const p of openPositionsOf(book, e.sym, e.acc)) {
    scaleLots(book, p, e.x);
    setPosQty(ctx, p, book.posQty[p] * e.x);
  }
  if (syms.actionAt[e.sym] !== e.time) {
    syms.actionAt[e.sym] = e.time;
    syms.mark[e.sym] /= e.x;
    syms.trusted[e.sym] /= e.x;
  }
}

/** A ticker change or merger: every account's lots of `from` become lots of `to` (ratio new per old), with cost and dates. */
function rename(ctx: Context, e: PreparedEvent): void {
  const { book, syms } = ctx;
  if (e.sym === e.sym2 && e.x === 1) return;
  for (const p of openPositionsOf(book, e.sym)) {
    const acc = book.posAcc[p];
    const to = posOf(book, acc, e.sym2);
    const q = book.posQty[p];
    const qTo = book.posQty[to];
    if (qTo !== 0 && Math.sign(qTo) !== Math.sign(q)) {
      ctx.warnings.push(
        `${eventName(ctx, e)}: account ${ctx.c.accounts[acc]} holds ${ctx.c.symbols[e.sym2]} on the other side; the rename was not applied there.`,
      );
      continue;
    }
    scaleLots(book, p, e.x);
    const chain = book.head[p];
    book.head[p] = -1;
    book.tail[p] = -1;
    mergeLots(book, to, chain);
    moveRoundTrip(book, p, to, qTo === 0);
    setPosQty(ctx, p, 0);
    setPosQty(ctx, to, qTo + q * e.x);
  }
  if (Number.isNaN(syms.mark[e.sym2]) || syms.qty[e.sym2] === 0 || syms.actionAt[e.sym2] !== e.time) {
    // The new name's price is the old one's per new unit unless it has a price of its own.
    if (Number.isNaN(syms.mark[e.sym2])) syms.mark[e.sym2] = syms.mark[e.sym] / e.x;
    if (Number.isNaN(syms.trusted[e.sym2])) syms.trusted[e.sym2] = syms.trusted[e.sym] / e.x;
    syms.actionAt[e.sym2] = e.time;
  }
}

/**
 * A spin-off: each long lot of `symbol` gives a lot of `newSymbol` (ratio per old unit) carrying
 * costFraction of its cost and its open date. The old price keeps (1 − costFraction) of its value
 * and the new symbol, until it has a price of its own, is valued at the rest: equity is unchanged.
 */
function spinoff(ctx: Context, e: PreparedEvent): void {
  const { book, syms } = ctx;
  const cf = e.y;
  for (const p of openPositionsOf(book, e.sym)) {
    const acc = book.posAcc[p];
    if (book.posQty[p] < 0) {
      ctx.warnings.push(
        `${eventName(ctx, e)}: account ${ctx.c.accounts[acc]} is short ${ctx.c.symbols[e.sym]}; the spin-off was not applied there.`,
      );
      continue;
    }
    const to = posOf(book, acc, e.sym2);
    const qTo = book.posQty[to];
    if (qTo < 0) {
      ctx.warnings.push(
        `${eventName(ctx, e)}: account ${ctx.c.accounts[acc]} is short ${ctx.c.symbols[e.sym2]}; the spin-off was not applied there.`,
      );
      continue;
    }
    let h = -1;
    let t = -1;
    let added = 0;
    for (let L = book.head[p]; L >= 0; L = book.next[L]) {
      const o = L * LOT_FIELDS;
      const rem = book.lots[o + LOT_REM];
      const J = newLot(
        book,
        rem * e.x,
        (book.lots[o + LOT_PRICE] * cf) / e.x,
        (book.lots[o + LOT_FEE_PU] * cf) / e.x,
        book.lots[o + LOT_TIME],
      );
      book.lots[o + LOT_PRICE] *= 1 - cf;
      book.lots[o + LOT_FEE_PU] *= 1 - cf;
      added += rem * e.x;
      if (t < 0) h = J;
      else book.next[t] = J;
      t = J;
    }
    mergeLots(book, to, h);
    // The new holding's round trip starts with the old one's.
    if (qTo === 0) copyOpening(book, p, to);
    setPosQty(ctx, to, qTo + added);
  }
  if (syms.actionAt[e.sym] !== e.time) {
    syms.actionAt[e.sym] = e.time;
    const m = syms.mark[e.sym];
    if (Number.isNaN(syms.mark[e.sym2])) syms.mark[e.sym2] = (m * cf) / e.x;
    syms.mark[e.sym] = m * (1 - cf);
    const r = syms.trusted[e.sym];
    if (Number.isNaN(syms.trusted[e.sym2])) syms.trusted[e.sym2] = (r * cf) / e.x;
    syms.trusted[e.sym] = r * (1 - cf);
  }
}

/**
 * A transfer between the trader's own accounts: the oldest lots move with their cost and dates; no
 * P&L, no flow. A wrapping one (sym2, y units per unit sent) turns them into another symbol on the way.
 */
function transfer(ctx: Context, e: PreparedEvent): void {
  const { book, syms } = ctx;
  const sym2 = e.sym2 >= 0 ? e.sym2 : e.sym;
  const ratio = e.sym2 >= 0 ? e.y : 1;
  const from = posOf(book, e.acc, e.sym);
  const to = posOf(book, e.acc2, sym2);
  const want = e.x;
  const tol = want * DUST;
  const held = book.posQty[from];
  const qTo = book.posQty[to];
  if (from === to) return;
  if (held <= 0 || qTo < 0) {
    ctx.warnings.push(
      `${eventName(ctx, e)} moves ${fmt(want)} ${ctx.c.symbols[e.sym]} from account ${ctx.c.accounts[e.acc]}, which ${held <= 0 ? "holds none" : `sends them to a short position in ${ctx.c.accounts[e.acc2]}`}; it was ignored.`,
    );
    return;
  }
  let remaining = want;
  let h = -1;
  let t = -1;
  let L = book.head[from];
  while (L >= 0 && remaining > 0) {
    const o = L * LOT_FIELDS;
    const r = book.lots[o + LOT_REM];
    const nextL = book.next[L];
    let moved: number;
    if (r <= remaining + tol) {
      moved = L; // the whole lot moves
      remaining -= r;
      book.next[L] = -1;
      L = nextL;
    } else {
      moved = newLot(book, remaining, book.lots[o + LOT_PRICE], book.lots[o + LOT_FEE_PU], book.lots[o + LOT_TIME]);
      book.lots[o + LOT_REM] = r - remaining;
      remaining = 0;
    }
    if (remaining <= tol) remaining = 0;
    if (t < 0) h = moved;
    else book.next[t] = moved;
    t = moved;
  }
  book.head[from] = L;
  if (L < 0) book.tail[from] = -1;
  let movedQty = 0;
  for (let x = h; x >= 0; x = book.next[x]) movedQty += book.lots[x * LOT_FIELDS + LOT_REM];
  if (remaining > 0) {
    ctx.warnings.push(
      `${eventName(ctx, e)} moves ${fmt(want)} ${ctx.c.symbols[e.sym]} but account ${ctx.c.accounts[e.acc]} held ${fmt(held)}; the excess was ignored.`,
    );
  }
  if (ratio !== 1) {
    // Wrapped 1:ratio: the same cost spread over the units that arrive.
    for (let x = h; x >= 0; x = book.next[x]) {
      const o = x * LOT_FIELDS;
      book.lots[o + LOT_REM] *= ratio;
      book.lots[o + LOT_PRICE] /= ratio;
      book.lots[o + LOT_FEE_PU] /= ratio;
    }
  }
  mergeLots(book, to, h);
  if (L < 0) {
    // Everything moved: the round trip in progress continues in the destination account.
    if (ratio !== 1) {
      book.rtAcc[from * RT_FIELDS + 1] *= ratio;
      book.rtAcc[from * RT_FIELDS + 2] *= ratio;
    }
    moveRoundTrip(book, from, to, qTo === 0);
    setPosQty(ctx, from, 0);
  } else {
    if (qTo === 0) copyOpening(book, from, to);
    setPosQty(ctx, from, held - movedQty);
  }
  setPosQty(ctx, to, qTo + movedQty * ratio);
  // The wrapped symbol is worth the original per unit until it has a price of its own.
  if (sym2 !== e.sym) {
    if (Number.isNaN(syms.mark[sym2])) syms.mark[sym2] = syms.mark[e.sym] / ratio;
    if (Number.isNaN(syms.trusted[sym2])) syms.trusted[sym2] = syms.trusted[e.sym] / ratio;
  }
}

function fmt(x: number): string {
  return String(Number(x.toPrecision(12)));
}
