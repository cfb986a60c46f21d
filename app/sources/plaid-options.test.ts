import { describe, expect, it } from "vitest";
import {
  mapPlaidInvestments,
  optionMultiplier,
  type PlaidInvestmentTransaction,
  type PlaidSecurity,
} from "./plaid.server";

describe("option contract multipliers", () => {
  it("reads the multiplier from the fill's cash, else the standard 100", () => {
    expect(optionMultiplier(2, 8.4, 1680)).toBe(100);
    expect(optionMultiplier(5, 1.2, 60)).toBe(10);
    expect(optionMultiplier(1, 4, 600)).toBe(150); // adjusted after a corporate action
    expect(optionMultiplier(200, 8.4, 1680)).toBe(1); // an institution reporting shares
    expect(optionMultiplier(2, 8.4, 0)).toBe(100);
    expect(optionMultiplier(2, 8.4, 1234.5)).toBe(100); // no whole multiplier fits
  });

  it("maps an option fill to shares at its multiplier, its price per share and its fee", () => {
    const security: PlaidSecurity = {
      security_id: "opt",
      ticker_symbol: null,
      type: "derivative",
      option_contract: {
        contract_type: "put",
        expiration_date: "2026-03-20",
        strike_price: 50,
        underlying_security_ticker: "xyz",
      },
    };
    const tx = (
      id: string,
      quantity: number,
      amount: number,
      price: number,
      fees: number,
    ): PlaidInvestmentTransaction => ({
      investment_transaction_id: id,
      account_id: "a",
      security_id: "opt",
      date: "2026-01-05",
      quantity,
      amount,
      price,
      fees,
      type: quantity > 0 ? "buy" : "sell",
      subtype: quantity > 0 ? "buy" : "sell",
    });
    const { trades } = mapPlaidInvestments({
      transactions: [tx("standard", 2, 1681.3, 8.4, 1.3), tx("mini", -3, -35.35, 1.2, 0.65)],
      securities: [security],
      holdings: [],
      asOf: new Date("2026-02-01T00:00:00Z"),
    });
    expect(trades.map((t) => [t.externalId, t.symbol, t.assetClass, t.side, t.quantity, t.price, t.fee])).toEqual([
      ["standard", "XYZ 2026-03-20 P50", "option", "buy", 200, 8.4, 1.3],
      ["mini", "XYZ 2026-03-20 P50", "option", "sell", 30, 1.2, 0.65],
    ]);
  });
});
