// prepareLedger: a validated ledger into the columnar form grade() works on (columns.ts), in named
// phases: read every object once in input order (prepare/read.ts, prepare/events.ts), then keep
// what is at or before asOf in instant order (prepare/order.ts) and number the positions.
import { benchColumns, riskFreeColumns, type PreparedEvent, type PreparedLedger } from "./columns";
import { convertLedger, DEFAULT_BASE, needsFx } from "./fx";
import type { Ledger } from "./ledger";
import { anyExpiry, settleExpired } from "./prepare/expiry";
import { decodeEvents, readInKindRows, symbolClasses } from "./prepare/events";
import { countRowKinds, orderEvents, orderFlows, orderMarks, orderTrades } from "./prepare/order";
import { positionIds } from "./prepare/position-ids";
import { asOfMsOf, readTimes, readTrades, type Alloc } from "./prepare/read";
import { fresh, scratchRaw } from "./scratch";
import { formatIso, parseIsoMs } from "./time";

/**
 * Prepares a validated ledger (the output of parseLedger) for grade(). O(n) for ledgers in time
 * order. With `transient`, the arrays are the engine's scratch (see scratch.ts): valid only until
 * the next grade, but no fresh memory (grade() uses it for a ledger it prepares itself).
 */
export function prepareLedger(ledger: Ledger, transient = false): PreparedLedger {
  return prepareAny(ledger, transient, false);
}

/** prepareLedger; `settled`: contracts past their expiry were closed already. */
function prepareAny(ledger: Ledger, transient: boolean, settled: boolean): PreparedLedger {
  if (needsFx(ledger)) return prepareInBase(ledger, transient, settled);
  // A trade in another currency, or one with an expiry, is found while the trades are read (no pass of its own).
  const c = prepareColumns(ledger, transient, settled);
  if (c === EXPIRING) return prepareSettled(ledger, transient);
  return c === null ? prepareInBase(ledger, transient, settled) : c;
}

const EXPIRING = "expiring";

/** Contracts open past their expiry closed first (prepare/expiry.ts), then prepared as any ledger. */
function prepareSettled(ledger: Ledger, transient: boolean): PreparedLedger {
  const { ledger: settled, expired } = settleExpired(ledger);
  const c = prepareAny(settled, transient, true);
  return expired.length > 0 ? { ...c, expired } : c;
}

/**
 * The columns of a ledger all in one currency; null when a trade turns out to be in another,
 * EXPIRING when a trade names an expiry and the ledger was not settled yet.
 */
function prepareColumns(ledger: Ledger, transient: boolean, settled: boolean): PreparedLedger | null | typeof EXPIRING {
  // Typed arrays the result keeps: its own, or scratch.
  const alloc: Alloc = transient ? scratchRaw : (_slot, kind, n) => fresh(kind, n);
  const events = ledger.events ?? [];
  const flows = ledger.cashFlows ?? [];
  const marks = ledger.prices ?? [];

  // Every object read once, in input order; a bad time throws here, trades first, then asOf.
  const r = readTrades(ledger.trades, events, alloc, ledger.baseCurrency ?? DEFAULT_BASE);
  if (r.expiring && !settled) return EXPIRING;
  if (r.foreignTrade) return null;
  const evTime = readTimes(events, "events", new Float64Array(events.length), r);
  readInKindRows(events, evTime, r);
  const ev0 = decodeEvents(events, evTime, r);
  const symCls = symbolClasses(ev0, r);
  const flowTimes = readTimes(flows, "cashFlows", new Float64Array(flows.length), r);
  const markTimes = readTimes(marks, "prices", scratchRaw("mt0", "f64", marks.length), r);
  const asOfMs = asOfMsOf(ledger.asOf, r);

  // What is at or before asOf, in instant order.
  const rows = orderTrades(ledger, r, asOfMs, alloc, transient);
  const positions = positionIds(rows, r.names, alloc);
  const { flowTime, flowAmount } = orderFlows(flows, flowTimes, asOfMs);
  const { markTime, markSym, markPrice, markTrusted } = orderMarks(marks, markTimes, asOfMs, r.names, alloc);
  const ev = orderEvents(ev0, events, asOfMs);
  const { receives, sends, inKindFees, inKindIncome, thinTrades } = countRowKinds(
    rows,
    r.rows.nT < r.rows.n0 || r.thin,
  );
  const { benchSymbol, benchTime, benchPrice } = benchColumns(ledger.benchmark);
  const { rfSymbol, rfTime, rfRate } = riskFreeColumns(ledger.riskFree);

  return {
    kind: "prepared",
    trades: ledger.trades,
    events,
    n: rows.n,
    time: rows.time,
    qty: rows.qty,
    price: rows.price,
    fee: rows.fee,
    dir: rows.dir,
    cls: rows.cls,
    sym: rows.sym,
    acc: rows.acc,
    pos: positions.pos,
    src: rows.src,
    row: rows.row,
    symbols: r.names.symbols,
    symCls,
    accounts: r.names.accounts,
    posSym: positions.posSym,
    posAcc: positions.posAcc,
    nPos: positions.nPos,
    flowTime,
    flowAmount,
    markTime,
    markSym,
    markPrice,
    markTrusted,
    ev,
    receives,
    sends,
    inKindFees,
    inKindIncome,
    thinTrades,
    benchSymbol,
    benchTime,
    benchPrice,
    rfSymbol,
    rfTime,
    rfRate,
    asOfMs,
    asOf: Number.isFinite(asOfMs) ? formatIso(asOfMs) : null,
    firstMs: firstMsOf(rows.time, rows.n, flowTime, ev),
    excludedTrades: r.rows.n0 - rows.n,
    excludedFlows: flows.length - flowTime.length,
    excludedEvents: ev0.length - ev.length,
    // Only a ledger with contracts carries it: others keep their output as it was.
    ...(r.symMult !== null ? { symMult: r.symMult } : {}),
    ...(ledger.timeZone !== undefined && ledger.timeZone !== "UTC" ? { timeZone: ledger.timeZone } : {}),
  };
}

/**
 * A ledger with other currencies than its base (fx.ts): converted into the base, prepared, then
 * given the internal events (rate changes first at their instant) and each symbol's currency.
 */
function prepareInBase(ledger: Ledger, transient: boolean, settled: boolean): PreparedLedger {
  if (!settled && anyExpiry(ledger)) return prepareSettled(ledger, transient);
  const asOfMs = ledger.asOf !== undefined ? parseIsoMs(ledger.asOf) : latestMs(ledger);
  const conv = convertLedger(ledger, asOfMs);
  // asOf as the ledger has it (rows left out for want of a rate do not move it).
  const inBase = Number.isFinite(asOfMs) ? { ...conv.ledger, asOf: formatIso(asOfMs) } : conv.ledger;
  const c = prepareColumns(inBase, transient, true) as PreparedLedger;
  const extra = conv.events.filter((e) => !(e.time > c.asOfMs));
  const ev: PreparedEvent[] = [];
  let j = 0;
  for (const e of c.ev) {
    while (j < extra.length && extra[j].time <= e.time) ev.push(extra[j++]);
    ev.push(e);
  }
  while (j < extra.length) ev.push(extra[j++]);
  const symCur = new Int32Array(c.symbols.length).fill(-1);
  c.symbols.forEach((s, i) => {
    const k = conv.info.symbolCurrency.get(s);
    if (k !== undefined) symCur[i] = k;
  });
  return { ...c, ev, fx: conv.info, symCur };
}

/** The latest time in the ledger (trades, cash flows, prices, events): asOf's default. */
function latestMs(ledger: Ledger): number {
  let hi = -Infinity;
  const see = (items: readonly { time: string }[]) => {
    for (const x of items) {
      const t = parseIsoMs(x.time);
      if (t > hi) hi = t;
    }
  };
  see(ledger.trades);
  see(ledger.cashFlows ?? []);
  see(ledger.prices ?? []);
  see(ledger.events ?? []);
  return hi;
}

/** Earliest trade, cash flow or event kept (NaN when none). */
function firstMsOf(time: Float64Array, n: number, flowTime: Float64Array, ev: PreparedLedger["ev"]): number {
  let firstMs = NaN;
  if (n > 0) firstMs = time[0];
  if (flowTime.length > 0 && !(flowTime[0] >= firstMs)) firstMs = flowTime[0];
  if (ev.length > 0 && !(ev[0].time >= firstMs)) firstMs = ev[0].time;
  return firstMs;
}
