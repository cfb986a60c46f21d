import { describe, expect, it } from "vitest";
import { formatCompact, formatPercent } from "./format-number";

describe("formatCompact", () => {
  it("keeps numbers below 10,000 in full with English grouping", () => {
    expect(formatCompact(0)).toBe("0");
    expect(formatCompact(999)).toBe("999");
    expect(formatCompact(9_999)).toBe("9,999");
    expect(formatCompact(1234.567)).toBe("1,234.57");
  });
  it("uses K from 10,000 and M from 1,000,000", () => {
    expect(formatCompact(10_000)).toBe("10K");
    expect(formatCompact(12_345)).toBe("12.3K");
    expect(formatCompact(999_999)).toBe("999.9K");
    expect(formatCompact(1_000_000)).toBe("1M");
    expect(formatCompact(2_560_000)).toBe("2.5M");
    expect(formatCompact(-45_000)).toBe("-45K");
  });
  it("formats fractions as percentages", () => {
    expect(formatPercent(0.2534)).toBe("25.3%");
    expect(formatPercent(-0.05)).toBe("-5.0%");
  });
});
