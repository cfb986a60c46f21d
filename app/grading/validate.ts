// Fast path of parseLedger: checks a parsed ledger in place, without zod. zod's safeParse copies
// every object (a million trades: seconds and gigabytes); this pass only reads them, and writes
// zod's defaults (fee 0, rename ratio 1, numeric ids as strings, missing arrays as []) into the
// objects themselves. It answers only "valid, here is the ledger" or "not proven valid": on the
// second answer parseLedger runs the zod schema on the refused items (refusedItems), and zod stays
// the reference for what is valid and the only source of problem messages. Kept equal to
// LedgerSchema by validate.test.ts.
import type { Ledger } from "./ledger";
import { isIsoDate, isTimeZone, parseIsoMs } from "./time";

type Obj = Record<string, unknown>;

/**
 * The ledger zod's LedgerSchema would output for `value`, built in place (the arrays and item
 * objects are the input's own, an item carrying unknown keys is replaced in its array by a copy
 * without them, the root object is new), or null when `value` is not certainly valid. Mutates
 * `value` even when it returns null, but only by writing values zod would output in the same
 * place, so the zod schema gives the same answer on it afterwards.
 */
export function validateInPlace(value: unknown): Ledger | null {
  if (!isPlain(value) || isPromiseLike(value as Obj)) return null;
  const root = value as Obj;
  const out: Obj = {};
  if (root.asOf !== undefined) {
    if (!isTime(root.asOf)) return null;
    out.asOf = root.asOf;
  } else if ("asOf" in root) out.asOf = undefined;
  if (root.baseCurrency !== undefined) {
    if (!isCurrency(root.baseCurrency)) return null;
    out.baseCurrency = root.baseCurrency;
  } else if ("baseCurrency" in root) out.baseCurrency = undefined;
  if (root.timeZone !== undefined) {
    if (!isTimeZone(root.timeZone)) return null;
    out.timeZone = root.timeZone;
  } else if ("timeZone" in root) out.timeZone = undefined;

  const trades = root.trades;
  if (!Array.isArray(trades) || !checkTrades(trades)) return null;
  out.trades = trades;
  const cashFlows = root.cashFlows === undefined ? [] : root.cashFlows;
  if (!Array.isArray(cashFlows) || !checkCashFlows(cashFlows)) return null;
  out.cashFlows = cashFlows;
  const prices = root.prices === undefined ? [] : root.prices;
  if (!Array.isArray(prices) || !checkPrices(prices)) return null;
  out.prices = prices;
  const events = root.events === undefined ? [] : root.events;
  if (!Array.isArray(events) || !checkEvents(events)) return null;
  out.events = events;

  if (root.benchmark !== undefined) {
    const b = checkBenchmark(root.benchmark);
    if (b === null) return null;
    out.benchmark = b;
  } else if ("benchmark" in root) out.benchmark = undefined;
  if (root.riskFree !== undefined) {
    const f = checkRiskFree(root.riskFree);
    if (f === null) return null;
    out.riskFree = f;
  } else if ("riskFree" in root) out.riskFree = undefined;
  if (root.fxRates !== undefined) {
    const f = checkFxRates(root.fxRates);
    if (f === null) return null;
    out.fxRates = f;
  } else if ("fxRates" in root) out.fxRates = undefined;
  return out as Ledger;
}

// ---- primitives (the same tests as the zod types in ledger.ts) ----

/**
 * A plain object (prototype Object.prototype or null). zod takes for an object anything of type
 * "object" but null, arrays, Maps, Sets, Dates and promise-likes; this is stricter, which is safe:
 * anything else goes to zod.
 */
function isPlain(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** zod takes an object with a `then` and a `catch` function for a promise (checked at the root and where an object has unknown keys). */
function isPromiseLike(o: Obj): boolean {
  return typeof o.then === "function" && typeof o.catch === "function";
}

/** `text("…")`: a non-empty string. */
function isText(v: unknown): boolean {
  return typeof v === "string" && v.length > 0;
}

/** `num()`: a finite number (NaN and ±Infinity are refused). */
function isNum(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v);
}

function isTime(v: unknown): boolean {
  return typeof v === "string" && !Number.isNaN(parseIsoMs(v));
}

/** `currency()`: an ISO 4217 code (CURRENCY_RE in ledger.ts), tested without a regex. */
function isCurrency(v: unknown): boolean {
  if (typeof v !== "string" || v.length !== 3) return false;
  for (let k = 0; k < 3; k++) {
    const c = v.charCodeAt(k);
    if (c < 65 || c > 90) return false;
  }
  return true;
}

/** ASSET_CLASSES spelled out (validate.test.ts checks the two lists agree). */
function isAssetClass(v: unknown): boolean {
  return (
    v === "stock" || v === "etf" || v === "crypto" || v === "option" || v === "future" || v === "forex" || v === "cfd"
  );
}

/** `eventId` / a trade id: a non-empty string or a finite number; numbers become strings. */
function normaliseId(o: Obj): boolean {
  const id = o.id;
  if (typeof id === "string") return id.length > 0;
  if (!isNum(id)) return false;
  o.id = String(id);
  return true;
}

/** Number of enumerable keys, to detect keys zod would strip without allocating a key list. */
function keyCount(o: Obj): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** 1 when zod's output carries `key` (an optional key that is present, even as undefined). */
function has(o: Obj, key: string): number {
  return o[key] !== undefined || key in o ? 1 : 0;
}

/**
 * `o` when it has no keys beyond `keys`, else what zod outputs: a copy with only the known keys
 * that are present (zod sets a key when its value is defined or the key exists). null when `o`
 * is promise-like (a `then` and a `catch` function), which zod refuses as a non-object.
 */
function stripped(o: Obj, expected: number, keys: readonly string[]): Obj | null {
  if (keyCount(o) === expected) return o;
  if (isPromiseLike(o)) return null;
  const copy: Obj = {};
  for (const k of keys) if (o[k] !== undefined || k in o) copy[k] = o[k];
  return copy;
}

// ---- sections (each hot loop in a function of its own) ----

const TRADE_KEYS = [
  "id",
  "account",
  "time",
  "symbol",
  "assetClass",
  "side",
  "quantity",
  "price",
  "fee",
  "seq",
  "currency",
  "multiplier",
  "expiry",
  "confidence",
] as const;

/** Checks trades[i] (and writes its defaults, or replaces it by a copy without unknown keys). */
function checkTrade(items: unknown[], i: number): boolean {
  const t = items[i] as Obj;
  if (!isPlain(t)) return false;
  if (!normaliseId(t)) return false;
  if (!isText(t.account) || !isTime(t.time) || !isText(t.symbol) || !isAssetClass(t.assetClass)) return false;
  const side = t.side;
  if (side !== "buy" && side !== "sell") return false;
  const q = t.quantity;
  if (!isNum(q) || !((q as number) > 0)) return false;
  const p = t.price;
  if (!isNum(p) || !((p as number) >= 0)) return false;
  const fee = t.fee;
  if (fee === undefined) t.fee = 0;
  else if (!isNum(fee) || !((fee as number) >= 0)) return false;
  const seq = t.seq;
  let expected = 9;
  if (seq !== undefined) {
    if (!isNum(seq)) return false;
    expected = 10;
  } else if ("seq" in t) expected = 10;
  if (t.currency !== undefined) {
    if (!isCurrency(t.currency)) return false;
    expected++;
  } else if ("currency" in t) expected++;
  if (t.multiplier !== undefined) {
    const m = t.multiplier;
    if (!isNum(m) || !((m as number) > 0)) return false;
    expected++;
  } else if ("multiplier" in t) expected++;
  if (t.expiry !== undefined) {
    // NEVER_EXPIRE in ledger.ts: stocks, ETFs, coins and spot forex pairs carry no expiry.
    const c = t.assetClass;
    if (!isIsoDate(t.expiry) || c === "stock" || c === "etf" || c === "crypto" || c === "forex") return false;
    expected++;
  } else if ("expiry" in t) expected++;
  if (t.confidence !== undefined) {
    if (!isConfidence(t.confidence)) return false;
    expected++;
  } else if ("confidence" in t) expected++;
  const s = stripped(t, expected, TRADE_KEYS);
  if (s === null) return false;
  if (s !== t) items[i] = s;
  return true;
}

function checkTrades(items: unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!checkTrade(items, i)) return false;
  return true;
}

const FLOW_KEYS = ["account", "time", "amount", "currency"] as const;

function checkFlow(items: unknown[], i: number): boolean {
  const f = items[i] as Obj;
  if (!isPlain(f) || !isText(f.account) || !isTime(f.time) || !isNum(f.amount) || f.amount === 0) return false;
  if (!optional(f, "currency", isCurrency)) return false;
  const s = stripped(f, 3 + has(f, "currency"), FLOW_KEYS);
  if (s === null) return false;
  if (s !== f) items[i] = s;
  return true;
}

function checkCashFlows(items: unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!checkFlow(items, i)) return false;
  return true;
}

const PRICE_KEYS = ["symbol", "time", "price", "source", "confidence"] as const;
const isConfidence = (v: unknown) => isNum(v) && (v as number) >= 0 && (v as number) <= 1;

function checkPrice(items: unknown[], i: number): boolean {
  const p = items[i] as Obj;
  if (!isPlain(p) || !isText(p.symbol) || !isTime(p.time) || !isNum(p.price) || !((p.price as number) >= 0))
    return false;
  if (!optional(p, "source", isText) || !optional(p, "confidence", isConfidence)) return false;
  const s = stripped(p, 3 + has(p, "source") + has(p, "confidence"), PRICE_KEYS);
  if (s === null) return false;
  if (s !== p) items[i] = s;
  return true;
}

function checkPrices(items: unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!checkPrice(items, i)) return false;
  return true;
}

const positive = (v: unknown) => isNum(v) && (v as number) > 0;
const nonNegative = (v: unknown) => isNum(v) && (v as number) >= 0;
const optional = (o: Obj, key: string, test: (v: unknown) => boolean) => o[key] === undefined || test(o[key]);

/**
 * Per event kind: its keys (as zod outputs them) and a check of the kind's own fields, which
 * returns the number of keys zod's output has (required ones plus optional ones present), or -1.
 * id and time are checked before.
 */
export const EVENT_SPECS = new Map<string, { keys: readonly string[]; check: (e: Obj) => number }>(
  Object.entries({
    income: {
      keys: [
        "id",
        "time",
        "kind",
        "account",
        "symbol",
        "amount",
        "quantity",
        "price",
        "source",
        "confidence",
        "currency",
      ],
      check: (e) => {
        if (!isText(e.account) || !optional(e, "symbol", isText) || !optional(e, "currency", isCurrency)) return -1;
        if (e.quantity === undefined && e.price === undefined && e.confidence === undefined)
          return positive(e.amount) && optional(e, "source", isText)
            ? 5 + has(e, "symbol") + has(e, "source") + has(e, "currency")
            : -1;
        return e.amount === undefined &&
          isText(e.symbol) &&
          positive(e.quantity) &&
          nonNegative(e.price) &&
          optional(e, "source", isText) &&
          optional(e, "confidence", isConfidence)
          ? 7 + has(e, "source") + has(e, "confidence") + has(e, "currency")
          : -1;
      },
    },
    fee: {
      keys: ["id", "time", "kind", "account", "amount", "symbol", "quantity", "price", "currency"],
      check: (e) => {
        if (!isText(e.account) || !optional(e, "currency", isCurrency)) return -1;
        if (e.symbol === undefined && e.quantity === undefined && e.price === undefined)
          return positive(e.amount) ? 5 + has(e, "currency") : -1;
        return e.amount === undefined && isText(e.symbol) && positive(e.quantity) && nonNegative(e.price)
          ? 7 + has(e, "currency")
          : -1;
      },
    },
    split: {
      keys: ["id", "time", "kind", "symbol", "ratio", "account"],
      check: (e) =>
        isText(e.symbol) && positive(e.ratio) && optional(e, "account", isText) ? 5 + has(e, "account") : -1,
    },
    rename: {
      keys: ["id", "time", "kind", "from", "to", "ratio"],
      check: (e) => {
        if (!isText(e.from) || !isText(e.to)) return -1;
        if (e.ratio === undefined) e.ratio = 1;
        else if (!positive(e.ratio)) return -1;
        return 6;
      },
    },
    spinoff: {
      keys: ["id", "time", "kind", "symbol", "newSymbol", "ratio", "costFraction"],
      check: (e) =>
        isText(e.symbol) &&
        isText(e.newSymbol) &&
        positive(e.ratio) &&
        nonNegative(e.costFraction) &&
        (e.costFraction as number) <= 1
          ? 7
          : -1,
    },
    transfer: {
      keys: ["id", "time", "kind", "from", "to", "symbol", "quantity", "toSymbol", "toQuantity"],
      check: (e) => {
        if (!isText(e.from) || !isText(e.to) || !isText(e.symbol) || !positive(e.quantity)) return -1;
        if (!optional(e, "toSymbol", isText) || !optional(e, "toQuantity", positive)) return -1;
        if (e.toQuantity !== undefined && e.toSymbol === undefined) return -1;
        if (e.from === e.to && (e.toSymbol === undefined || e.toSymbol === e.symbol)) return -1;
        return 7 + has(e, "toSymbol") + has(e, "toQuantity");
      },
    },
    receive: {
      keys: ["id", "time", "account", "symbol", "quantity", "price", "assetClass", "currency", "kind"],
      check: checkInKind,
    },
    send: {
      keys: ["id", "time", "account", "symbol", "quantity", "price", "assetClass", "currency", "kind"],
      check: checkInKind,
    },
    fx: {
      keys: ["id", "time", "kind", "account", "sell", "sellAmount", "buy", "buyAmount", "fee"],
      check: (e) =>
        isText(e.account) &&
        isCurrency(e.sell) &&
        positive(e.sellAmount) &&
        isCurrency(e.buy) &&
        e.buy !== e.sell &&
        positive(e.buyAmount) &&
        optional(e, "fee", nonNegative)
          ? 8 + has(e, "fee")
          : -1,
    },
  } satisfies Record<string, { keys: readonly string[]; check: (e: Obj) => number }>),
);

function checkInKind(e: Obj): number {
  return isText(e.account) &&
    isText(e.symbol) &&
    positive(e.quantity) &&
    nonNegative(e.price) &&
    optional(e, "assetClass", isAssetClass) &&
    optional(e, "currency", isCurrency)
    ? 7 + has(e, "assetClass") + has(e, "currency")
    : -1;
}

function checkEvent(items: unknown[], i: number): boolean {
  const e = items[i] as Obj;
  if (!isPlain(e)) return false;
  const kind = e.kind;
  const spec = EVENT_SPECS.get(kind as string); // a Map, as zod's discriminated union: "toString" is no kind
  if (spec === undefined || !normaliseId(e) || !isTime(e.time)) return false;
  const expected = spec.check(e);
  if (expected < 0) return false;
  const s = stripped(e, expected, spec.keys);
  if (s === null) return false;
  if (s !== e) items[i] = s;
  return true;
}

function checkEvents(items: unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!checkEvent(items, i)) return false;
  return true;
}

const BENCHMARK_KEYS = ["symbol", "prices", "currency"] as const;
const BENCHMARK_PRICE_KEYS = ["time", "price"] as const;

function checkBenchmark(b: unknown): Obj | null {
  if (!isPlain(b)) return null;
  const o = b as Obj;
  if (!isText(o.symbol) || !Array.isArray(o.prices) || !optional(o, "currency", isCurrency)) return null;
  const prices = o.prices as unknown[];
  for (let i = 0; i < prices.length; i++) {
    const p = prices[i] as Obj;
    if (!isPlain(p) || !isTime(p.time) || !positive(p.price)) return null;
    const s = stripped(p, 2, BENCHMARK_PRICE_KEYS);
    if (s === null) return null;
    if (s !== p) prices[i] = s;
  }
  return stripped(o, 2 + has(o, "currency"), BENCHMARK_KEYS);
}

const RISK_FREE_KEYS = ["symbol", "rates"] as const;
const RISK_FREE_RATE_KEYS = ["time", "rate"] as const;

function checkRiskFree(f: unknown): Obj | null {
  if (!isPlain(f)) return null;
  const o = f as Obj;
  if (!isText(o.symbol) || !Array.isArray(o.rates)) return null;
  const rates = o.rates as unknown[];
  for (let i = 0; i < rates.length; i++) {
    const p = rates[i] as Obj;
    if (!isPlain(p) || !isTime(p.time) || !isNum(p.rate) || !((p.rate as number) > -1 && (p.rate as number) < 1))
      return null;
    const s = stripped(p, 2, RISK_FREE_RATE_KEYS);
    if (s === null) return null;
    if (s !== p) rates[i] = s;
  }
  return stripped(o, 2, RISK_FREE_KEYS);
}

const FX_RATES_KEYS = ["source", "rates"] as const;
const FX_RATE_KEYS = ["currency", "time", "rate"] as const;

function checkFxRates(f: unknown): Obj | null {
  if (!isPlain(f)) return null;
  const o = f as Obj;
  if (!isText(o.source) || !Array.isArray(o.rates)) return null;
  const rates = o.rates as unknown[];
  for (let i = 0; i < rates.length; i++) {
    const p = rates[i] as Obj;
    if (!isPlain(p) || !isCurrency(p.currency) || !isTime(p.time) || !positive(p.rate)) return null;
    const s = stripped(p, 3, FX_RATE_KEYS);
    if (s === null) return null;
    if (s !== p) rates[i] = s;
  }
  return stripped(o, 2, FX_RATES_KEYS);
}

/** The keys this pass knows, per object of the schema (validate.test.ts compares them with LedgerSchema's). */
export const KNOWN_KEYS = {
  root: [
    "asOf",
    "baseCurrency",
    "timeZone",
    "trades",
    "cashFlows",
    "prices",
    "events",
    "benchmark",
    "riskFree",
    "fxRates",
  ],
  trades: TRADE_KEYS,
  cashFlows: FLOW_KEYS,
  prices: PRICE_KEYS,
  benchmark: BENCHMARK_KEYS,
  benchmarkPrices: BENCHMARK_PRICE_KEYS,
  riskFree: RISK_FREE_KEYS,
  riskFreeRates: RISK_FREE_RATE_KEYS,
  fxRates: FX_RATES_KEYS,
  fxRatesRates: FX_RATE_KEYS,
} as const;

const ITEM_CHECKS = { trades: checkTrade, cashFlows: checkFlow, prices: checkPrice, events: checkEvent } as const;

/**
 * For wording the problems of a ledger validateInPlace refused: a shallow copy of the root whose
 * item arrays keep only the items this pass refuses, and for each such array the original index of
 * every kept item. zod's problems on the copy are the problems of the whole ledger with the item
 * indices renumbered (zod reports nothing for a valid item), at the cost of the refused items
 * only: a million-trade file with one bad trade is not copied by zod. null when the root is not a
 * plain object (zod then gets the value itself).
 */
export function refusedItems(value: unknown): { root: Obj; index: Partial<Record<string, number[]>> } | null {
  if (!isPlain(value)) return null;
  const root: Obj = { ...(value as Obj) };
  const index: Partial<Record<string, number[]>> = {};
  for (const [section, check] of Object.entries(ITEM_CHECKS)) {
    const items = root[section];
    if (!Array.isArray(items)) continue;
    const kept: unknown[] = [];
    const at: number[] = [];
    for (let i = 0; i < items.length; i++) {
      if (check(items, i)) continue;
      kept.push(items[i]);
      at.push(i);
    }
    root[section] = kept;
    index[section] = at;
  }
  return { root, index };
}

/**
 * Whether two items share an id (ids already strings). Ids in strictly increasing order (as most
 * exports and generated ledgers number them) are distinct: one comparison each. Otherwise an
 * open-addressing table of indices keyed by a hash of the id's code units, the hash kept beside
 * the index so that a probe rarely touches the other item. For a million ids either way is a
 * fraction of a Map's time, which has to store every string; parseLedger words a duplicate with
 * the Map-based check only when this finds one.
 */
export function hasDuplicateId(items: readonly { id: string }[]): boolean {
  const n = items.length;
  if (n < 2) return false;
  let prev = items[0].id;
  let i = 1;
  for (; i < n; i++) {
    const id = items[i].id;
    if (!(id > prev)) break;
    prev = id;
  }
  return i < n && hashedDuplicate(items);
}

function hashedDuplicate(items: readonly { id: string }[]): boolean {
  const n = items.length;
  let size = 1;
  while (size < n * 2) size <<= 1;
  const mask = size - 1;
  const index = new Int32Array(size).fill(-1);
  const hashes = new Int32Array(size);
  for (let i = 0; i < n; i++) {
    const id = items[i].id;
    const h = hashId(id);
    let slot = h & mask;
    for (;;) {
      const j = index[slot];
      if (j < 0) {
        index[slot] = i;
        hashes[slot] = h;
        break;
      }
      if (hashes[slot] === h && items[j].id === id) return true;
      slot = (slot + 1) & mask;
    }
  }
  return false;
}

/** FNV-1a over the code units, then a final mix so that the low bits (the slot) vary. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < id.length; k++) h = Math.imul(h ^ id.charCodeAt(k), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
