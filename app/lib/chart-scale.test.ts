import { describe, expect, it } from "vitest";
import { dateTicks, niceTicks } from "./chart-scale";

describe("niceTicks", () => {
  it("gives round steps covering the range", () => {
    expect(niceTicks(0.93, 1.27)).toEqual([0.95, 1, 1.05, 1.1, 1.15, 1.2, 1.25]);
    expect(niceTicks(0.93, 1.27, 3)).toEqual([1, 1.1, 1.2]);
    expect(niceTicks(-0.234, 0)).toEqual([-0.2, -0.15, -0.1, -0.05, 0]);
    expect(niceTicks(0, 1000, 4)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(niceTicks(2, 2)).toEqual([2]);
  });
});

describe("dateTicks", () => {
  const days = (from: string, n: number) =>
    Array.from({ length: n }, (_, i) => new Date(Date.parse(from) + i * 86_400_000).toISOString().slice(0, 10));
  it("labels month starts, thinning them to at most six, with the year at January", () => {
    const d = days("2024-11-15", 120);
    const t = dateTicks(d);
    expect(t.map((x) => x.label)).toEqual(["Dec", "Jan 2025", "Feb", "Mar"]);
    expect(d[t[1]!.i]).toBe("2025-01-01");
    const long = dateTicks(days("2023-01-10", 700));
    expect(long.length).toBeLessThanOrEqual(6);
    expect(long.map((x) => x.label)).toContain("Jan 2024");
  });
  it("uses years for long records and days for short ones", () => {
    expect(dateTicks(days("2015-03-01", 3650)).map((x) => x.label)).toEqual(["2016", "2018", "2020", "2022", "2024"]);
    expect(dateTicks(days("2024-05-03", 10)).map((x) => x.label)).toEqual(["May 3", "May 7", "May 12"]);
  });
});
