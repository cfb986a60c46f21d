// Each kind of item in instant order, keeping those at or before asOf (asOfMs not finite: all).
import {
  EV_RANK,
  isTradeRow,
  ROW_FEE,
  ROW_RECEIVE,
  ROW_SEND,
  ROW_THIN,
  ROW_TRADE,
  type PreparedEvent,
} from "../columns";
import { TRUSTED_CONFIDENCE, type Ledger } from "../ledger";
import { compareStrings, sortIndexByTime } from "../sort";
import type { Alloc, Names, Reading } from "./read";

/** Trade rows in instant order, cut at asOf. Columns as in PreparedLedger. */
export interface OrderedRows {
  n: number;
  time: Float64Array;
  sym: Int32Array;
  acc: Int32Array;
  qty: Float64Array;
  price: Float64Array;
  fee: Float64Array;
  dir: Int8Array;
  cls: Uint8Array;
  row: Uint8Array;
  src: Uint32Array;
}

/**
 * The trade rows in instant order (see compareRows), those at or before asOf. Rows already in
 * that order are kept as they are; `src` points each row back at its trade or event.
 */
export function orderTrades(ledger: Ledger, r: Reading, asOfMs: number, alloc: Alloc, transient: boolean): OrderedRows {
  const { trades } = ledger;
  const events = ledger.events ?? [];
  const rows = r.rows;
  const { nT, n0, inKind } = rows;
  const t0 = rows.time;
  const idOf = (i: number) => (i < nT ? trades[i].id : events[inKind[i - nT]].id);
  const order = sortIndexByTime(
    t0,
    (a, b) => compareRows(a, b, rows.row, rows.seq, rows.dir, idOf),
    Number.isFinite(asOfMs) ? (i) => t0[i] <= asOfMs : undefined,
    "sort.trades",
  );
  const n = order.length;
  let out: OrderedRows;
  if (n === n0 && isIdentity(order)) {
    const { time, sym, acc, qty, price, fee, dir, cls, row } = rows;
    out = { n, time, sym, acc, qty, price, fee, dir, cls, row, src: order };
  } else {
    out = {
      n,
      time: alloc("time", "f64", n),
      sym: alloc("sym", "i32", n),
      acc: alloc("acc", "i32", n),
      qty: alloc("qty", "f64", n),
      price: alloc("price", "f64", n),
      fee: alloc("fee", "f64", n),
      dir: alloc("dir", "i8", n),
      cls: alloc("cls", "u8", n),
      row: new Uint8Array(n),
      src: order,
    };
    gatherRows(rows, order, out);
  }
  // After the gather: when transient, src is the sort's result itself (a scratch view).
  const src = transient ? order : order.slice();
  if (nT < n0) for (let k = 0; k < n; k++) if (src[k] >= nT) src[k] = nT + inKind[src[k] - nT];
  out.src = src;
  return out;
}

/** Copies row order[k] of `from` into row k of `to`. */
function gatherRows(from: Reading["rows"], order: Uint32Array, to: OrderedRows): void {
  const { time, sym, acc, qty, price, fee, dir, cls, row } = from;
  const {
    time: time1,
    sym: sym1,
    acc: acc1,
    qty: qty1,
    price: price1,
    fee: fee1,
    dir: dir1,
    cls: cls1,
    row: row1,
  } = to;
  for (let k = 0; k < to.n; k++) {
    const i = order[k];
    time1[k] = time[i];
    sym1[k] = sym[i];
    acc1[k] = acc[i];
    qty1[k] = qty[i];
    price1[k] = price[i];
    fee1[k] = fee[i];
    dir1[k] = dir[i];
    cls1[k] = cls[i];
    row1[k] = row[i];
  }
}

/** Cash flows at or before asOf, sorted by (time, account, amount). */
export function orderFlows(flows: Ledger["cashFlows"], times: Float64Array, asOfMs: number) {
  const order = sortIndexByTime(
    times,
    (a, b) => compareStrings(flows[a].account, flows[b].account) || flows[a].amount - flows[b].amount,
    Number.isFinite(asOfMs) ? (i) => times[i] <= asOfMs : undefined,
    "sort.flows",
  );
  const flowTime = new Float64Array(order.length);
  const flowAmount = new Float64Array(order.length);
  for (let k = 0; k < order.length; k++) {
    flowTime[k] = times[order[k]];
    flowAmount[k] = flows[order[k]].amount;
  }
  return { flowTime, flowAmount };
}

/** Price marks at or before asOf of the symbols the ledger holds at some point, sorted by (time, symbol, price). */
export function orderMarks(marks: Ledger["prices"], times: Float64Array, asOfMs: number, names: Names, alloc: Alloc) {
  const hasAsOf = Number.isFinite(asOfMs);
  const { symIds } = names;
  const order = sortIndexByTime(
    times,
    (a, b) => compareStrings(marks[a].symbol, marks[b].symbol) || marks[a].price - marks[b].price,
    (i) => (!hasAsOf || times[i] <= asOfMs) && symIds[marks[i].symbol] !== undefined,
    "sort.marks",
  );
  const markTime = alloc("markTime", "f64", order.length);
  const markSym = alloc("markSym", "i32", order.length);
  const markPrice = alloc("markPrice", "f64", order.length);
  const markTrusted = alloc("markTrusted", "u8", order.length);
  for (let k = 0; k < order.length; k++) {
    const m = marks[order[k]];
    markTime[k] = times[order[k]];
    markSym[k] = symIds[m.symbol];
    markPrice[k] = m.price;
    markTrusted[k] = m.confidence !== undefined && m.confidence >= TRUSTED_CONFIDENCE ? 1 : 0;
  }
  return { markTime, markSym, markPrice, markTrusted };
}

/**
 * Events at or before asOf, in instant order: time, then rank (income and fees; splits, renames
 * and spin-offs; transfers), then id.
 */
export function orderEvents(ev0: PreparedEvent[], events: Ledger["events"], asOfMs: number): PreparedEvent[] {
  const hasAsOf = Number.isFinite(asOfMs);
  const ev = ev0.filter((e) => !hasAsOf || e.time <= asOfMs);
  ev.sort(
    (a, b) => a.time - b.time || EV_RANK[a.kind] - EV_RANK[b.kind] || compareIds(events[a.src].id, events[b.src].id),
  );
  return ev;
}

/**
 * How many of the kept rows are receives and sends (deposits and withdrawals in kind), fees paid and
 * income received in kind, and trades at a price not vouched for. `any`: some row is not a plain trade.
 */
export function countRowKinds(
  rows: OrderedRows,
  any: boolean,
): { receives: number; sends: number; inKindFees: number; inKindIncome: number; thinTrades: number } {
  let receives = 0;
  let sends = 0;
  let inKindFees = 0;
  let inKindIncome = 0;
  let thinTrades = 0;
  if (any) {
    for (let k = 0; k < rows.n; k++) {
      const row = rows.row[k];
      if (row === ROW_TRADE) continue;
      if (row === ROW_THIN) thinTrades++;
      else if (row === ROW_RECEIVE) receives++;
      else if (row === ROW_SEND) sends++;
      else if (row === ROW_FEE) inKindFees++;
      else inKindIncome++;
    }
  }
  return { receives, sends, inKindFees, inKindIncome, thinTrades };
}

/**
 * Order of trade rows at one instant (docs/GRADING.md §1): receives and sends first, then trades by
 * seq when given, buys before sells (a same-second buy-then-sell never reads as a short or a
 * gap), then by id (numerically when both are digits). A total order, so input order never matters.
 */
function compareRows(
  a: number,
  b: number,
  row: Uint8Array,
  seq: Float64Array,
  dir: Int8Array,
  idOf: (i: number) => string,
): number {
  const ra = isTradeRow(row[a]) ? 1 : 0;
  const rb = isTradeRow(row[b]) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  if (seq[a] !== seq[b]) return seq[a] < seq[b] ? -1 : 1;
  if (dir[a] !== dir[b]) return dir[b] - dir[a]; // buy (+1) first
  return compareIds(idOf(a), idOf(b));
}

const DIGITS = /^[0-9]+$/;

/** Ids that are all digits compare as numbers (any length), before other ids; the rest by code unit. */
export function compareIds(a: string, b: string): number {
  const da = DIGITS.test(a);
  const db = DIGITS.test(b);
  if (da !== db) return da ? -1 : 1;
  if (da) {
    const x = a.replace(/^0+(?=.)/, "");
    const y = b.replace(/^0+(?=.)/, "");
    if (x.length !== y.length) return x.length - y.length;
  }
  return compareStrings(a, b);
}

function isIdentity(order: Uint32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}
