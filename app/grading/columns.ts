// The prepared ledger: the columnar form of a validated ledger that grade() works on. Typed
// arrays sized up front, strings interned into integer ids, trades sorted by (time, id) and cut at
// asOf. Preparing is the only step that reads the trade objects; it belongs to parsing (one pass
// over the input, like validation), so a ledger graded several times is prepared once.
import type { AssetClass, Ledger } from "./ledger";
import { fresh, scratch, scratchRaw } from "./scratch";
import { compareStrings, sortIndexByTime } from "./sort";
import { parseIsoMs, formatIso } from "./time";

/** An asset class's column code: its index in ASSET_CLASSES. */
export const CLASS_CODES = { stock: 0, etf: 1, crypto: 2, option: 3 } as const satisfies Record<AssetClass, number>;
export const CRYPTO = 2;

/** Trade rows that are not trades: units arriving from or leaving to outside (ledger v2 receive/send). */
export const ROW_TRADE = 0;
export const ROW_RECEIVE = 1;
export const ROW_SEND = 2;

/** Event kinds the pass handles between trades, with their rank among items at one instant. */
export const EV_INCOME = 0;
export const EV_FEE = 1;
export const EV_SPLIT = 2;
export const EV_RENAME = 3;
export const EV_SPINOFF = 4;
export const EV_TRANSFER = 5;
const EV_RANK = [2, 2, 3, 3, 3, 4];
const EV_CODES: Record<string, number> = {
  income: EV_INCOME,
  fee: EV_FEE,
  split: EV_SPLIT,
  rename: EV_RENAME,
  spinoff: EV_SPINOFF,
  transfer: EV_TRANSFER,
};

/** A ledger event other than receive/send, decoded (strings interned); -1 where a field is absent. */
export interface PreparedEvent {
  time: number;
  kind: number;
  /** Index in ledger.events. */
  src: number;
  /** account (income, fee, split) or from-account (transfer). */
  acc: number;
  /** to-account (transfer). */
  acc2: number;
  /** symbol, or from-symbol (rename). */
  sym: number;
  /** to-symbol (rename) or newSymbol (spinoff). */
  sym2: number;
  /** amount (income, fee), ratio (split, rename, spinoff), quantity (transfer). */
  x: number;
  /** costFraction (spinoff). */
  y: number;
}

export interface PreparedLedger {
  readonly kind: "prepared";
  /** The validated ledger it was prepared from (trade ids, names for warnings). */
  trades: Ledger["trades"];
  /** Its events (receive/send rows of the trade columns point here: src ≥ trades.length). */
  events: Ledger["events"];
  /** Trades at or before asOf, in (time, id) order. */
  n: number;
  time: Float64Array;
  qty: Float64Array;
  price: Float64Array;
  fee: Float64Array;
  /** +1 buy, -1 sell */
  dir: Int8Array;
  cls: Uint8Array;
  sym: Int32Array;
  acc: Int32Array;
  /** Dense id of (account, symbol). */
  pos: Int32Array;
  /** Index of the trade in ledger.trades, or trades.length + index in ledger.events (receive/send). */
  src: Uint32Array;
  /** ROW_TRADE, ROW_RECEIVE or ROW_SEND. */
  row: Uint8Array;
  symbols: string[];
  /** Asset class code of each symbol (its first trade's, or the receive's, or inherited through a rename or spin-off). */
  symCls: Uint8Array;
  accounts: string[];
  posSym: Int32Array;
  posAcc: Int32Array;
  nPos: number;
  /** Cash flows at or before asOf, sorted by (time, account, amount). */
  flowTime: Float64Array;
  flowAmount: Float64Array;
  /** Price marks at or before asOf for traded symbols, sorted by (time, symbol, price). */
  markTime: Float64Array;
  markSym: Int32Array;
  markPrice: Float64Array;
  /** Events other than receive/send at or before asOf, in instant order (see sortEvents). */
  ev: PreparedEvent[];
  /** Receive and send events at or before asOf (deposits and withdrawals in kind). */
  receives: number;
  sends: number;
  /** Benchmark closes in time order (empty without a benchmark). */
  benchSymbol: string | null;
  benchTime: Float64Array;
  benchPrice: Float64Array;
  asOfMs: number;
  asOf: string | null;
  /** Earliest trade or cash flow at or before asOf (NaN when none). */
  firstMs: number;
  excludedTrades: number;
  excludedFlows: number;
  excludedEvents: number;
}

function bad(path: string): never {
  throw new Error(`grade(): ${path} is not a valid time; validate the ledger with parseLedger first`);
}

/** Benchmark closes, in time order (all of them: they are carried forward up to asOf). */
function benchColumns(bench: Ledger["benchmark"]) {
  const order = bench
    ? bench.prices.map((p, i) => ({ t: parseIsoMs(p.time), p: p.price, i })).sort((a, b) => a.t - b.t || a.i - b.i)
    : [];
  return {
    benchSymbol: bench ? bench.symbol : null,
    benchTime: Float64Array.from(order, (x) => x.t),
    benchPrice: Float64Array.from(order, (x) => x.p),
  };
}

/**
 * A prepared ledger with another benchmark: what preparing the ledger with it gives, without
 * preparing its trades again (the server picks the benchmark from the prepared ledger's exposure).
 */
export function withBenchmarkColumns(c: PreparedLedger, benchmark: Ledger["benchmark"]): PreparedLedger {
  return { ...c, ...benchColumns(benchmark) };
}

/**
 * Prepares a validated ledger (the output of parseLedger) for grade(). O(n) for ledgers in time
 * order. With `transient`, the arrays are the engine's scratch (see scratch.ts): valid only until
 * the next grade, but no fresh memory (grade() uses it for a ledger it prepares itself).
 */
export function prepareLedger(ledger: Ledger, transient = false): PreparedLedger {
  // Typed arrays the result keeps: its own, or scratch.
  const alloc: typeof scratchRaw = transient ? scratchRaw : (_slot, kind, n) => fresh(kind, n);
  const trades = ledger.trades;
  const flows = ledger.cashFlows ?? [];
  const marks = ledger.prices ?? [];
  const events = ledger.events ?? [];
  const nT = trades.length;
  // Receive/send events are rows of the trade columns (a buy or sell at `price` with a flow in kind).
  const inKind: number[] = [];
  for (let i = 0; i < events.length; i++) if (events[i].kind === "receive" || events[i].kind === "send") inKind.push(i);
  const n0 = nT + inKind.length;

  // One pass over the trade objects, in input order. Input already in instant order is kept as it is.
  const t0 = alloc("t0", "f64", n0);
  const sym0 = alloc("sym0", "i32", n0);
  const acc0 = alloc("acc0", "i32", n0);
  const qty0 = alloc("qty0", "f64", n0);
  const price0 = alloc("price0", "f64", n0);
  const fee0 = alloc("fee0", "f64", n0);
  const dir0 = alloc("dir0", "i8", n0);
  const cls0 = alloc("cls0", "u8", n0);
  // Null-prototype dictionaries: faster than Map for string keys here, and safe for any name.
  const symIds: Record<string, number> = Object.create(null);
  const accIds: Record<string, number> = Object.create(null);
  const symbols: string[] = [];
  const accounts: string[] = [];
  const internSym = (name: string) => {
    let id = symIds[name];
    if (id === undefined) {
      id = symbols.length;
      symIds[name] = id;
      symbols.push(name);
    }
    return id;
  };
  const internAcc = (name: string) => {
    let id = accIds[name];
    if (id === undefined) {
      id = accounts.length;
      accIds[name] = id;
      accounts.push(name);
    }
    return id;
  };
  // st[0]: latest time seen; st[1]: epoch ms of the cached "YYYY-MM-DDTHH:" prefix.
  const st = new Float64Array(2);
  st[0] = -Infinity;
  const badAt = ingest(
    trades,
    nT,
    t0,
    sym0,
    acc0,
    qty0,
    price0,
    fee0,
    dir0,
    cls0,
    symIds,
    symbols,
    accIds,
    accounts,
    st,
  );
  if (badAt >= 0) bad(`trades[${badAt}].time`);
  let maxMs = st[0];
  // Class of each symbol: its first trade's.
  const symClsL: number[] = [];
  for (let i = 0; i < nT; i++) if (symClsL[sym0[i]] === undefined) symClsL[sym0[i]] = cls0[i];

  // Events: times, names interned, receive/send appended to the trade columns.
  const evTime = new Float64Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const ms = parseIsoMs(events[i].time);
    if (ms !== ms) bad(`events[${i}].time`);
    evTime[i] = ms;
    if (ms > maxMs) maxMs = ms;
  }
  const seq0 = new Float64Array(n0).fill(Infinity);
  for (let i = 0; i < nT; i++) {
    const q = trades[i].seq;
    if (q !== undefined) seq0[i] = q;
  }
  const row0 = new Uint8Array(n0);
  for (let j = 0; j < inKind.length; j++) {
    const e = events[inKind[j]] as Extract<Ledger["events"][number], { kind: "receive" | "send" }>;
    const k = nT + j;
    t0[k] = evTime[inKind[j]];
    const s = internSym(e.symbol);
    sym0[k] = s;
    acc0[k] = internAcc(e.account);
    qty0[k] = e.quantity;
    price0[k] = e.price;
    fee0[k] = 0;
    dir0[k] = e.kind === "receive" ? 1 : -1;
    row0[k] = e.kind === "receive" ? ROW_RECEIVE : ROW_SEND;
    if (symClsL[s] === undefined && e.assetClass !== undefined) symClsL[s] = CLASS_CODES[e.assetClass];
  }
  const ev0: PreparedEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const kind = EV_CODES[e.kind];
    if (kind === undefined) continue; // receive/send: trade rows
    const pe: PreparedEvent = { time: evTime[i], kind, src: i, acc: -1, acc2: -1, sym: -1, sym2: -1, x: 0, y: 0 };
    switch (e.kind) {
      case "income":
        pe.acc = internAcc(e.account);
        if (e.symbol !== undefined) pe.sym = internSym(e.symbol);
        pe.x = e.amount;
        break;
      case "fee":
        pe.acc = internAcc(e.account);
        pe.x = e.amount;
        break;
      case "split":
        pe.sym = internSym(e.symbol);
        if (e.account !== undefined) pe.acc = internAcc(e.account);
        pe.x = e.ratio;
        break;
      case "rename":
        pe.sym = internSym(e.from);
        pe.sym2 = internSym(e.to);
        pe.x = e.ratio ?? 1;
        break;
      case "spinoff":
        pe.sym = internSym(e.symbol);
        pe.sym2 = internSym(e.newSymbol);
        pe.x = e.ratio;
        pe.y = e.costFraction;
        break;
      case "transfer":
        pe.acc = internAcc(e.from);
        pe.acc2 = internAcc(e.to);
        pe.sym = internSym(e.symbol);
        pe.x = e.quantity;
        break;
    }
    ev0.push(pe);
  }
  // Symbols that only events name inherit a class through renames and spin-offs (in time order),
  // else are crypto (a wallet's received token).
  const nSym = symbols.length;
  for (const e of [...ev0].sort((a, b) => a.time - b.time)) {
    if (
      (e.kind === EV_RENAME || e.kind === EV_SPINOFF) &&
      symClsL[e.sym2] === undefined &&
      symClsL[e.sym] !== undefined
    )
      symClsL[e.sym2] = symClsL[e.sym];
  }
  const symCls = new Uint8Array(nSym);
  for (let s = 0; s < nSym; s++) symCls[s] = symClsL[s] ?? CRYPTO;
  for (let k = nT; k < n0; k++) cls0[k] = symCls[sym0[k]];

  const ft0 = new Float64Array(flows.length);
  for (let i = 0; i < flows.length; i++) {
    const ms = parseIsoMs(flows[i].time);
    if (ms !== ms) bad(`cashFlows[${i}].time`);
    ft0[i] = ms;
    if (ms > maxMs) maxMs = ms;
  }
  const mt0 = scratchRaw("mt0", "f64", marks.length);
  for (let i = 0; i < marks.length; i++) {
    const ms = parseIsoMs(marks[i].time);
    if (ms !== ms) bad(`prices[${i}].time`);
    mt0[i] = ms;
    if (ms > maxMs) maxMs = ms;
  }

  let asOfMs: number;
  if (ledger.asOf !== undefined) {
    asOfMs = parseIsoMs(ledger.asOf);
    if (asOfMs !== asOfMs) bad("asOf");
  } else asOfMs = maxMs;
  const hasAsOf = Number.isFinite(asOfMs);

  // Trade rows in instant order (see compareRows), keeping those at or before asOf.
  const idOf = (i: number) => (i < nT ? trades[i].id : events[inKind[i - nT]].id);
  const order = sortIndexByTime(
    t0,
    (a, b) => compareRows(a, b, row0, seq0, dir0, idOf),
    hasAsOf ? (i) => t0[i] <= asOfMs : undefined,
    "sort.trades",
  );
  const n = order.length;
  const identity = n === n0 && isIdentity(order);

  let time = t0,
    sym = sym0,
    acc = acc0,
    qty = qty0,
    price = price0,
    fee = fee0,
    dir = dir0,
    cls = cls0,
    row = row0;
  if (!identity) {
    time = alloc("time", "f64", n);
    sym = alloc("sym", "i32", n);
    acc = alloc("acc", "i32", n);
    qty = alloc("qty", "f64", n);
    price = alloc("price", "f64", n);
    fee = alloc("fee", "f64", n);
    dir = alloc("dir", "i8", n);
    cls = alloc("cls", "u8", n);
    row = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const i = order[k];
      time[k] = t0[i];
      sym[k] = sym0[i];
      acc[k] = acc0[i];
      qty[k] = qty0[i];
      price[k] = price0[i];
      fee[k] = fee0[i];
      dir[k] = dir0[i];
      cls[k] = cls0[i];
      row[k] = row0[i];
    }
  }
  const src = transient ? order : order.slice(); // the sort's result is a scratch view
  if (nT < n0) for (let k = 0; k < n; k++) if (src[k] >= nT) src[k] = nT + inKind[src[k] - nT];

  // Dense (account, symbol) ids.
  const pos = alloc("pos", "i32", n);
  const posSymL: number[] = [];
  const posAccL: number[] = [];
  if (accounts.length * nSym <= 1 << 22) {
    const table = scratch("postable", "i32", accounts.length * nSym, -1);
    for (let k = 0; k < n; k++) {
      const key = acc[k] * nSym + sym[k];
      let p = table[key];
      if (p < 0) {
        p = table[key] = posSymL.length;
        posSymL.push(sym[k]);
        posAccL.push(acc[k]);
      }
      pos[k] = p;
    }
  } else {
    const table = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const key = acc[k] * nSym + sym[k];
      let p = table.get(key);
      if (p === undefined) {
        p = posSymL.length;
        table.set(key, p);
        posSymL.push(sym[k]);
        posAccL.push(acc[k]);
      }
      pos[k] = p;
    }
  }

  // Cash flows.
  const fOrder = sortIndexByTime(
    ft0,
    (a, b) => compareStrings(flows[a].account, flows[b].account) || flows[a].amount - flows[b].amount,
    hasAsOf ? (i) => ft0[i] <= asOfMs : undefined,
    "sort.flows",
  );
  const flowTime = new Float64Array(fOrder.length);
  const flowAmount = new Float64Array(fOrder.length);
  for (let k = 0; k < fOrder.length; k++) {
    flowTime[k] = ft0[fOrder[k]];
    flowAmount[k] = flows[fOrder[k]].amount;
  }

  // Price marks of the symbols the ledger holds at some point.
  const mOrder = sortIndexByTime(
    mt0,
    (a, b) => compareStrings(marks[a].symbol, marks[b].symbol) || marks[a].price - marks[b].price,
    (i) => (!hasAsOf || mt0[i] <= asOfMs) && symIds[marks[i].symbol] !== undefined,
    "sort.marks",
  );
  const markTime = alloc("markTime", "f64", mOrder.length);
  const markSym = alloc("markSym", "i32", mOrder.length);
  const markPrice = alloc("markPrice", "f64", mOrder.length);
  for (let k = 0; k < mOrder.length; k++) {
    const m = marks[mOrder[k]];
    markTime[k] = mt0[mOrder[k]];
    markSym[k] = symIds[m.symbol];
    markPrice[k] = m.price;
  }

  // Events at or before asOf, in instant order: time, then rank (income and fees; splits, renames
  // and spin-offs; transfers), then id.
  const ev = ev0.filter((e) => !hasAsOf || e.time <= asOfMs);
  ev.sort(
    (a, b) => a.time - b.time || EV_RANK[a.kind] - EV_RANK[b.kind] || compareIds(events[a.src].id, events[b.src].id),
  );
  let receives = 0;
  let sends = 0;
  if (nT < n0) {
    for (let k = 0; k < n; k++) {
      if (row[k] === ROW_RECEIVE) receives++;
      else if (row[k] === ROW_SEND) sends++;
    }
  }

  const { benchSymbol, benchTime, benchPrice } = benchColumns(ledger.benchmark);

  let firstMs = NaN;
  if (n > 0) firstMs = time[0];
  if (flowTime.length > 0 && !(flowTime[0] >= firstMs)) firstMs = flowTime[0];
  if (ev.length > 0 && !(ev[0].time >= firstMs)) firstMs = ev[0].time;

  return {
    kind: "prepared",
    trades,
    events,
    n,
    time,
    qty,
    price,
    fee,
    dir,
    cls,
    sym,
    acc,
    pos,
    src,
    row,
    symbols,
    symCls,
    accounts,
    posSym: Int32Array.from(posSymL),
    posAcc: Int32Array.from(posAccL),
    nPos: posSymL.length,
    flowTime,
    flowAmount,
    markTime,
    markSym,
    markPrice,
    ev,
    receives,
    sends,
    benchSymbol,
    benchTime,
    benchPrice,
    asOfMs,
    asOf: hasAsOf ? formatIso(asOfMs) : null,
    firstMs,
    excludedTrades: n0 - n,
    excludedFlows: flows.length - flowTime.length,
    excludedEvents: ev0.length - ev.length,
  };
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
  const ra = row[a] === ROW_TRADE ? 1 : 0;
  const rb = row[b] === ROW_TRADE ? 1 : 0;
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

/**
 * The hot loop over the trade objects, alone in its function so that V8 optimises it whole (a loop
 * inside a larger function is OSR-compiled and deoptimised on every call). Returns the index of
 * the first trade with an unreadable time, or -1.
 */
function ingest(
  trades: Ledger["trades"],
  n0: number,
  t0: Float64Array,
  sym0: Int32Array,
  acc0: Int32Array,
  qty0: Float64Array,
  price0: Float64Array,
  fee0: Float64Array,
  dir0: Int8Array,
  cls0: Uint8Array,
  symIds: Record<string, number>,
  symbols: string[],
  accIds: Record<string, number>,
  accounts: string[],
  st: Float64Array,
): number {
  // Cached "YYYY-MM-DDTHH" of the previous time, packed 7 bits per character (-1: none).
  let k1 = -1;
  let k2 = -1;
  let k3 = -1;
  for (let i = 0; i < n0; i++) {
    const tr = trades[i];
    const ts = tr.time;
    let ms: number;
    // Consecutive trades usually share the date and hour: for "YYYY-MM-DDTHH:MM:SS.sssZ" whose date
    // and hour match the previous one, only minutes, seconds and milliseconds are read.
    if (ts.length === 24 && ts.charCodeAt(23) === 90) {
      const a1 = ts.charCodeAt(0) | (ts.charCodeAt(1) << 7) | (ts.charCodeAt(2) << 14) | (ts.charCodeAt(3) << 21);
      const a2 = ts.charCodeAt(5) | (ts.charCodeAt(6) << 7) | (ts.charCodeAt(8) << 14) | (ts.charCodeAt(9) << 21);
      const a3 = ts.charCodeAt(11) | (ts.charCodeAt(12) << 7);
      if (a1 === k1 && a2 === k2 && a3 === k3) {
        ms = st[1] + tailMs(ts);
        if (ms !== ms) ms = parseIsoMs(ts);
      } else {
        ms = parseIsoMs(ts);
        const tail = tailMs(ts);
        if (ms === ms && tail === tail) {
          k1 = a1;
          k2 = a2;
          k3 = a3;
          st[1] = ms - tail;
        }
      }
    } else ms = parseIsoMs(ts);
    if (ms !== ms) return i;
    t0[i] = ms;
    if (ms > st[0]) st[0] = ms;
    const s = tr.symbol;
    let sid = symIds[s];
    if (sid === undefined) {
      sid = symbols.length;
      symIds[s] = sid;
      symbols.push(s);
    }
    sym0[i] = sid;
    const a = tr.account;
    let aid = accIds[a];
    if (aid === undefined) {
      aid = accounts.length;
      accIds[a] = aid;
      accounts.push(a);
    }
    acc0[i] = aid;
    qty0[i] = tr.quantity;
    price0[i] = tr.price;
    fee0[i] = tr.fee ?? 0;
    dir0[i] = tr.side === "buy" ? 1 : -1;
    const ac = tr.assetClass;
    cls0[i] = ac === "stock" ? 0 : ac === "etf" ? 1 : ac === "crypto" ? 2 : 3;
  }
  return -1;
}

/** Milliseconds of "MM:SS.sss" at offset 14 of "YYYY-MM-DDTHH:MM:SS.sssZ" from the hour; NaN if malformed. */
function tailMs(s: string): number {
  const a = s.charCodeAt(14) - 48;
  const b = s.charCodeAt(15) - 48;
  const c = s.charCodeAt(17) - 48;
  const d = s.charCodeAt(18) - 48;
  const e = s.charCodeAt(20) - 48;
  const f = s.charCodeAt(21) - 48;
  const g = s.charCodeAt(22) - 48;
  if ((a | b | c | d | e | f | g) & ~15 || a > 5 || b > 9 || c > 5 || d > 9 || e > 9 || f > 9 || g > 9) return NaN;
  if (s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46) return NaN;
  return ((a * 10 + b) * 60 + c * 10 + d) * 1000 + e * 100 + f * 10 + g;
}

function isIdentity(order: Uint32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}
