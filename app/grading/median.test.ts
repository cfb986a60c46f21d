import { describe, expect, it } from "vitest";
import { medianOf } from "./median";

function sortedMedian(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
}

describe("medianOf", () => {
  it("is null for no values and the value itself for one", () => {
    expect(medianOf(new Float64Array(0))).toBeNull();
    expect(medianOf(Float64Array.of(3.5))).toBe(3.5);
  });

  it("matches sorting, odd and even counts, duplicates, zeros, negatives, a subarray", () => {
    let a = 7;
    const rand = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const cases: number[][] = [
      [0, 0, 0, 0],
      [1, 2],
      [5, 1, 4, 2, 3],
      Array.from({ length: 10_001 }, () => rand() * 300),
      Array.from({ length: 10_000 }, () => Math.floor(rand() * 5)), // few distinct values, one bucket
      Array.from({ length: 9_999 }, () => (rand() < 0.5 ? 0 : rand() * 1e-300)), // zeros and subnormals
      Array.from({ length: 5_000 }, () => rand() * 200 - 100), // negatives take the general path
      [1.0000000000000002, 1, 1.0000000000000004, 1], // neighbours in one bucket
    ];
    for (const xs of cases) expect(medianOf(Float64Array.from(xs))).toBe(sortedMedian(xs));
    const big = Float64Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(medianOf(big.subarray(5, 16))).toBe(sortedMedian(Array.from(big.subarray(5, 16))));
  });

  it("leaves its input untouched", () => {
    const xs = Float64Array.of(9, 1, 8, 2, 7, 3);
    medianOf(xs);
    expect(Array.from(xs)).toEqual([9, 1, 8, 2, 7, 3]);
  });
});
