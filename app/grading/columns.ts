// The prepared ledger: the columnar form of a validated ledger that grade() works on. Typed
// arrays sized up front, strings interned into integer ids, trades sorted by (time, id) and cut at
// asOf. Preparing is the only step that reads the trade objects; it belongs to parsing (one pass
// over the input, like validation), so a ledger graded several times is prepared once.
import type { Ledger } from "./ledger";
import { fresh, scratch, scratchRaw } from "./scratch";
import { compareStrings, sortIndexByTime } from "./sort";
import { parseIsoMs, formatIso } from "./time";

export const CLASS_CODES = { stock: 0, etf: 1, crypto: 2, option: 3 } as const;
export const CLASS_NAMES = ["stock", "etf", "crypto", "option"] as const;
export const CRYPTO = 2;

export interface PreparedLedger {
  readonly kind: "prepared";
  /** The validated ledger it was prepared from (trade ids, names for warnings). */
  trades: Ledger["trades"];
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
  /** Index of the trade in ledger.trades. */
  src: Uint32Array;
  symbols: string[];
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
  asOfMs: number;
  asOf: string | null;
  /** Earliest trade or cash flow at or before asOf (NaN when none). */
  firstMs: number;
  excludedTrades: number;
  excludedFlows: number;
}

function bad(path: string): never {
  throw new Error(`grade(): ${path} is not a valid time; validate the ledger with parseLedger first`);
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
  const n0 = trades.length;

  // One pass over the trade objects, in input order. Input already in (time, id) order is kept as it is.
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
  // st[0]: latest time seen; st[1]: epoch ms of the cached "YYYY-MM-DDTHH:" prefix.
  const st = new Float64Array(2);
  st[0] = -Infinity;
  const badAt = ingest(trades, n0, t0, sym0, acc0, qty0, price0, fee0, dir0, cls0, symIds, symbols, accIds, accounts, st);
  if (badAt >= 0) bad(`trades[${badAt}].time`);
  let maxMs = st[0];
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

  // Trades: sort by (time, id), keep those at or before asOf.
  const order = sortIndexByTime(
    t0,
    (a, b) => compareStrings(trades[a].id, trades[b].id),
    hasAsOf ? (i) => t0[i] <= asOfMs : undefined,
    "sort.trades",
  );
  const n = order.length;
  const identity = n === n0 && isIdentity(order);

  let time = t0, sym = sym0, acc = acc0, qty = qty0, price = price0, fee = fee0, dir = dir0, cls = cls0;
  if (!identity) {
    time = alloc("time", "f64", n);
    sym = alloc("sym", "i32", n);
    acc = alloc("acc", "i32", n);
    qty = alloc("qty", "f64", n);
    price = alloc("price", "f64", n);
    fee = alloc("fee", "f64", n);
    dir = alloc("dir", "i8", n);
    cls = alloc("cls", "u8", n);
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
    }
  }

  // Dense (account, symbol) ids.
  const nSym = symbols.length;
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

  // Price marks of traded symbols.
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

  let firstMs = NaN;
  if (n > 0) firstMs = time[0];
  if (flowTime.length > 0 && !(flowTime[0] >= firstMs)) firstMs = flowTime[0];

  return {
    kind: "prepared",
    trades,
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
    src: transient ? order : order.slice(), // the sort's result is a scratch view
    symbols,
    accounts,
    posSym: Int32Array.from(posSymL),
    posAcc: Int32Array.from(posAccL),
    nPos: posSymL.length,
    flowTime,
    flowAmount,
    markTime,
    markSym,
    markPrice,
    asOfMs,
    asOf: hasAsOf ? formatIso(asOfMs) : null,
    firstMs,
    excludedTrades: n0 - n,
    excludedFlows: flows.length - flowTime.length,
  };
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
