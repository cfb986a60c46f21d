import { describe, expect, it } from "vitest";
import { canonicalJson, ENGINE_VERSION, grade, parseLedger, percentileOf, type LedgerInput } from "./index";

function run(input: LedgerInput, population?: number[]) {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger, population ? { population } : {});
}

const trade = (id: string, time: string, side: "buy" | "sell", price: number, account = "a") => ({
  id, account, time, symbol: "X", assetClass: "stock" as const, side, quantity: 10, price,
});

describe("grade", () => {
  it("reads every accepted time spelling to the same instant", () => {
    const spell = (a: string, b: string) =>
      canonicalJson(run({ cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }], trades: [trade("1", a, "buy", 10), trade("2", b, "sell", 12)] }));
    const ref = spell("2024-01-02T15:00:00.000Z", "2024-01-05T09:30:00.000Z");
    expect(spell("2024-01-02T15:00:00Z", "2024-01-05T09:30Z")).toBe(ref);
    expect(spell("2024-01-02T17:00:00+02:00", "2024-01-05T04:30:00-0500")).toBe(ref);
    expect(spell("2024-01-02T15:00:00.0004Z", "2024-01-05T09:30:00.000Z")).toBe(ref);
  });

  it("breaks time ties by id, and keeps accounts' lots apart", () => {
    // Same instant: id "1" (buy) comes before id "2" (sell) whatever the input order.
    const e = run({
      cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }],
      trades: [trade("2", "2024-01-02T15:00:00Z", "sell", 12), trade("1", "2024-01-02T15:00:00Z", "buy", 10), trade("3", "2024-01-03T15:00:00Z", "sell", 11, "b")],
    });
    expect(e.metrics.roundTrips).toBe(1); // account a: buy 1 then sell 2 (+20)
    expect(e.metrics.realizedPnl).toBe(20);
    // account b's sell does not close a's lots: it opens a short that is still open.
    expect(e.positions).toEqual([
      { account: "b", symbol: "X", assetClass: "stock", quantity: -10, avgCost: 11, mark: 11, marketValue: -110, unrealizedPnl: 0 },
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
    const input = { cashFlows: [{ account: "a", time: "2024-01-01", amount: 1000 }], trades: [trade("1", "2024-01-02T15:00:00Z", "buy", 10)] };
    const e = run(input, [10, 20, 90, 95]);
    expect(e.engineVersion).toBe(ENGINE_VERSION);
    expect(e.percentile).toBe(percentileOf(e.score!, [10, 20, 90, 95]));
    expect(run(input).percentile).toBeUndefined();
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
