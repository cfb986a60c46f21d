import { describe, expect, it } from "vitest";
import type { Ledger } from "~/grading";
import { mapPlaidInvestments, plaidHoldingPositions } from "~/sources/plaid.server";
import { demoBrokerage } from "../../../test/mocks/plaid-data";
import { resolveEvents, type StoredEvent } from "../grades/ledger-events";
import { positionDisagreements, positionsOf } from "./reconcile";

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
