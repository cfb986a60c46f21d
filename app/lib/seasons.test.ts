import { describe, expect, it } from "vitest";
import {
  MIN_SEASON_ACTIVE_DAYS,
  rankSeason,
  seasonBounds,
  seasonLabel,
  seasonOf,
  seasonScore,
  seasonsBetween,
  seasonWinners,
  shiftSeason,
  SEASON_POINTS,
  dueSeasons,
  type SeasonCurvePoint,
} from "./seasons";

/** A curve from `start` (the day before the season) with one index per day. */
function curveOf(month: string, returns: number[], { before = 1.2, from = 1 } = {}): SeasonCurvePoint[] {
  let index = before;
  const points: SeasonCurvePoint[] = [{ date: `${shiftSeason(month, -1)}-28`, index }];
  returns.forEach((r, i) => {
    index *= 1 + r;
    points.push({ date: `${month}-${String(from + i).padStart(2, "0")}`, index });
  });
  return points;
}

// GRADING.md "Seasons", the worked example: 12 active days alternating +1 % and −0.5 %.
const EXAMPLE = [0.01, -0.005, 0.01, 0.01, -0.005, 0.01, 0.01, -0.005, 0.01, 0.01, -0.005, 0.01];

describe("season months", () => {
  it("are UTC calendar months", () => {
    expect(seasonOf(new Date("2026-11-30T23:59:59.999Z"))).toBe("2026-11");
    expect(seasonOf(new Date("2026-12-01T00:00:00.000Z"))).toBe("2026-12");
    expect(shiftSeason("2026-12", 1)).toBe("2027-01");
    expect(shiftSeason("2027-01", -1)).toBe("2026-12");
    expect(seasonBounds("2024-02")).toEqual({
      start: new Date("2024-02-01T00:00:00Z"),
      end: new Date("2024-03-01T00:00:00Z"),
    });
    expect(seasonsBetween("2026-11", "2027-02")).toEqual(["2026-11", "2026-12", "2027-01", "2027-02"]);
    expect(seasonsBetween("2026-12", "2026-11")).toEqual([]);
    expect(seasonLabel("2026-12")).toBe("December 2026");
    expect(() => shiftSeason("2026-13", 1)).toThrow();
  });
});

describe("seasonScore", () => {
  it("is the annualised Sharpe ratio of the season's active days (the worked example)", () => {
    // The days after the twelfth are idle (the index does not move) and the next month is ignored.
    const curve = curveOf("2026-11", [...EXAMPLE, ...Array(18).fill(0)]);
    curve.push({ date: "2026-12-01", index: 99 });
    const s = seasonScore(curve, "2026-11")!;
    expect(s.activeDays).toBe(12);
    expect(s.score).toBeCloseTo(12.934128, 6);
    expect(s.return).toBeCloseTo(0.061361, 6);
  });

  it("measures the first day against the day before, or against 1 when the curve starts that day", () => {
    const withBefore = seasonScore(curveOf("2026-11", EXAMPLE, { before: 5 }), "2026-11")!;
    // The same returns from a curve that starts on the first (index 1 × 1.01 on day 1).
    const startsIn = seasonScore(curveOf("2026-11", EXAMPLE, { before: 1 }).slice(1), "2026-11")!;
    expect(withBefore.score).toBe(startsIn.score);
    // A jump before the season does not count: only the season's days.
    const jumped = curveOf("2026-11", EXAMPLE);
    jumped.unshift({ date: "2026-10-27", index: 0.1 });
    expect(seasonScore(jumped, "2026-11")!.score).toBe(withBefore.score);
  });

  it("scales with nothing: the same returns at any index level score the same", () => {
    const a = seasonScore(curveOf("2026-11", EXAMPLE, { before: 1 }), "2026-11")!;
    const b = seasonScore(curveOf("2026-11", EXAMPLE, { before: 1000 }), "2026-11")!;
    expect(a.score).toBeCloseTo(b.score, 6);
  });

  it("rewards consistency: the same total return in steadier days scores higher", () => {
    const steady = seasonScore(curveOf("2026-11", Array(12).fill(0.005)).map(jitter), "2026-11")!;
    const choppy = seasonScore(
      curveOf("2026-11", [0.2, -0.1, 0.05, -0.08, 0.1, -0.05, 0.02, -0.1, 0.1, 0.0, -0.02, 0.02]),
      "2026-11",
    );
    expect(steady.score).toBeGreaterThan(choppy!.score);
  });

  it("leaves unranked fewer than the minimum active days, a flat record and an empty curve", () => {
    expect(seasonScore(curveOf("2026-11", EXAMPLE.slice(0, MIN_SEASON_ACTIVE_DAYS - 1)), "2026-11")).toBeNull();
    expect(seasonScore(curveOf("2026-11", EXAMPLE.slice(0, MIN_SEASON_ACTIVE_DAYS))!, "2026-11")).not.toBeNull();
    expect(seasonScore(curveOf("2026-11", Array(20).fill(0)), "2026-11")).toBeNull();
    expect(seasonScore([], "2026-11")).toBeNull();
    // Another month's days are not this season's.
    expect(seasonScore(curveOf("2026-11", EXAMPLE), "2026-10")).toBeNull();
    // The same daily return every day: no deviation, no ratio.
    expect(seasonScore(curveOf("2026-11", Array(12).fill(0.01)), "2026-11")).toBeNull();
  });

  it("reads points in date order and skips a day after a wiped-out index", () => {
    const curve = curveOf("2026-11", EXAMPLE);
    const shuffled = [...curve].reverse();
    expect(seasonScore(shuffled, "2026-11")).toEqual(seasonScore(curve, "2026-11"));
  });
});

// A tiny deterministic wobble so the steady record has a deviation.
function jitter(p: SeasonCurvePoint, i: number): SeasonCurvePoint {
  return { ...p, index: p.index * (1 + (i % 2 ? 1e-4 : -1e-4)) };
}

describe("ranking and winners", () => {
  const rows = [
    { userId: 7, score: 2, activeDays: 12 },
    { userId: 3, score: 2, activeDays: 12 },
    { userId: 5, score: 2, activeDays: 20 },
    { userId: 1, score: 3.5, activeDays: 10 },
    { userId: 9, score: -1, activeDays: 30 },
  ];

  it("ranks by score, then active days, then the lower user id", () => {
    expect(rankSeason(rows).map((r) => [r.rank, r.userId])).toEqual([
      [1, 1],
      [2, 5],
      [3, 3],
      [4, 7],
      [5, 9],
    ]);
    // The input order does not matter.
    expect(rankSeason([...rows].reverse())).toEqual(rankSeason(rows));
  });

  it("pays the top ten with a positive score, by rank", () => {
    const winners = seasonWinners(rankSeason(rows));
    expect(winners.map((w) => [w.userId, w.points])).toEqual([
      [1, 1000],
      [5, 750],
      [3, 500],
      [7, 400],
    ]);
    const many = rankSeason(Array.from({ length: 15 }, (_, i) => ({ userId: i + 1, score: 20 - i, activeDays: 10 })));
    const paid = seasonWinners(many);
    expect(paid).toHaveLength(10);
    expect(paid.map((w) => w.points)).toEqual([...SEASON_POINTS]);
  });
});

describe("dueSeasons", () => {
  const now = new Date("2027-03-01T00:05:00Z");
  it("closes last month, and catches up on every month left open since the first open one", () => {
    expect(dueSeasons([{ month: "2027-02", closed: false }], now)).toEqual(["2027-02"]);
    expect(
      dueSeasons(
        [
          { month: "2026-11", closed: true },
          { month: "2026-12", closed: false },
        ],
        now,
      ),
    ).toEqual(["2026-12", "2027-01", "2027-02"]);
    // All closed up to December: January and February are due.
    expect(dueSeasons([{ month: "2026-12", closed: true }], now)).toEqual(["2027-01", "2027-02"]);
  });

  it("never closes the running season or months before seasons began, nor a month closed by hand", () => {
    expect(dueSeasons([{ month: "2027-03", closed: false }], now)).toEqual([]);
    expect(dueSeasons([], now)).toEqual([]);
    expect(
      dueSeasons(
        [
          { month: "1990-05", closed: true },
          { month: "2027-01", closed: false },
          { month: "2027-02", closed: true },
        ],
        now,
      ),
    ).toEqual(["2027-01"]);
  });
});
