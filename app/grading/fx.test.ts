// Every currency (fx.ts): rates carried forward, the benchmark in the base, what cannot be valued.
import { describe, expect, it } from "vitest";
import { rateAt, rateTable } from "./fx";
import { grade, parseLedger, type LedgerInput } from "./index";

const valid = (input: LedgerInput) => {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return r.ledger;
};

describe("reference rates", () => {
  it("carry the last rate on or before an instant forward over a weekend, and none before the first", () => {
    const table = rateTable(
      valid({
        trades: [],
        fxRates: {
          source: "ECB",
          rates: [
            { currency: "EUR", time: "2024-01-05", rate: 1.09 }, // a Friday
            { currency: "EUR", time: "2024-01-08", rate: 1.1 },
          ],
        },
      }),
    );
    expect(rateAt(table, "EUR", Date.parse("2024-01-06T12:00:00Z"))).toBe(1.09);
    expect(rateAt(table, "EUR", Date.parse("2024-01-08T00:00:00Z"))).toBe(1.1);
    expect(rateAt(table, "EUR", Date.parse("2024-01-04T23:59:59Z"))).toBeNaN();
    expect(rateAt(table, "USD", 0)).toBe(1);
    expect(rateAt(table, "GBP", Date.parse("2024-01-08"))).toBeNaN();
  });
});

describe("the benchmark in the base currency", () => {
  const trades = [
    {
      id: "b",
      account: "a",
      time: "2024-01-02T15:00:00Z",
      symbol: "SAP",
      assetClass: "stock" as const,
      side: "buy" as const,
      quantity: 10,
      price: 100,
    },
  ];
  const base: LedgerInput = {
    baseCurrency: "EUR",
    cashFlows: [{ account: "a", time: "2024-01-02", amount: 1000 }],
    trades,
    prices: [{ symbol: "SAP", time: "2024-01-31", price: 110 }],
  };

  it("is converted close by close: the S&P 500 flat in dollars rose in euros as the dollar rose", () => {
    const e = grade(
      valid({
        ...base,
        benchmark: {
          symbol: "SPY",
          prices: [
            { time: "2024-01-02", price: 100 },
            { time: "2024-01-31", price: 100 },
          ],
        },
        fxRates: {
          source: "ECB",
          rates: [
            { currency: "USD", time: "2024-01-02", rate: 0.9 },
            { currency: "USD", time: "2024-01-31", rate: 0.99 },
          ],
        },
      }),
    );
    expect(e.metrics.benchmark?.return).toBeCloseTo(0.1, 12);
    expect(e.metrics.baseCurrency).toBe("EUR");
    // Every row in the base: no currency split.
    expect("currencyReturn" in e.metrics).toBe(false);
  });

  it("leaves out a close without a rate and says so", () => {
    const e = grade(
      valid({
        ...base,
        benchmark: {
          symbol: "SPY",
          prices: [
            { time: "2024-01-01", price: 100 },
            { time: "2024-01-31", price: 100 },
          ],
        },
        fxRates: { source: "ECB", rates: [{ currency: "USD", time: "2024-01-02", rate: 0.9 }] },
      }),
    );
    expect(e.warnings).toContain(
      "1 benchmark close(s) in USD could not be valued in EUR and were left out: there is no USD rate on or before their date.",
    );
  });
});
