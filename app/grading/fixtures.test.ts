// Hand-computed fixtures (test/fixtures/ledgers/*.json; computations in docs/GRADING.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grade, listRoundTrips, parseLedger, type Evaluation } from "./index";

const DIR = join(__dirname, "../../test/fixtures/ledgers");
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort();

interface Expected {
  asOf?: string;
  tier?: string | null;
  score?: number | null;
  provisional?: boolean;
  metrics?: Record<string, number | null>;
  positions?: Record<string, unknown>[];
  curve?: Record<string, Record<string, number | string>>;
  curveLength?: number;
  warningsInclude?: string[];
  warningsExclude?: string[];
  insightsInclude?: string[];
  insights?: number;
}

/** `scale`: the size the figure was computed at (an equity difference carries the equity's rounding). */
function close(actual: unknown, expected: unknown, what: string, scale?: number) {
  if (expected === null) {
    expect(actual, what).toBeNull();
  } else if (typeof expected === "number") {
    expect(typeof actual, what).toBe("number");
    // Relative below 1e-6 too: an absolute 1e-9 would pass any wei-sized figure (fixture 26).
    const a = Math.abs(expected);
    const tol = 1e-9 * (scale ?? (a > 0 && a < 1e-6 ? a : Math.max(1, a)));
    expect(Math.abs((actual as number) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
  } else if (typeof expected === "object" && !Array.isArray(expected)) {
    expect(actual, what).toBeTypeOf("object");
    for (const [k, v] of Object.entries(expected as Record<string, unknown>))
      close((actual as Record<string, unknown>)[k], v, `${what}.${k}`);
  } else {
    expect(actual, what).toEqual(expected);
  }
}

describe("fixtures", () => {
  it("has at least nine fixtures", () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
  });

  for (const file of files) {
    it(file, () => {
      const raw = JSON.parse(readFileSync(join(DIR, file), "utf8"));
      const expected: Expected = raw.expected;
      const parsed = parseLedger(raw);
      if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
      const ev: Evaluation = grade(parsed.ledger);

      if (expected.asOf !== undefined) expect(ev.asOf).toBe(expected.asOf);
      if (expected.tier !== undefined) expect(ev.tier).toBe(expected.tier);
      if (expected.score !== undefined) expect(ev.score).toBe(expected.score);
      if (expected.provisional !== undefined) expect(ev.provisional).toBe(expected.provisional);
      for (const [k, v] of Object.entries(expected.metrics ?? {})) {
        close((ev.metrics as unknown as Record<string, unknown>)[k], v, `metrics.${k}`);
      }
      if (expected.positions !== undefined) {
        expect(ev.positions).toHaveLength(expected.positions.length);
        expected.positions.forEach((p, i) => {
          for (const [k, v] of Object.entries(p))
            close((ev.positions[i] as unknown as Record<string, unknown>)[k], v, `positions[${i}].${k}`);
        });
      }
      if (expected.curveLength !== undefined) expect(ev.curve).toHaveLength(expected.curveLength);
      for (const [i, point] of Object.entries(expected.curve ?? {})) {
        for (const [k, v] of Object.entries(point)) {
          close((ev.curve[Number(i)] as unknown as Record<string, unknown>)[k], v, `curve[${i}].${k}`);
        }
      }
      for (const w of expected.warningsInclude ?? []) {
        expect(ev.warnings.join("\n")).toContain(w);
      }
      for (const w of expected.warningsExclude ?? []) {
        expect(ev.warnings.join("\n")).not.toContain(w);
      }
      for (const text of expected.insightsInclude ?? []) {
        expect(ev.insights.map((i) => i.text).join("\n")).toContain(text);
      }
      if (expected.insights !== undefined) expect(ev.insights).toHaveLength(expected.insights);
      else if (ev.tier !== null) {
        expect(ev.insights.length).toBeGreaterThanOrEqual(3);
        expect(ev.insights.length).toBeLessThanOrEqual(5);
      }
      // Identities that hold for every fixture.
      const m = ev.metrics;
      close(
        m.totalPnl,
        m.realizedPnl + m.unrealizedPnl + m.income - m.accountFees,
        "totalPnl = realized + unrealized + income − account fees",
      );
      if (m.trades > 0) close(m.equity - (m.deposits - m.withdrawals), m.totalPnl, "equity − net flows = totalPnl", 1);
      if (m.trades > 0)
        close(
          ev.curve.reduce((s, p) => s + p.pnl, 0),
          m.totalPnl,
          "Σ daily P&L = totalPnl",
          1,
        );
      // The journal lists exactly the round trips the metrics count.
      const trips = listRoundTrips(parsed.ledger);
      expect(trips).toHaveLength(m.roundTrips);
      // With every position closed, the trips hold all the realized P&L but FX P&L on foreign cash.
      if (ev.positions.length === 0)
        close(
          trips.reduce((s, t) => s + t.pnl, 0),
          m.realizedPnl - (m.fxRealizedPnl ?? 0),
          "Σ trip P&L = realized",
        );
    });
  }
});
