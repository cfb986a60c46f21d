import { describe, expect, it } from "vitest";
import {
  formatCompact,
  formatDay,
  formatMoney,
  formatNumber,
  formatPercent,
  formatScore,
  formatUsd,
  figureText,
  sideLabel,
  truncateScore,
} from "./format-number";
import { tierOf } from "./vocabulary";

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
    expect(formatPercent(-0.05)).toBe("\u22125.0%");
    expect(formatPercent(-0.00001)).toBe("0.0%");
  });
});

describe("scores", () => {
  it("are cut, not rounded, to 0.1, so a shown score never crosses a tier bound", () => {
    expect(truncateScore(45.42242944345974)).toBe(45.4);
    expect(truncateScore(89.96)).toBe(89.9);
    expect(truncateScore(59.99)).toBe(59.9);
    expect(truncateScore(60.1)).toBe(60.1);
    expect(formatScore(89.96)).toBe("89.9");
    expect(formatScore(75)).toBe("75.0");
    expect(formatScore(null)).toBe("—");
  });
  it("read as a score of the tier they belong to, at every bound (the behind-market cap is 39.9, Bronze)", () => {
    const near = [0, 1e-9, 0.01, 0.05, 0.0999, 0.1, 0.5, 0.95, 0.99, 0.999999];
    for (const bound of [40, 60, 75, 90, 100]) {
      for (const d of near) {
        for (const score of [bound - d, bound + d].filter((s) => s >= 0 && s <= 100)) {
          expect(tierOf(Number(formatScore(score))), String(score)).toBe(tierOf(score));
        }
      }
    }
    expect(formatScore(39.9)).toBe("39.9");
  });
});

describe("money, numbers, dates and sides", () => {
  it("shows sub-cent prices with significant digits, not $0.00", () => {
    expect(formatUsd(0.00001234)).toBe("$0.0000123");
    expect(formatUsd(0.004)).toBe("$0.004");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(-4729.78)).toBe("\u2212$4,729.78");
    expect(figureText("Over the same time the S&P 500 rose 8.5 % while you lost 8.1 %.")).toBe(
      "Over the same time the S&P 500 rose 8.5% while you lost 8.1%.",
    );
    expect(figureText("Sharpe ratio of -0.71 (daily returns, annualised); lost -$12, ex-dividend.")).toBe(
      "Sharpe ratio of \u22120.71 (daily returns, annualised); lost \u2212$12, ex-dividend.",
    );
  });
  it("groups numbers, with optional fixed decimals", () => {
    expect(formatNumber(12345.678, 0)).toBe("12,346");
    expect(formatNumber(3, 1, 1)).toBe("3.0");
  });
  it("writes days as MMM D, YYYY in UTC and sides capitalised", () => {
    expect(formatDay(new Date("2025-07-01T23:30:00Z"))).toBe("Jul 1, 2025");
    expect(formatDay("2024-12-31T00:00:00Z")).toBe("Dec 31, 2024");
    expect(["buy", "sell", "long", "SHORT"].map(sideLabel)).toEqual(["Buy", "Sell", "Long", "Short"]);
  });
});

describe("amounts in the trader's locale (DECISIONS 205)", () => {
  const NNBSP = "\u202f"; // narrow no-break space: French groups thousands with it
  const NBSP = "\u00a0"; // no-break space: before the sign after the amount

  it("writes en-US by default, as before: $1,234.56", () => {
    expect(formatMoney(1234.56)).toBe("$1,234.56");
    expect(formatMoney(1234.56, "USD", "en-US")).toBe("$1,234.56");
    expect(formatMoney(1234.5, "EUR")).toBe("€1,234.50");
    expect(formatUsd(-4729.78, "en-US")).toBe("\u2212$4,729.78");
  });

  it("writes de-DE with a dot for thousands, a comma for decimals and the sign after: 1.234,56 €", () => {
    expect(formatMoney(1234.56, "EUR", "de-DE")).toBe(`1.234,56${NBSP}€`);
    expect(formatMoney(-1234.56, "EUR", "de-DE")).toBe(`\u22121.234,56${NBSP}€`);
    expect(formatMoney(1234.56, "USD", "de-DE")).toBe(`1.234,56${NBSP}$`);
    expect(formatUsd(0.00001234, "de-DE")).toBe(`0,0000123${NBSP}$`);
    expect(formatNumber(12345.678, 2, 0, "de-DE")).toBe("12.345,68");
  });

  it("writes fr-FR with narrow no-break spaces between thousands", () => {
    expect(formatMoney(1234.56, "EUR", "fr-FR")).toBe(`1${NNBSP}234,56${NBSP}€`);
    expect(formatMoney(-1234567.8, "EUR", "fr-FR")).toBe(`\u22121${NNBSP}234${NNBSP}567,80${NBSP}€`);
    expect(formatNumber(0.5, 6, 0, "fr-FR")).toBe("0,5");
  });

  it("gives each currency its own decimals: yen and won have none", () => {
    expect(formatMoney(1234.56, "JPY", "ja-JP")).toBe("￥1,235");
    expect(formatMoney(1234.56, "JPY", "en-US")).toBe("¥1,235");
    expect(formatMoney(1234.56, "KRW", "ko-KR")).toBe("₩1,235");
  });

  it("puts a true minus wherever the locale's sign stands, and a code beside the amount when Intl has no sign for it", () => {
    const shekels = formatMoney(-1234.56, "ILS", "he-IL");
    expect(shekels).toContain("\u22121,234.56");
    expect(shekels).not.toContain("-");
    expect(formatMoney(-1234.5, "XYZ", "de-DE")).toBe(`\u22121.234,50${NBSP}XYZ`);
    expect(formatMoney(-1234.5, "X1", "de-DE")).toBe("\u22121.234,5 X1");
    expect(formatMoney(Number.NaN, "EUR", "de-DE")).toBe("—");
  });
});
