import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  ENGINE_VERSION,
  grade,
  listRoundTrips,
  parseLedger,
  percentileOf,
  prepareLedger,
  type LedgerInput,
} from "./index";

function run(input: LedgerInput, population?: number[]) {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger, population ? { population } : {});
}

const trade = (id: string, time: string, side: "buy" | "sell", price: number, account = "a") => ({
  id,
  account,
  time,
  symbol: "X",
  assetClass: "stock" as const,
  side,
  quantity: 10,
  price,
});

describe("grade", () => {
  it("reads every accepted time spelling to the same instant", () => {
    const spell = (a: string, b: string) =>
      canonicalJson(
        run({
          cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }],
          trades: [trade("1", a, "buy", 10), trade("2", b, "sell", 12)],
        }),
      );
    const ref = spell("2024-01-02T15:00:00.000Z", "2024-01-05T09:30:00.000Z");
    expect(spell("2024-01-02T15:00:00Z", "2024-01-05T09:30Z")).toBe(ref);
    expect(spell("2024-01-02T17:00:00+02:00", "2024-01-05T04:30:00-0500")).toBe(ref);
    expect(spell("2024-01-02T15:00:00.0004Z", "2024-01-05T09:30:00.000Z")).toBe(ref);
  });

  it("breaks time ties by id, and keeps accounts' lots apart", () => {
    // Same instant: id "1" (buy) comes before id "2" (sell) whatever the input order.
    const e = run({
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }],
      trades: [
        trade("2", "2024-01-02T15:00:00Z", "sell", 12),
        trade("1", "2024-01-02T15:00:00Z", "buy", 10),
        trade("3", "2024-01-03T15:00:00Z", "sell", 11, "b"),
      ],
    });
    expect(e.metrics.roundTrips).toBe(1); // account a: buy 1 then sell 2 (+20)
    expect(e.metrics.realizedPnl).toBe(20);
    // account b's sell does not close a's lots: it opens a short that is still open.
    expect(e.positions).toEqual([
      {
        account: "b",
        symbol: "X",
        assetClass: "stock",
        quantity: -10,
        avgCost: 11,
        mark: 11,
        marketValue: -110,
        unrealizedPnl: 0,
      },
    ]);
  });

  it("ignores trades after asOf and says so", () => {
    const e = run({
      asOf: "2024-01-03",
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }],
      trades: [trade("1", "2024-01-02T15:00:00Z", "buy", 10), trade("2", "2024-01-05T15:00:00Z", "sell", 12)],
    });
    expect(e.asOf).toBe("2024-01-03T00:00:00.000Z");
    expect(e.metrics.trades).toBe(1);
    expect(e.positions).toHaveLength(1);
    expect(e.warnings.join()).toMatch(/1 trade\(s\) after asOf/);
  });

  it("exposes the engine version and, with a population, the percentile", () => {
    const input = {
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }],
      trades: [trade("1", "2024-01-02T15:00:00Z", "buy", 10)],
    };
    const e = run(input, [10, 20, 90, 95]);
    expect(e.engineVersion).toBe(ENGINE_VERSION);
    expect(e.percentile).toBe(percentileOf(e.score!, [10, 20, 90, 95]));
    expect(run(input).percentile).toBeUndefined();
  });
});

/** A shuffled ledger of `n` trades over a few symbols and accounts (crypto sells may exceed holdings). */
function bigLedger(n: number, seed: number): LedgerInput {
  let a = seed;
  const rand = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const trades = Array.from({ length: n }, (_, i) => ({
    id: `t${i}`,
    account: `acct${Math.floor(rand() * 3)}`,
    time: new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 200 * 86_400_000)).toISOString(),
    symbol: `S${Math.floor(rand() * 12)}`,
    assetClass: rand() < 0.25 ? ("crypto" as const) : ("stock" as const),
    side: rand() < 0.5 ? ("buy" as const) : ("sell" as const),
    quantity: 1 + Math.floor(rand() * 50),
    price: 10 + rand() * 90,
    fee: rand() < 0.5 ? 0 : 1,
  }));
  return { trades, cashFlows: seed % 2 ? [] : [{ account: "acct0", time: "2023-12-31", amount: 1e6 }] };
}

describe("prepareLedger", () => {
  it("grades like the ledger, and stays valid while other ledgers are graded", () => {
    // Large enough for the engine's pooled scratch (small arrays are never pooled): a prepared
    // ledger must own its arrays, or grading another ledger would overwrite them.
    for (const seed of [1, 2]) {
      const ledger = parseLedger(bigLedger(6000, seed));
      const other = parseLedger(bigLedger(7000, seed + 10));
      if (!ledger.ok || !other.ok) throw new Error("invalid test ledger");
      const expected = canonicalJson(grade(ledger.ledger));
      expect(JSON.parse(expected).warnings.join()).toMatch(/Data gap: trade t\d+ sells/);
      const prepared = prepareLedger(ledger.ledger);
      grade(other.ledger);
      expect(canonicalJson(grade(prepared))).toBe(expected);
      grade(prepareLedger(other.ledger));
      expect(canonicalJson(grade(prepared))).toBe(expected);
    }
  });
});

describe("percentileOf", () => {
  it("is the share of the population strictly below, as a fraction", () => {
    expect(percentileOf(50, [10, 50, 60, 40])).toBe(0.5);
    expect(percentileOf(0, [0, 0])).toBe(0);
    expect(percentileOf(100, [1, 2, 3, 4])).toBe(1);
    expect(percentileOf(50, [])).toBeNull();
  });
});

describe("listRoundTrips", () => {
  // A long closed by a sell that flips into a short, closed three days later.
  const flip: LedgerInput["trades"] = [
    {
      id: "1",
      account: "a",
      time: "2024-01-02T15:00:00Z",
      symbol: "X",
      assetClass: "stock",
      side: "buy",
      quantity: 10,
      price: 100,
    },
    {
      id: "2",
      account: "a",
      time: "2024-01-05T15:00:00Z",
      symbol: "X",
      assetClass: "stock",
      side: "sell",
      quantity: 25,
      price: 110,
    },
    {
      id: "3",
      account: "a",
      time: "2024-01-08T15:00:00Z",
      symbol: "X",
      assetClass: "stock",
      side: "buy",
      quantity: 15,
      price: 100,
    },
  ];

  it("lists each completed round trip with its side, times, holding and return", () => {
    const parsed = parseLedger({
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 10_000 }],
      trades: flip,
      events: [
        { id: "m", time: "2024-01-03T00:00:00Z", kind: "transfer", from: "a", to: "b", symbol: "X", quantity: 10 },
      ],
    });
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    // The transfer moved the long to account b, so the sell in a opens a short of 25 there.
    const trips = listRoundTrips(parsed.ledger);
    expect(trips).toEqual([]);
    const e = grade(parsed.ledger);
    expect(e.positions.map((p) => [p.account, p.quantity])).toEqual([
      ["a", -10],
      ["b", 10],
    ]);
  });

  it("carries the opening through a flip", () => {
    const parsed = parseLedger({
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 10_000 }],
      trades: flip,
    });
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    expect(listRoundTrips(parsed.ledger)).toEqual([
      {
        account: "a",
        symbol: "X",
        assetClass: "stock",
        side: "long",
        openTime: "2024-01-02T15:00:00.000Z",
        closeTime: "2024-01-05T15:00:00.000Z",
        holdingDays: 3,
        entryNotional: 1000,
        pnl: 100,
        return: 0.1,
      },
      {
        account: "a",
        symbol: "X",
        assetClass: "stock",
        side: "short",
        openTime: "2024-01-05T15:00:00.000Z",
        closeTime: "2024-01-08T15:00:00.000Z",
        holdingDays: 3,
        entryNotional: 1650,
        pnl: 150,
        return: 150 / 1650,
      },
    ]);
  });
});
