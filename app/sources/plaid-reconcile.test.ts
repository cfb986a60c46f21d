import { describe, expect, it } from "vitest";
import type { Ledger } from "~/grading";
import { resolveEvents, type StoredEvent } from "~/server/ledger-events";
import { positionDisagreements, positionsOf } from "~/server/reconcile";
import { demoBrokerage } from "../../test/mocks/plaid-data";
import {
  mapPlaidInvestments,
  optionMultiplier,
  plaidHoldingPositions,
  type PlaidInvestmentTransaction,
  type PlaidSecurity,
} from "./plaid.server";

// The demo brokerage's transactions, mapped and resolved as an import and the ledger builder do,
// add up to the holdings the simulator reports: reconciliation finds nothing on a consistent history.
function ledgerOf(username: string): Pick<Ledger, "trades" | "events"> {
  const b = demoBrokerage(username);
  const mapped = mapPlaidInvestments({
    transactions: b.transactions,
    securities: b.securities,
    holdings: [],
    asOf: new Date("2026-11-01T00:00:00Z"),
  });
  const trades = mapped.trades.map((t) => ({
    ...t,
    id: `1:${t.externalId}`,
    account: "1",
    time: t.time.toISOString(),
  }));
  const stored: StoredEvent[] = mapped.events.map(({ externalId, time, kind, ...rest }) => ({
    account: "1",
    externalId,
    time: time.toISOString(),
    kind,
    symbol: "symbol" in rest ? (rest.symbol ?? null) : null,
    data: rest as Record<string, unknown>,
  }));
  const resolved = resolveEvents(trades, stored);
  return { trades: resolved.trades, events: resolved.events };
}

describe("holdings reconciliation of the demo brokerage", () => {
  it.each(["user_good", "user_good_b", "user_good_c"])(
    "%s: computed positions equal the reported holdings",
    (username) => {
      const b = demoBrokerage(username);
      const reported = plaidHoldingPositions(b);
      expect(reported.get("HON")).toBe(8);
      expect(reported.has("VMFXX")).toBe(false); // cash equivalents are not positions
      expect(positionDisagreements(positionsOf(ledgerOf(username), "1"), reported)).toEqual([]);
    },
  );

  it("names the one symbol whose reported quantity differs", () => {
    const b = demoBrokerage("user_good");
    const hon = b.securities.find((s) => s.ticker_symbol === "HON")!.security_id;
    const holdings = b.holdings.map((h) => (h.security_id === hon ? { ...h, quantity: 10 } : h));
    expect(
      positionDisagreements(
        positionsOf(ledgerOf("user_good"), "1"),
        plaidHoldingPositions({ holdings, securities: b.securities }),
      ),
    ).toEqual([{ symbol: "HON", computed: 8, reported: 10 }]);
  });

  it("counts option holdings in shares (contracts × their multiplier), as the trades are", () => {
    const b = demoBrokerage("user_good");
    const option = b.securities.find((s) => s.option_contract)!;
    const holding = (quantity: number, value: number | null) => ({
      ...b.holdings[0]!,
      security_id: option.security_id,
      quantity,
      institution_price: 9.6,
      institution_value: value as number,
    });
    const held = (quantity: number, value: number | null) =>
      plaidHoldingPositions({ holdings: [holding(quantity, value)], securities: b.securities }).get(
        "AAPL261218C00250000",
      );
    expect(held(2, 1920)).toBe(200); // standard: 100 a contract
    expect(held(3, 288)).toBe(30); // mini options: 10 a contract
    expect(held(2, null)).toBe(200); // no value stated: the standard multiplier
  });
});

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
