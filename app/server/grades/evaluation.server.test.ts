import { describe, expect, it } from "vitest";
import { grade } from "~/grading";
import { readStoredResult, redactAmounts } from "./evaluation.server";

// What scripts/seed.ts stores for a demo trader: no curve, positions, insights or most metrics.
const SEEDED = {
  tier: "Gold",
  score: 71.3,
  stars: { overall: 3, profitability: 2, riskControl: 4, consistency: 1, discipline: 5, experience: 3 },
  metrics: { twr: 0.2613, maxDrawdown: 0.18 },
};

describe("readStoredResult", () => {
  it("reads a seeded grade in the engine's shape: lists empty, missing figures null, stored ones kept", () => {
    for (const raw of [SEEDED, JSON.stringify(SEEDED)]) {
      const e = readStoredResult(raw);
      expect(e.curve).toEqual([]);
      expect(e.positions).toEqual([]);
      expect(e.insights).toEqual([]);
      expect(e.warnings).toEqual([]);
      expect(e.dimensions).toBeNull();
      expect(e.metrics.benchmark).toBeNull();
      expect(e).toMatchObject({ tier: "Gold", score: 71.3, stars: SEEDED.stars });
      expect(e.metrics).toMatchObject(SEEDED.metrics);
    }
  });

  it("leaves an engine-written grade as it was", () => {
    const e = grade({ baseCurrency: "USD", accounts: [], trades: [], cashFlows: [], events: [] } as never);
    expect(readStoredResult(JSON.parse(JSON.stringify(e)))).toEqual(JSON.parse(JSON.stringify(e)));
  });

  it("lets a seeded grade be redacted for another viewer", () => {
    const redacted = redactAmounts(readStoredResult(SEEDED));
    expect(redacted.curve).toEqual([]);
    expect(redacted.positions).toEqual([]);
    expect(redacted.metrics.totalPnl).toBeNull();
    expect(redacted.metrics.twr).toBe(0.2613);
  });
});
