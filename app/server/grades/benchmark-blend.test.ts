import { describe, expect, it } from "vitest";
import { benchmarkName } from "~/grading/insights";
import { blendedBenchmark } from "./prices.server";

const day = (d: number, hour: number) => new Date(Date.UTC(2024, 0, 1 + d, hour)).toISOString();

describe("blendedBenchmark (a mixed record's market, Grade v3)", () => {
  it("moves by the capital-weighted mix of both markets' moves, each carried between its own prices", () => {
    // SPY at the New York close (21:00Z) on weekdays only; BTC at each day's end.
    const spy = {
      symbol: "SPY",
      prices: [day(0, 21), day(1, 21), day(4, 21)].map((time, i) => ({ time, price: [400, 404, 408.04][i]! })),
    };
    const btc = {
      symbol: "BTC",
      prices: [0, 1, 2, 3, 4].map((d, i) => ({
        time: day(d, 23),
        price: [40_000, 40_000, 44_000, 44_000, 39_600][i]!,
      })),
    };
    const b = blendedBenchmark(spy, btc, 0.3);
    expect(b.symbol).toBe("SPY 70/BTC 30");
    expect(benchmarkName(b.symbol)).toBe("a blend of the S&P 500 (70 %) and Bitcoin (30 %)");
    const at = (time: string) => b.prices.find((p) => p.time === time)!.price;
    expect(at(day(0, 21))).toBe(100);
    expect(at(day(1, 21))).toBeCloseTo(100 * (1 + 0.7 * 0.01), 12); // SPY +1 %, BTC flat
    expect(at(day(2, 23))).toBeCloseTo(100.7 * (1 + 0.3 * 0.1), 12); // BTC +10 %, SPY carried
    expect(at(day(4, 23))).toBeCloseTo(100.7 * 1.03 * (1 + 0.7 * 0.01) * (1 - 0.3 * 0.1), 12);
    const times = b.prices.map((p) => p.time);
    expect([...times].sort()).toEqual(times);
  });

  it("states whole-percent weights, so its name is exact", () => {
    const one = (symbol: string) => ({ symbol, prices: [{ time: day(0, 21), price: 1 }] });
    expect(blendedBenchmark(one("SPY"), one("BTC"), 0.456).symbol).toBe("SPY 54/BTC 46");
  });
});
