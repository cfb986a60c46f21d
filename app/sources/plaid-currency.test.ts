import { describe, expect, it } from "vitest";
import {
  mapPlaidInvestments,
  plaidCurrencyOf,
  type PlaidHolding,
  type PlaidInvestmentTransaction,
  type PlaidSecurity,
} from "./plaid.server";

// Issue 32: Plaid's rows in any currency are mapped, each with its currency; none is skipped.
const ry = { security_id: "ry", ticker_symbol: "RY", name: "Royal Bank of Canada", type: "equity" } as PlaidSecurity;
const doge = { security_id: "doge", ticker_symbol: "DOGE", name: "Dogecoin", type: "cryptocurrency" } as PlaidSecurity;
const tx = (t: Partial<PlaidInvestmentTransaction>): PlaidInvestmentTransaction =>
  ({
    investment_transaction_id: `t${Math.random()}`,
    account_id: "a",
    security_id: null,
    date: "2025-05-06",
    quantity: 0,
    amount: 0,
    price: 0,
    fees: 0,
    type: "cash",
    subtype: "deposit",
    ...t,
  }) as PlaidInvestmentTransaction;

describe("plaidCurrencyOf", () => {
  it("reads iso_currency_code, else unofficial_currency_code, upper-cased; neither is USD", () => {
    expect(plaidCurrencyOf({ iso_currency_code: "CAD", unofficial_currency_code: null })).toBe("CAD");
    expect(plaidCurrencyOf({ iso_currency_code: null, unofficial_currency_code: "doge" })).toBe("DOGE");
    expect(plaidCurrencyOf({})).toBe("USD");
    expect(plaidCurrencyOf({ iso_currency_code: "", unofficial_currency_code: "" })).toBe("USD");
  });
});

describe("mapPlaidInvestments in other currencies", () => {
  it("maps CAD trades, a CAD deposit, dividend and fee, and an unofficial code, each with its currency", () => {
    const mapped = mapPlaidInvestments({
      transactions: [
        tx({ amount: -20_000, iso_currency_code: "CAD" }),
        tx({
          security_id: "ry",
          type: "buy",
          subtype: "buy",
          quantity: 40,
          price: 165.2,
          fees: 4.95,
          amount: 6612.95,
          iso_currency_code: "CAD",
        }),
        tx({ security_id: "ry", subtype: "dividend", amount: -94.25, iso_currency_code: "CAD" }),
        tx({ type: "fee", subtype: "account fee", amount: 9.95, iso_currency_code: "CAD" }),
        tx({
          security_id: "doge",
          type: "buy",
          subtype: "buy",
          quantity: 1000,
          price: 0.2,
          amount: 200,
          iso_currency_code: null,
          unofficial_currency_code: "XDG",
        }),
        tx({ amount: -500, iso_currency_code: "USD" }),
      ],
      securities: [ry, doge],
      holdings: [
        { account_id: "a", security_id: "ry", quantity: 40, institution_price: 188.4, iso_currency_code: "CAD" },
      ] as PlaidHolding[],
      asOf: new Date("2026-10-30T20:00:00Z"),
    });
    expect(mapped.stats.skipped).toEqual({});
    expect(mapped.stats.currencies).toEqual({ CAD: 4, XDG: 1 });
    expect(mapped.trades.map((t) => [t.symbol, t.price, t.fee, t.currency])).toEqual([
      ["RY", 165.2, 4.95, "CAD"],
      ["DOGE", 0.2, 0, "XDG"],
    ]);
    // USD rows stay as they were, without the field.
    expect(mapped.cashFlows.map((c) => [c.amount, c.currency])).toEqual([
      [20_000, "CAD"],
      [500, undefined],
    ]);
    expect(mapped.events.map((e) => [e.kind, e.currency])).toEqual([
      ["income", "CAD"],
      ["fee", "CAD"],
    ]);
    expect(mapped.marks).toEqual([
      { symbol: "RY", time: new Date("2026-10-30T20:00:00Z"), price: 188.4, currency: "CAD" },
    ]);
  });
});
