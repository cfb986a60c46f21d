import { describe, expect, it } from "vitest";
import { DIMENSION_LABELS, DIMENSIONS, TIER_COLORS, TIERS, tierBounds, tierColor, tierOf } from "./vocabulary";

describe("vocabulary", () => {
  it("gives every score the tier whose bounds hold it", () => {
    for (let s = 0; s <= 100; s += 0.1) {
      const tier = tierOf(s);
      const { min, max } = tierBounds(tier);
      expect(s).toBeGreaterThanOrEqual(min);
      if (tier !== "Legend") expect(s).toBeLessThan(max);
    }
    expect([39.9, 40, 59.9, 60, 74.9, 75, 89.9, 90].map(tierOf)).toEqual([
      "Bronze",
      "Silver",
      "Silver",
      "Gold",
      "Gold",
      "Master",
      "Master",
      "Legend",
    ]);
  });

  it("tiles 0–100 with the tiers in order", () => {
    expect(tierBounds(TIERS[0]).min).toBe(0);
    for (let i = 1; i < TIERS.length; i++) expect(tierBounds(TIERS[i]!).min).toBe(tierBounds(TIERS[i - 1]!).max);
    expect(tierBounds("Legend").max).toBe(100);
  });

  it("colours a known tier by its own colour and an unknown one as Silver", () => {
    expect(tierColor("Gold")).toBe(TIER_COLORS.Gold);
    expect(tierColor("Platinum")).toBe(TIER_COLORS.Silver);
    expect(tierColor(null)).toBe(TIER_COLORS.Silver);
  });

  it("labels every dimension", () => {
    expect(DIMENSIONS.map((d) => DIMENSION_LABELS[d])).toEqual([
      "Profitability",
      "Risk control",
      "Consistency",
      "Discipline",
      "Experience",
    ]);
  });
});
