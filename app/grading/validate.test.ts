// The fast in-place validator against the zod schema (the reference): random valid ledgers, and the
// same ledgers broken in random places, must get the same answer, problems and ledger.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ASSET_CLASSES, EVENT_KINDS, LedgerSchema, parseLedger } from "./ledger";
import { z } from "zod";
import { EVENT_SPECS, hasDuplicateId, KNOWN_KEYS, validateInPlace } from "./validate";

const YEAR = 365.25 * 86_400_000;
const T2024 = Date.UTC(2024, 0, 1);

/** A valid time string in one of the accepted spellings; now and then decades apart (the span check). */
const timeArb = fc
  .tuple(
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: T2024, max: T2024 + 2 * YEAR }) },
      { weight: 1, arbitrary: fc.integer({ min: T2024 - 80 * YEAR, max: T2024 + 40 * YEAR }) },
    ),
    fc.constantFrom("iso", "seconds", "minutes", "date", "offset", "compact"),
  )
  .map(([ms, form]) => {
    const iso = new Date(ms).toISOString();
    if (form === "iso") return iso;
    if (form === "seconds") return iso.slice(0, 19) + "Z";
    if (form === "minutes") return iso.slice(0, 16) + "Z";
    if (form === "date") return iso.slice(0, 10);
    if (form === "offset") return iso.slice(0, 19) + "+02:00";
    return iso.slice(0, 23) + "-0530";
  });

const text = fc.oneof(fc.constantFrom("a", "b", "AAPL", "acct-1"), fc.string({ minLength: 1, maxLength: 3 }));
const money = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 1e6, noNaN: true }));
const positive = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 1e-9, max: 1e6, noNaN: true }));
const assetClass = fc.constantFrom(...ASSET_CLASSES);
// Currency codes (v3.1); "Usd", "US" and "usdt" are refused (mutations bring them in too).
const currency = fc.constantFrom("USD", "EUR", "GBP", "CAD", "JPY");

// Contracts (v3.2): a multiplier on any class, an expiry only where instruments expire (the
// mutations and hand-picked cases bring an expiry onto a stock).
const expiryArb = fc
  .integer({ min: T2024, max: T2024 + 2 * YEAR })
  .map((ms) => new Date(ms).toISOString().slice(0, 10));
const tradeArb = fc
  .record(
    {
      account: text,
      time: timeArb,
      symbol: text,
      assetClass,
      side: fc.constantFrom("buy", "sell"),
      quantity: positive,
      price: money,
      fee: money,
      seq: fc.integer({ min: -5, max: 5 }),
      currency,
      multiplier: fc.oneof(fc.constantFrom(1, 50, 100_000), positive),
      expiry: expiryArb,
      // v3.4: how far the fill's price is a market price.
      confidence: fc.oneof(fc.constantFrom(0, 0.5, 0.8, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    },
    { requiredKeys: ["account", "time", "symbol", "assetClass", "side", "quantity", "price"] },
  )
  .map((t) => {
    if (t.expiry !== undefined && ["stock", "etf", "crypto", "forex"].includes(t.assetClass)) delete t.expiry;
    return t;
  });
// (A flow of 0 and a transfer within one account are refused: hand-picked cases and mutations.)
const flowArb = fc.record({
  account: text,
  time: timeArb,
  amount: fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((x) => x !== 0),
  currency: fc.option(currency, { nil: undefined }),
});
const priceArb = fc.record({ symbol: text, time: timeArb, price: money });

const eventArb = fc.oneof(
  fc.record(
    { kind: fc.constant("income"), account: text, symbol: text, amount: positive, currency },
    { requiredKeys: ["kind", "account", "amount"] },
  ),
  fc.record(
    { kind: fc.constant("fee"), account: text, amount: positive, currency },
    { requiredKeys: ["kind", "account", "amount"] },
  ),
  fc
    .record(
      {
        kind: fc.constant("fx"),
        account: text,
        sell: currency,
        sellAmount: positive,
        buy: currency,
        buyAmount: positive,
        fee: money,
      },
      { requiredKeys: ["kind", "account", "sell", "sellAmount", "buy", "buyAmount"] },
    )
    .filter((e) => e.sell !== e.buy),
  fc.record(
    { kind: fc.constant("split"), symbol: text, ratio: positive, account: text },
    { requiredKeys: ["kind", "symbol", "ratio"] },
  ),
  fc.record(
    { kind: fc.constant("rename"), from: text, to: text, ratio: positive },
    { requiredKeys: ["kind", "from", "to"] },
  ),
  fc.record({
    kind: fc.constant("spinoff"),
    symbol: text,
    newSymbol: text,
    ratio: positive,
    costFraction: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  }),
  fc
    .record({ kind: fc.constant("transfer"), from: text, to: text, symbol: text, quantity: positive })
    .filter((e) => e.from !== e.to),
  ...(["receive", "send"] as const).map((kind) =>
    fc.record(
      { kind: fc.constant(kind), account: text, symbol: text, quantity: positive, price: money, assetClass, currency },
      { requiredKeys: ["kind", "account", "symbol", "quantity", "price"] },
    ),
  ),
);

/** Items get distinct ids (`t3` or the number 3, `e1` or 1): duplicates come from the mutations. */
const withIds = <T extends object>(prefix: string, items: T[], numeric: boolean[], times: string[]) =>
  items.map((item, i) => ({
    id: numeric[i % numeric.length] ? i : `${prefix}${i}`,
    time: times[i % times.length],
    ...item,
  }));

const validLedgerArb = fc
  .record(
    {
      asOf: timeArb,
      trades: fc.array(tradeArb, { maxLength: 6 }),
      cashFlows: fc.array(flowArb, { maxLength: 3 }),
      prices: fc.array(priceArb, { maxLength: 3 }),
      events: fc.array(eventArb, { maxLength: 6 }),
      eventTimes: fc.array(timeArb, { minLength: 1, maxLength: 6 }),
      numericIds: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      benchmark: fc.record({
        symbol: text,
        prices: fc.array(fc.record({ time: timeArb, price: positive }), { maxLength: 3 }),
        currency: fc.option(currency, { nil: undefined }),
      }),
      baseCurrency: currency,
      fxRates: fc.record({
        source: text,
        rates: fc.array(fc.record({ currency, time: timeArb, rate: positive }), { maxLength: 3 }),
      }),
      riskFree: fc.record({
        symbol: text,
        rates: fc.array(fc.record({ time: timeArb, rate: fc.double({ min: -0.01, max: 0.2, noNaN: true }) }), {
          maxLength: 3,
        }),
      }),
      description: fc.string(),
    },
    { requiredKeys: ["trades", "eventTimes", "numericIds"] },
  )
  .map(({ eventTimes, numericIds, trades, events, ...rest }) => {
    const ledger: Record<string, unknown> = {
      ...rest,
      trades: withIds(
        "t",
        trades,
        numericIds,
        trades.map((t) => t.time),
      ),
    };
    if (events !== undefined) ledger.events = withIds("e", events, numericIds, eventTimes);
    return ledger;
  });

// ---- breaking a ledger ----

class Instance {
  constructor(public symbol = "X") {}
}

/** Values that are wrong somewhere (and right elsewhere): zod must word them, the fast pass must refuse them. */
const BAD: (() => unknown)[] = [
  () => null,
  () => undefined,
  () => [],
  () => ({}),
  () => "",
  () => "x",
  () => "NaN",
  () => "1e5",
  () => "12",
  () => -1,
  () => 0,
  () => 0.5,
  () => 1,
  () => 1.0000001,
  () => 2,
  () => 7,
  () => -0,
  () => NaN,
  () => Infinity,
  () => -Infinity,
  () => true,
  () => "2024-02-30",
  () => "2024-01-02T10:00:00",
  () => "2024-01-02T24:00:00Z",
  () => "2024-01-02T10:00:00.Z",
  () => "1800-01-01",
  () => "buy",
  () => "sell",
  () => "stock",
  () => "Stock",
  () => "bond",
  () => "income",
  () => "split",
  () => "rename",
  () => "receive",
  () => "toString",
  () => "__proto__",
  () => "EUR",
  () => "eur",
  () => "USDT",
  () => "fx",
  () => "future",
  () => "forex",
  () => "2024-03-15T00:00:00Z",
  () => "2024-3-15",
  () => new Date(0),
  () => new Map([["symbol", "X"]]),
  () => ({ then: () => undefined, catch: () => undefined }),
  () => new Instance(),
];

type Path = (string | number)[];

function nodes(v: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(v)) v.forEach((x, i) => nodes(x, [...path, i], out));
  else if (
    typeof v === "object" &&
    v !== null &&
    (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)
  )
    for (const k of Object.keys(v)) nodes((v as Record<string, unknown>)[k], [...path, k], out);
  return out;
}

const at = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);

const mutationArb = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom(
    "set",
    "set",
    "set",
    "delete",
    "extraKey",
    "protoKey",
    "promiseLike",
    "nullProto",
    "copyId",
    "undefinedKey",
  ),
  bad: fc.nat({ max: BAD.length - 1 }),
  other: fc.nat(),
});
type Mutation = typeof mutationArb extends fc.Arbitrary<infer M> ? M : never;

/** Applies the mutations one after the other; returns the new root (a mutation may replace it). */
function mutate(root: unknown, mutations: Mutation[]): unknown {
  for (const m of mutations) {
    const all = nodes(root);
    const path = all[m.pick % all.length];
    const node = at(root, path);
    const parent = path.length === 0 ? undefined : (at(root, path.slice(0, -1)) as Record<string | number, unknown>);
    const key = path[path.length - 1];
    const replace = (v: unknown) => {
      if (parent === undefined) root = v;
      else parent[key] = v;
    };
    const isObj =
      typeof node === "object" &&
      node !== null &&
      !Array.isArray(node) &&
      !(node instanceof Date) &&
      !(node instanceof Map);
    switch (m.action) {
      case "set":
        replace(BAD[m.bad]());
        break;
      case "delete":
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else if (parent !== undefined) delete parent[key];
        break;
      case "extraKey":
        if (isObj)
          (node as Record<string, unknown>)[["note", "description", "expected", "kind", "seq"][m.other % 5]] =
            BAD[m.bad]();
        break;
      case "protoKey": // what JSON.parse makes of "__proto__": an own, enumerable key
        if (isObj)
          Object.defineProperty(node, "__proto__", {
            value: BAD[m.bad](),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        break;
      case "promiseLike":
        if (isObj) Object.assign(node as object, { then: () => undefined, catch: () => undefined });
        break;
      case "nullProto":
        if (isObj) replace(Object.assign(Object.create(null), node));
        break;
      case "copyId": {
        const section = path[0];
        const items = (root as Record<string, unknown> | null)?.[section as string];
        if (Array.isArray(items) && items.length > 0) {
          const from = items[m.other % items.length] as { id?: unknown } | null;
          if (isObj && typeof from === "object" && from !== null) (node as Record<string, unknown>).id = from.id;
        }
        break;
      }
      case "undefinedKey":
        if (isObj)
          (node as Record<string, unknown>)[
            ["fee", "seq", "symbol", "account", "ratio", "assetClass", "asOf", "cashFlows", "benchmark"][m.other % 9]
          ] = undefined;
        break;
    }
  }
  return root;
}

/** A deep copy that keeps what the validators look at: null prototypes, functions, Dates, Maps, class instances (shared). */
function clone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clone);
  if (typeof v !== "object" || v === null) return v;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out = Object.create(proto) as Record<string, unknown>;
  for (const k of Object.keys(v))
    Object.defineProperty(out, k, {
      value: clone((v as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** Comparable form: own keys sorted, a key set to undefined kept, prototypes ignored. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shape);
  if (v === undefined) return "<undefined>";
  if (typeof v !== "object" || v === null) return Object.is(v, -0) ? "<-0>" : v;
  return Object.keys(v)
    .sort()
    .map((k) => [k, shape((v as Record<string, unknown>)[k])]);
}

const hasInstance = (v: unknown): boolean =>
  v instanceof Instance ||
  (Array.isArray(v) ? v.some(hasInstance) : typeof v === "object" && v !== null && Object.values(v).some(hasInstance));

/** The fast pass and the zod schema agree on `input`: the answer, the problems, the ledger. */
function agree(input: unknown): { ok: boolean; fast: boolean } {
  const reference = parseLedger(clone(input), { zod: true });
  const zod = LedgerSchema.safeParse(clone(input));
  const mine = validateInPlace(clone(input));
  // The fast pass proves exactly zod's valid ledgers, except objects of a class (left to zod).
  if (!hasInstance(input)) expect(mine !== null).toBe(zod.success);
  else if (mine !== null) expect(zod.success).toBe(true);
  if (mine !== null && zod.success) expect(shape(mine)).toEqual(shape(zod.data));
  const actual = parseLedger(clone(input));
  expect(actual.ok).toBe(reference.ok);
  if (actual.ok && reference.ok) expect(shape(actual.ledger)).toEqual(shape(reference.ledger));
  else expect(actual).toEqual(reference);
  return { ok: reference.ok, fast: mine !== null };
}

describe("validateInPlace agrees with LedgerSchema", () => {
  it("on random valid ledgers (the fast pass accepts them and outputs what zod outputs)", () => {
    let fast = 0;
    let runs = 0;
    fc.assert(
      fc.property(validLedgerArb, (ledger) => {
        runs++;
        const r = agree(ledger);
        if (r.fast) fast++;
        expect(r.fast).toBe(LedgerSchema.safeParse(clone(ledger)).success);
        // No item has unknown keys here, so the ledger is made of the input's own objects.
        const input = clone(ledger) as Record<string, unknown[]>;
        const sections = ["trades", "cashFlows", "prices", "events"];
        const before = sections.map((section) => input[section]?.slice());
        const mine = validateInPlace(input) as unknown as Record<string, unknown[]> | null;
        if (mine === null) return;
        sections.forEach((section, k) => before[k]?.forEach((item, i) => expect(mine[section][i]).toBe(item)));
      }),
      { numRuns: 400 },
    );
    // Valid up to duplicate numeric/string ids and the span check, so nearly all pass zod itself.
    expect(fast).toBeGreaterThan(runs * 0.9);
  });

  it("on the same ledgers broken in one to three places", () => {
    let ok = 0;
    let runs = 0;
    fc.assert(
      fc.property(validLedgerArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (ledger, mutations) => {
        runs++;
        if (agree(mutate(ledger, mutations)).ok) ok++;
      }),
      { numRuns: 1500 },
    );
    // Some mutations leave the ledger valid (an extra key, a deleted optional field): both sides are exercised.
    expect(ok).toBeGreaterThan(runs * 0.05);
    expect(ok).toBeLessThan(runs * 0.8);
  });

  it("on hand-picked cases", () => {
    const trade = {
      id: 1,
      account: "a",
      time: "2024-01-02T10:00:00Z",
      symbol: "X",
      assetClass: "stock",
      side: "buy",
      quantity: 1,
      price: 10,
    };
    const cases: unknown[] = [
      null,
      [],
      "text",
      {},
      { trades: null },
      { trades: [trade], cashFlows: null },
      { trades: [trade], events: [{ id: "e", time: "2024-01-02", kind: "split", symbol: "X", ratio: 0 }] },
      {
        trades: [trade],
        events: [
          { id: "e", time: "2024-01-02", kind: "spinoff", symbol: "X", newSymbol: "Y", ratio: 1, costFraction: 1.5 },
        ],
      },
      { trades: [trade], events: [{ id: "e", time: "2024-01-02", kind: "dividend", account: "a", amount: 1 }] },
      { trades: [trade], events: [{ id: "e", time: "2024-01-02", kind: "rename", from: "X", to: "Y" }] },
      { trades: [trade, { ...trade, id: "1" }] },
      {
        trades: [
          { ...trade, time: "1900-01-01" },
          { ...trade, id: 2, time: "2024-01-01" },
        ],
      },
      {
        trades: [
          { ...trade, time: "1900-01-01" },
          { ...trade, id: 2, time: "2024-01-01" },
        ],
        asOf: "1950-01-01",
      },
      { trades: [trade], cashFlows: [{ account: "a", time: "2024-01-01", amount: 0 }] },
      { trades: [trade], cashFlows: [{ account: "a", time: "2024-01-01", amount: -0, extra: 1 }] },
      {
        trades: [trade],
        events: [{ id: "e", time: "2024-01-03", kind: "transfer", from: "a", to: "a", symbol: "X", quantity: 1 }],
      },
      {
        trades: [trade],
        events: [{ id: "e", time: "2024-01-03", kind: "transfer", from: "a", to: "a", symbol: "X", quantity: 0 }],
      },
      { trades: [trade], benchmark: { symbol: "SPY", prices: [{ time: "2024-01-02", price: 0 }] } },
      { trades: [trade], benchmark: { symbol: "SPY", prices: [{ time: "2024-01-02", price: 1, extra: 1 }], extra: 2 } },
      {
        trades: [
          { ...trade, quantity: "1" },
          { ...trade, id: 2, price: -1 },
          { ...trade, id: 3, fee: null },
        ],
      },
    ];
    // Contracts (v3.2): refused alike.
    const future = { ...trade, assetClass: "future", multiplier: 50, expiry: "2024-03-15" };
    cases.push(
      { trades: [future] },
      { trades: [{ ...future, multiplier: 0 }] },
      { trades: [{ ...future, multiplier: -50 }] },
      { trades: [{ ...future, multiplier: "50" }] },
      { trades: [{ ...future, multiplier: Infinity }] },
      { trades: [{ ...future, expiry: "2024-02-30" }] },
      { trades: [{ ...future, expiry: "2024-03-15T16:00:00Z" }] },
      { trades: [{ ...future, expiry: 20240315 }] },
      { trades: [{ ...trade, expiry: "2024-03-15" }] },
      { trades: [{ ...trade, assetClass: "forex", symbol: "EUR.USD", expiry: "2024-03-15" }] },
      { trades: [{ ...trade, assetClass: "cfd", expiry: "2024-03-15", multiplier: 1 }] },
      { trades: [{ ...future, multiplier: undefined, expiry: undefined }] },
      // A fill's confidence (v3.4): 0–1 only.
      { trades: [{ ...trade, confidence: 0.3 }] },
      { trades: [{ ...trade, confidence: 1.2 }] },
      { trades: [{ ...trade, confidence: -0.1 }] },
      { trades: [{ ...trade, confidence: "1" }] },
      { trades: [{ ...trade, confidence: undefined }] },
    );
    for (const c of cases) agree(c);
  });

  it("leaves an object of a class to zod, which accepts it", () => {
    const trade = {
      id: "t",
      account: "a",
      time: "2024-01-02T10:00:00Z",
      symbol: "X",
      assetClass: "stock",
      side: "buy",
      quantity: 1,
      price: 10,
    };
    const input = { trades: [Object.assign(new Instance(), trade), { ...trade, id: "u" }] };
    expect(validateInPlace(clone(input))).toBeNull();
    const r = parseLedger(clone(input));
    expect(r.ok && r.ledger.trades.map((t) => t.id)).toEqual(["t", "u"]);
    agree(input);
    agree({ ...input, prices: [{ symbol: "X", time: "2024-01-02", price: -1 }] });
  });
});

describe("validateInPlace", () => {
  it("builds the ledger from the input's own objects, with zod's defaults written into them", () => {
    const trade = {
      id: 7,
      account: "a",
      time: "2024-01-02T10:00:00Z",
      symbol: "X",
      assetClass: "stock",
      side: "buy",
      quantity: 1,
      price: 10,
    };
    const rename = { id: 2, time: "2024-01-03", kind: "rename", from: "X", to: "Y" };
    const input = { trades: [trade], events: [rename], description: "kept out" };
    const ledger = validateInPlace(input);
    expect(ledger).not.toBeNull();
    expect(ledger!.trades).toBe(input.trades);
    expect(ledger!.trades[0]).toBe(trade);
    expect(trade).toEqual({ ...trade, id: "7", fee: 0 });
    expect(rename).toMatchObject({ id: "2", ratio: 1 });
    expect(ledger!.cashFlows).toEqual([]);
    expect(ledger!.prices).toEqual([]);
    expect("description" in ledger!).toBe(false);
  });

  it("replaces an item carrying unknown keys by a copy without them, as zod outputs it", () => {
    const trade = {
      id: "t",
      account: "a",
      time: "2024-01-02",
      symbol: "X",
      assetClass: "etf",
      side: "sell",
      quantity: 1,
      price: 0,
      note: "x",
    };
    const input = { trades: [trade] };
    const ledger = validateInPlace(input)!;
    expect(ledger.trades[0]).not.toBe(trade);
    expect(input.trades[0]).toEqual({
      id: "t",
      account: "a",
      time: "2024-01-02",
      symbol: "X",
      assetClass: "etf",
      side: "sell",
      quantity: 1,
      price: 0,
      fee: 0,
    });
  });

  it("knows every event kind and every key of the schema (a new field must be checked here too)", () => {
    expect([...EVENT_SPECS.keys()].sort()).toEqual([...EVENT_KINDS].sort());
    const keys = (schema: z.ZodTypeAny): string[] => {
      let s = schema;
      while (
        s instanceof z.ZodDefault ||
        s instanceof z.ZodOptional ||
        s instanceof z.ZodArray ||
        s instanceof z.ZodEffects
      )
        s = s instanceof z.ZodArray ? s.element : s instanceof z.ZodEffects ? s.innerType() : s._def.innerType;
      return Object.keys((s as z.AnyZodObject).shape).sort();
    };
    const shape = LedgerSchema.shape;
    expect([...KNOWN_KEYS.root].sort()).toEqual(keys(LedgerSchema));
    expect([...KNOWN_KEYS.trades].sort()).toEqual(keys(shape.trades));
    expect([...KNOWN_KEYS.cashFlows].sort()).toEqual(keys(shape.cashFlows));
    expect([...KNOWN_KEYS.prices].sort()).toEqual(keys(shape.prices));
    expect([...KNOWN_KEYS.benchmark].sort()).toEqual(keys(shape.benchmark));
    expect([...KNOWN_KEYS.benchmarkPrices].sort()).toEqual(keys(shape.benchmark.unwrap().shape.prices));
    expect([...KNOWN_KEYS.riskFree].sort()).toEqual(keys(shape.riskFree));
    expect([...KNOWN_KEYS.riskFreeRates].sort()).toEqual(keys(shape.riskFree.unwrap().shape.rates));
    expect([...KNOWN_KEYS.fxRates].sort()).toEqual(keys(shape.fxRates));
    expect([...KNOWN_KEYS.fxRatesRates].sort()).toEqual(keys(shape.fxRates.unwrap().shape.rates));
    // (The events' union is wrapped in a refinement: a transfer's two accounts must differ.)
    for (const option of shape.events.removeDefault().element.innerType().options)
      expect([...EVENT_SPECS.get(option.shape.kind.value)!.keys].sort()).toEqual(keys(option));
  });
});

describe("hasDuplicateId", () => {
  it("finds a repeated id exactly when there is one, in order or not", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { maxLength: 60 }), fc.boolean(), (ids, sorted) => {
        const list = sorted ? ids.slice().sort() : ids;
        expect(hasDuplicateId(list.map((id) => ({ id })))).toBe(new Set(list).size !== list.length);
      }),
      { numRuns: 500 },
    );
  });
});
