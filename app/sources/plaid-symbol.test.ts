import { describe, expect, it } from "vitest";
import { symbolOf, type PlaidSecurity } from "./plaid.server";

const sec = (s: Partial<PlaidSecurity>) =>
  ({
    security_id: "s1",
    name: null,
    ticker_symbol: null,
    cusip: null,
    isin: null,
    type: "mutual fund",
    ...s,
  }) as PlaidSecurity;

describe("symbolOf", () => {
  it("names a holding by its ticker, else by its name, never by a bare CUSIP when a name exists", () => {
    expect(symbolOf(sec({ ticker_symbol: " vti ", name: "Vanguard Total Stock Market ETF" }))).toBe("VTI");
    expect(symbolOf(sec({ cusip: "92202V351", name: "Vanguard Target Retirement 2050 Trust II" }))).toBe(
      "Vanguard Target Retirement 2050 Trust II",
    );
    expect(symbolOf(sec({ cusip: "92202V351" }))).toBe("CUSIP:92202V351");
    expect(symbolOf(sec({ isin: "US92202V3513", name: "  " }))).toBe("ISIN:US92202V3513");
  });
});
