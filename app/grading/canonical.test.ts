import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareStrings } from "./sort";
import {
  canonicalJson,
  canonicalLedger,
  canonicalLedgerBytes,
  canonicalLedgerParts,
  ledgerDigest,
  parseLedger,
  roundNumber,
  sha256Hex,
  xirr,
} from "./index";
import type { Ledger } from "./ledger";
import { parseIsoMs } from "./time";

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null } })).toBe('{"a":{"c":null,"d":[3,1]},"b":1}');
  });
  it("rounds numbers to 1e-10 and normalises -0, NaN and Infinity", () => {
    expect(canonicalJson({ x: 0.1 + 0.2, y: -0, z: NaN, w: Infinity, v: 1 / 3 })).toBe(
      '{"v":0.3333333333,"w":null,"x":0.3,"y":0,"z":null}',
    );
    // eslint-disable-next-line no-loss-of-precision -- the literal is meant to exceed a double's digits
    expect(roundNumber(123456789.123456789)).toBe(123456789.123456789);
    expect(roundNumber(-1e-11)).toBe(0);
  });
  it("writes what the plain definition writes, for any JSON-like value", () => {
    // The definition, written the slow and obvious way (what canonicalJson was until JSON.stringify
    // took over the writing).
    const reference = (v: unknown): string => {
      if (v === null || v === undefined) return "null";
      if (typeof v === "number") {
        const r = roundNumber(v);
        return r === null ? "null" : JSON.stringify(r);
      }
      if (typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
      if (Array.isArray(v)) return `[${v.map(reference).join(",")}]`;
      if (ArrayBuffer.isView(v)) return reference(Array.from(v as Float64Array));
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort(compareStrings);
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(o[k])}`).join(",")}}`;
    };
    const key = fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "a", "B", "é", "\u0000"));
    const leaf = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.string({ unit: "grapheme" }),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constantFrom(-0, NaN, Infinity, 0.1 + 0.2, 1e21, 5e-324),
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: "small" }, leaf, tie("a"), tie("o"), tie("t")),
      a: fc.array(tie("v"), { maxLength: 5 }),
      o: fc
        .array(fc.tuple(key, tie("v")), { maxLength: 6 })
        .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries.map(([k]) => [k, 0])))) as object)
        .chain((shape) =>
          fc
            .array(tie("v"), { minLength: Object.keys(shape).length, maxLength: Object.keys(shape).length })
            .map((vals) => {
              const o = JSON.parse("{}") as Record<string, unknown>;
              Object.keys(shape).forEach((k, i) =>
                Object.defineProperty(o, k, { value: vals[i], enumerable: true, writable: true, configurable: true }),
              );
              return o;
            }),
        ),
      t: fc.array(fc.double(), { maxLength: 4 }).map((xs) => Float64Array.from(xs)),
    }));
    fc.assert(
      fc.property(value.v, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });

  it("drops undefined keys", () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
  });
});

describe("sha256Hex (pure TS)", () => {
  it("matches the FIPS 180-4 test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(sha256Hex("a".repeat(1000))).toBe("41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  });
  it("encodes non-ASCII as UTF-8", () => {
    expect(sha256Hex("€")).toBe("c4cc90ed3d26f12d4b08a75140970a7904035c31cbb4515a83f19b9003c00d1d");
    expect(sha256Hex("a😀b")).toBe("6fba5b2ea783ded096fc2444d540ffbdf49168df30993b155b7efb683313f110");
  });
});

describe("ledgerDigest", () => {
  const base = {
    trades: [
      {
        id: "1",
        account: "a",
        time: "2024-01-02T15:00:00Z",
        symbol: "X",
        assetClass: "stock",
        side: "buy",
        quantity: 1,
        price: 10,
      },
      {
        id: "2",
        account: "a",
        time: "2024-01-03T15:00:00Z",
        symbol: "X",
        assetClass: "stock",
        side: "sell",
        quantity: 1,
        price: 11,
        fee: 0,
      },
    ],
    cashFlows: [{ account: "a", time: "2024-01-01", amount: 100 }],
  };
  const digest = (v: unknown) => {
    const r = parseLedger(v);
    if (!r.ok) throw new Error(r.problems.join());
    return ledgerDigest(r.ledger);
  };
  it("is a 64-hex SHA-256, independent of order, default fees and time spelling", () => {
    const d = digest(base);
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    const shuffled = {
      cashFlows: [{ account: "a", time: "2024-01-01T00:00:00.000Z", amount: 100 }],
      trades: [{ ...base.trades[1] }, { ...base.trades[0], time: "2024-01-02T17:00:00+02:00", fee: 0 }],
    };
    expect(digest(shuffled)).toBe(d);
  });
  it("changes when the content changes", () => {
    const d = digest(base);
    expect(digest({ ...base, trades: [base.trades[0], { ...base.trades[1], price: 11.01 }] })).not.toBe(d);
    expect(digest({ ...base, asOf: "2024-02-01" })).not.toBe(d);
  });
});

describe("canonicalLedgerBytes", () => {
  // Trades as a ledger holds them (any text, times in any zone, ids of either type, optional fee
  // and seq), and now and then one with a key the schema does not give (the general path).
  const text = fc.oneof(
    fc.string({ minLength: 1 }),
    fc.constantFrom("a", "é", '"q"', "\\", "\u0000", "\ud800", "AAPL"),
  );
  const num = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    // Where numbers are written digit by digit (|x| < 1e5), and its edges.
    fc.double({ min: -1e5, max: 1e5, noNaN: true }),
    fc.integer({ min: -1e9, max: 1e9 }).map((c) => c / 100),
    fc.integer({ min: 1, max: 1e6 }).map((c) => c * 1e-12),
    fc.constantFrom(0.1 + 0.2, 1e21, 5e-324, 1 / 3, 99_999.99999999999, 1e5, 1e-6, 9.99999e-7, -0.00000499999, 123.45),
  );
  const time = fc
    .integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 })
    .chain((ms) =>
      fc.constantFrom(new Date(ms).toISOString(), new Date(ms).toISOString().replace(".", ",").slice(0, 19) + "+00:00"),
    )
    .filter((s) => !Number.isNaN(parseIsoMs(s)));
  const trade = fc.record(
    {
      id: fc.oneof(text, fc.integer()),
      account: text,
      time: fc.oneof(time, fc.constantFrom("2024-01-02T15:00:00Z", "2024-01-02T17:00:00+02:00")),
      symbol: text,
      assetClass: fc.constantFrom("stock", "etf", "crypto", "option"),
      side: fc.constantFrom("buy", "sell"),
      quantity: num,
      price: num,
      fee: num,
      seq: num,
    },
    { requiredKeys: ["id", "account", "time", "symbol", "assetClass", "side", "quantity", "price"] },
  );
  const ledger = fc.record(
    {
      trades: fc
        .tuple(fc.array(trade, { maxLength: 80 }), fc.boolean())
        .map(([trades, extra]) =>
          extra && trades.length > 0 ? [{ ...trades[0], extra: "x" }, ...trades.slice(1)] : trades,
        ),
      cashFlows: fc.array(fc.record({ account: text, time, amount: num }), { maxLength: 3 }),
      prices: fc.constant([]),
      events: fc.constant([]),
      asOf: time,
    },
    { requiredKeys: ["trades", "cashFlows", "prices", "events"] },
  );
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  it("writes exactly what canonicalJson(canonicalLedger(…)) writes, and the same ledger with its own numbers", () => {
    fc.assert(
      fc.property(ledger, (l) => {
        const input = l as unknown as Ledger;
        const { bytes, exact } = canonicalLedgerBytes(input);
        expect(decode(bytes)).toBe(canonicalJson(canonicalLedger(input)));
        // The same ledger, unrounded (through JSON: −0 is written 0 either way).
        expect(JSON.parse(decode(exact))).toEqual(JSON.parse(JSON.stringify(canonicalLedger(input, false))));
        // In the same form: canonical JSON of it is the digest's bytes again.
        expect(canonicalJson(canonicalLedger(JSON.parse(decode(exact)) as Ledger))).toBe(decode(bytes));
        if (decode(exact) === decode(bytes)) expect(bytes).toBe(exact);
      }),
      { numRuns: 400 },
    );
  });
  it("comes in parts around the text of the first trades, which a caller may keep and give back", () => {
    const join = (...xs: Uint8Array[]) => decode(Buffer.concat(xs));
    fc.assert(
      fc.property(ledger, fc.nat(), fc.nat(), (l, pick, place) => {
        // Unique ids, so that canonical order is one.
        const unique = l.trades.map((t, i) => ({ ...t, id: `${String(t.id)}#${i}` })) as unknown as Ledger["trades"];
        const inOrder = unique
          .map((t) => ({ t, ms: parseIsoMs(t.time) }))
          .sort((a, b) => a.ms - b.ms || compareStrings(a.t.id, b.t.id))
          .map((x) => x.t);
        const known = inOrder.slice(0, unique.length === 0 ? 0 : pick % (unique.length + 1));
        // The known trades as a run of the ledger's, anywhere among the others.
        const others = unique.filter((t) => !known.includes(t));
        const at = place % (others.length + 1);
        const trades = [...others.slice(0, at), ...known, ...others.slice(at)];
        const input = { ...l, trades } as unknown as Ledger;
        const whole = canonicalLedgerBytes(input);
        const parts = canonicalLedgerParts(input, known, true);
        const general = input.trades.some((t) => "extra" in t);
        if (general) {
          expect(parts).toBeNull();
          return;
        }
        expect(parts).not.toBeNull();
        const { bytes, exact } = parts!;
        expect(join(bytes.head, bytes.known, bytes.tail)).toBe(decode(whole.bytes));
        expect(join(exact.head, exact.known, exact.tail)).toBe(decode(whole.exact));
        expect(decode(bytes.head).endsWith('"trades":[')).toBe(true);
        // The known text is of those trades alone: the same in a ledger of nothing else.
        const alone = canonicalLedgerParts({ trades: known, cashFlows: [], prices: [], events: [] }, known, true)!;
        expect(decode(alone.bytes.known)).toBe(decode(bytes.known));
        expect(decode(alone.exact.known)).toBe(decode(exact.known));
        // Given back, it need not be written: the rest around it is the same.
        const around = canonicalLedgerParts(input, known, false)!;
        expect(around.bytes.known.length + around.exact.known.length).toBe(0);
        expect(join(around.bytes.head, bytes.known, around.bytes.tail)).toBe(decode(whole.bytes));
        expect(join(around.exact.head, exact.known, around.exact.tail)).toBe(decode(whole.exact));
        // Refused: other objects, trades not in a row, and a run that is not first in canonical order.
        for (const writeKnown of [true, false]) {
          if (known.length >= 1)
            expect(canonicalLedgerParts(input, [{ ...known[0]! }, ...known.slice(1)], writeKnown)).toBeNull();
          if (known.length >= 1 && known.length < trades.length) {
            const next = inOrder[known.length]!;
            expect(canonicalLedgerParts(input, [...known.slice(0, -1), next], writeKnown)).toBeNull();
            // The run without the first trade, which then comes before it.
            const later = inOrder.slice(1, known.length + 1);
            const shifted = [inOrder[0]!, ...unique.filter((t) => !later.includes(t) && t !== inOrder[0]), ...later];
            expect(canonicalLedgerParts({ ...input, trades: shifted }, later, writeKnown)).toBeNull();
          }
        }
      }),
      { numRuns: 300 },
    );
  });
  it("orders equal times by id as text, and writes a number id as text", () => {
    const t = { account: "a", symbol: "X", assetClass: "stock", side: "buy", quantity: 1, price: 1, fee: 0 } as const;
    const text = decode(
      canonicalLedgerBytes({
        trades: [
          { ...t, id: "b", time: "2024-01-02T00:00:00Z" },
          { ...t, id: 10 as unknown as string, time: "2024-01-02T00:00:00.000Z" },
          { ...t, id: "a", time: "2024-01-01T23:00:00-01:00" },
        ],
        cashFlows: [],
        prices: [],
        events: [],
      }).bytes,
    );
    const ids = (JSON.parse(text) as { trades: { id: string }[] }).trades.map((x) => x.id);
    expect(ids).toEqual(["10", "a", "b"]);
  });
});

describe("xirr", () => {
  const t = (s: string) => parseIsoMs(s);
  it("solves the classic example to 0.373362535", () => {
    const r = xirr([
      { time: t("2008-01-01"), amount: -10000 },
      { time: t("2008-03-01"), amount: 2750 },
      { time: t("2008-10-30"), amount: 4250 },
      { time: t("2009-02-15"), amount: 3250 },
      { time: t("2009-04-01"), amount: 2750 },
    ]);
    expect(r).toBeCloseTo(0.373362535, 8);
  });
  it("gives exactly 10 % for −100 then +110 a 365-day year later", () => {
    expect(
      xirr([
        { time: t("2023-01-01"), amount: -100 },
        { time: t("2024-01-01"), amount: 110 },
      ]),
    ).toBeCloseTo(0.1, 12);
  });
  it("handles losses and refuses flows without a sign change", () => {
    expect(
      xirr([
        { time: t("2023-01-01"), amount: -100 },
        { time: t("2024-01-01"), amount: 50 },
      ]),
    ).toBeCloseTo(-0.5, 12);
    expect(
      xirr([
        { time: t("2023-01-01"), amount: -100 },
        { time: t("2024-01-01"), amount: -50 },
      ]),
    ).toBeNull();
    expect(xirr([{ time: t("2023-01-01"), amount: -100 }])).toBeNull();
  });
});
