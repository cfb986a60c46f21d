import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { flexDate, flexTime, parseFlexStatement, type FlexStatement } from "./flex";

const xml = readFileSync(new URL("../../../test/fixtures/ibkr/activity.xml", import.meta.url), "utf8");

function parsed(): FlexStatement {
  const r = parseFlexStatement(xml);
  if (!r.ok) throw new Error(r.problems.join("; "));
  return r;
}

describe("Flex dates", () => {
  it("reads the formats a query may choose", () => {
    expect(flexDate("20250314")).toBe("2025-03-14");
    expect(flexDate("2025-03-14")).toBe("2025-03-14");
    expect(flexDate("03/14/2025")).toBe("2025-03-14");
    expect(flexDate("14.03.2025")).toBeNull();
    expect(flexTime("20250314;093015")?.toISOString()).toBe("2025-03-14T09:30:15.000Z");
    expect(flexTime("2025-03-14, 09:30:15")?.toISOString()).toBe("2025-03-14T09:30:15.000Z");
    expect(flexTime("20250314")?.toISOString()).toBe("2025-03-14T00:00:00.000Z");
    expect(flexTime("20250314;9h")).toBeNull();
  });
});

describe("parseFlexStatement", () => {
  it("reads the account and the period", () => {
    const s = parsed();
    expect(s).toMatchObject({
      accountId: "U7654321",
      fromDate: "2025-01-02",
      toDate: "2025-12-31",
      baseCurrency: "USD",
    });
    expect(s.dateOpened).toBe("2024-03-11");
  });

  it("maps stock trades in their currency, with IBKR's negative commission as a positive fee", () => {
    const s = parsed();
    const aapl = s.trades.filter((t) => t.symbol === "AAPL");
    expect(aapl).toEqual([
      {
        externalId: "ibkr:9001",
        time: new Date("2025-03-03T10:05:12Z"),
        symbol: "AAPL",
        assetClass: "stock",
        side: "buy",
        quantity: 10,
        price: 180,
        fee: 1,
        currency: "USD",
      },
      expect.objectContaining({ externalId: "ibkr:9002", side: "sell", quantity: 10, price: 200, fee: 1 }),
    ]);
    expect(s.trades.find((t) => t.symbol === "SAP")).toMatchObject({
      currency: "EUR",
      fee: 2,
      quantity: 20,
      price: 200,
    });
  });

  it("keeps a future's multiplier and expiry and an option's contract size", () => {
    const s = parsed();
    expect(s.trades.find((t) => t.symbol === "ESH5")).toMatchObject({
      assetClass: "future",
      quantity: 1,
      price: 5900,
      multiplier: 50,
      expiry: "2025-03-21",
      fee: 2.25,
    });
    expect(s.trades.find((t) => t.assetClass === "option")).toMatchObject({
      symbol: "AAPL 250620C00200000",
      quantity: 2,
      price: 5.5,
      multiplier: 100,
      expiry: "2025-06-20",
    });
  });

  it("reads a CASH trade as an exchange of one cash balance for another, never a position", () => {
    const s = parsed();
    expect(s.trades.some((t) => t.symbol.includes("."))).toBe(false);
    // Bought 10,000 EUR.USD at 1.085: 10,850 USD (IBKR's proceeds) sold, 10,000 EUR bought, the
    // USD commission in the sold currency.
    expect(s.events).toContainEqual({
      externalId: "ibkr:9006",
      time: new Date("2025-02-12T12:00:00Z"),
      currency: "EUR",
      kind: "fx",
      sell: "USD",
      sellAmount: 10850,
      buy: "EUR",
      buyAmount: 10000,
      fee: 2,
    });
    // Sold 5,000 EUR.GBP at 0.84 (no proceeds given): 5,000 EUR for 4,200 GBP; its commission is in
    // USD, neither side of the pair: a fee event of its own.
    expect(s.events).toContainEqual(
      expect.objectContaining({ externalId: "ibkr:9010", kind: "fx", sell: "EUR", sellAmount: 5000, buy: "GBP" }),
    );
    const gbp = s.events.find((e) => e.externalId === "ibkr:9010");
    expect(gbp && gbp.kind === "fx" && gbp.buyAmount).toBeCloseTo(4200, 9);
    expect(gbp).not.toHaveProperty("fee");
    expect(s.events).toContainEqual(
      expect.objectContaining({ externalId: "ibkr:commission:9010", kind: "fee", amount: 2, currency: "USD" }),
    );
  });

  it("undoes a cancelled exchange with the opposite one, and counts a pair it cannot read", () => {
    const row = (attrs: string) =>
      `<FlexQueryResponse><FlexStatements count="1"><FlexStatement accountId="U1" fromDate="20250101" toDate="20251231"><Trades>` +
      `<Trade currency="USD" assetCategory="CASH" ${attrs} levelOfDetail="EXECUTION" />` +
      `</Trades></FlexStatement></FlexStatements></FlexQueryResponse>`;
    const cancelled = parseFlexStatement(
      row(
        `symbol="EUR.USD" transactionID="1" dateTime="20250301;100000" quantity="-1000" tradePrice="1.1" ibCommission="0" buySell="BUY (Ca.)" transactionType="TradeCancel"`,
      ),
    );
    if (!cancelled.ok) throw new Error(cancelled.problems.join("; "));
    expect(cancelled.events).toEqual([
      expect.objectContaining({ externalId: "ibkr:cancel:1", kind: "fx", sell: "EUR", sellAmount: 1000, buy: "USD" }),
    ]);
    const odd = parseFlexStatement(
      row(
        `symbol="EURUSD" transactionID="2" dateTime="20250301;100000" quantity="1000" tradePrice="1.1" buySell="BUY"`,
      ),
    );
    if (!odd.ok) throw new Error(odd.problems.join("; "));
    expect(odd.events).toEqual([]);
    expect(odd.skipped).toEqual({ "currency exchange without its id, time, pair, quantity or price": 1 });
  });

  it("turns a cancellation into a cancel, leaves order summaries out and counts a bond", () => {
    const s = parsed();
    expect(s.trades.map((t) => t.externalId)).not.toContain("ibkr:9007");
    expect(s.events).toContainEqual(
      expect.objectContaining({ kind: "cancel", symbol: "MSFT", quantity: 5, amount: 2000 }),
    );
    // Nine execution rows: a cancel, a bond and two currency exchanges are not trades.
    expect(s.trades).toHaveLength(5);
    expect(s.skipped["trade in BOND"]).toBe(1);
  });

  it("maps cash transactions to flows, income and fees", () => {
    const s = parsed();
    expect(s.cashFlows).toEqual([
      { externalId: "ibkr:cash:8001", time: new Date("2025-01-02T12:00:00Z"), amount: 50000, currency: "USD" },
      { externalId: "ibkr:cash:8007", time: new Date("2025-12-01T10:00:00Z"), amount: -2000, currency: "USD" },
    ]);
    const byId = Object.fromEntries(s.events.map((e) => [e.externalId, e]));
    expect(byId["ibkr:cash:8002"]).toMatchObject({ kind: "income", amount: 2.5, symbol: "AAPL" });
    expect(byId["ibkr:cash:8003"]).toMatchObject({ kind: "fee", amount: 0.38 });
    expect(byId["ibkr:cash:8004"]).toMatchObject({ kind: "fee", amount: 4.12, currency: "EUR" });
    expect(byId["ibkr:cash:8005"]).toMatchObject({ kind: "income", amount: 12.07 });
    expect(byId["ibkr:cash:8006"]).toMatchObject({ kind: "fee", amount: 10 });
    expect(s.skipped["cash transaction Price Adjustments"]).toBe(1);
  });

  it("maps splits, a reverse split, a merger and a spin-off; counts a delisting", () => {
    const s = parsed();
    const ca = s.events.filter((e) => e.externalId.startsWith("ibkr:ca:"));
    expect(ca).toEqual([
      expect.objectContaining({ kind: "shares", symbol: "NVDA", quantity: 90, reason: "split" }),
      expect.objectContaining({ kind: "shares", symbol: "XYZ", quantity: -300, reason: "reverse split" }),
      expect.objectContaining({ kind: "merger", symbol: "OLDCO", to: "NEWCO", ratio: 0.5 }),
      expect.objectContaining({ kind: "spinoff", symbol: "KD", quantity: 4, price: 0 }),
    ]);
    expect(s.skipped["corporate action DW"]).toBe(1);
  });

  it("reads conversion rates and open positions' marks", () => {
    const s = parsed();
    expect(s.conversionRates).toContainEqual({ date: "2025-12-31", from: "EUR", to: "USD", rate: 1.0812 });
    expect(s.marks).toEqual([{ symbol: "SAP", time: new Date("2025-12-31T00:00:00Z"), price: 210.5, currency: "EUR" }]);
  });

  it("refuses what is not one account's Activity statement, saying why", () => {
    expect(parseFlexStatement("")).toEqual({ ok: false, problems: ["The statement is empty."] });
    const bad = parseFlexStatement("<FlexQueryResponse><FlexStatements>");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems[0]).toMatch(/not valid XML/);
    expect(parseFlexStatement("<html><body>hi</body></html>")).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/root element is not FlexQueryResponse/)],
    });
    expect(
      parseFlexStatement(
        "<FlexStatementResponse><Status>Fail</Status><ErrorCode>1012</ErrorCode><ErrorMessage>Token has expired.</ErrorMessage></FlexStatementResponse>",
      ),
    ).toEqual({ ok: false, code: 1012, problems: [expect.stringMatching(/Token has expired/)] });
    const two = `<FlexQueryResponse type="AF"><FlexStatements count="2">
      <FlexStatement accountId="U1" fromDate="20250101" toDate="20250102"/>
      <FlexStatement accountId="U2" fromDate="20250101" toDate="20250102"/></FlexStatements></FlexQueryResponse>`;
    expect(parseFlexStatement(two)).toMatchObject({ ok: false, problems: [expect.stringMatching(/2 accounts/)] });
    const noPeriod = `<FlexQueryResponse type="AF"><FlexStatements count="1"><FlexStatement accountId="U1"/></FlexStatements></FlexQueryResponse>`;
    expect(parseFlexStatement(noPeriod)).toMatchObject({ ok: false, problems: [expect.stringMatching(/no period/)] });
    const tcf = `<FlexQueryResponse type="TCF"><FlexStatements count="1"><FlexStatement accountId="U1" fromDate="20250101" toDate="20250102"/></FlexStatements></FlexQueryResponse>`;
    expect(parseFlexStatement(tcf)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/Trade Confirmation/)],
    });
  });

  it("reads an empty statement of one account as no rows", () => {
    const empty = `<FlexQueryResponse queryName="q" type="AF"><FlexStatements count="1"><FlexStatement accountId="U1" fromDate="2025-01-01" toDate="2025-12-31"><Trades/><CashTransactions></CashTransactions></FlexStatement></FlexStatements></FlexQueryResponse>`;
    expect(parseFlexStatement(empty)).toMatchObject({
      ok: true,
      accountId: "U1",
      trades: [],
      cashFlows: [],
      events: [],
    });
  });
});
