// Futures, forex and CFDs (ledger v3.2, DECISIONS 196 and 197): what the fixtures 36–39 do not
// already pin down — a pair's P&L reaching another base, expiry edges, margin cash and funding.
import { describe, expect, it } from "vitest";
import { grade, listRoundTrips, parseLedger, type LedgerInput } from "./index";

const future = (id: string, time: string, side: "buy" | "sell", price: number, over: Record<string, unknown> = {}) => ({
  id,
  account: "ib",
  time,
  symbol: "ESH4",
  assetClass: "future" as const,
  side,
  quantity: 1,
  price,
  fee: 0,
  multiplier: 50,
  expiry: "2024-03-15",
  ...over,
});

function graded(input: LedgerInput) {
  const r = parseLedger(input);
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger);
}

describe("contracts", () => {
  it("a EUR trader's EUR.USD: 800 USD of P&L reaches the base at the closing day's rate (742.12 EUR), on 5× leverage", () => {
    const pair = (id: string, time: string, side: "buy" | "sell", price: number) => ({
      id,
      account: "fx",
      time,
      symbol: "EUR.USD",
      assetClass: "forex" as const,
      side,
      quantity: 1,
      price,
      fee: 0,
      multiplier: 100_000,
      currency: "USD",
    });
    const ev = graded({
      baseCurrency: "EUR",
      asOf: "2024-05-10T21:00:00Z",
      cashFlows: [{ account: "fx", time: "2024-05-01T09:00:00Z", amount: 20_000 }],
      trades: [pair("b", "2024-05-02T09:00:00Z", "buy", 1.07), pair("s", "2024-05-09T09:00:00Z", "sell", 1.078)],
      fxRates: {
        source: "test",
        rates: [
          { currency: "USD", time: "2024-05-02", rate: 1 / 1.07 },
          { currency: "USD", time: "2024-05-09", rate: 1 / 1.078 },
        ],
      },
    });
    // Long EUR against USD is, for a EUR trader, a short of 107,000 USD bought back with 107,800 USD
    // of euros: the 800 USD gained, at 1.078, are 742.115… EUR.
    expect(ev.metrics.totalPnl).toBeCloseTo(800 / 1.078, 6);
    expect(ev.metrics.equity).toBeCloseTo(20_000 + 800 / 1.078, 6);
    expect(ev.metrics.maxLeverage).toBeCloseTo(5, 9);
    expect(ev.warnings.join("\n")).not.toContain("Cash fell below zero");
  });

  it("a contract open at asOf before its expiry stays open, marked; none is written", () => {
    const ev = graded({
      asOf: "2024-03-15T12:00:00Z",
      cashFlows: [{ account: "ib", time: "2024-03-01T00:00:00Z", amount: 50_000 }],
      trades: [future("b", "2024-03-04T14:30:00Z", "buy", 5100)],
      prices: [{ symbol: "ESH4", time: "2024-03-14T21:00:00Z", price: 5120, confidence: 1 }],
    });
    expect(ev.positions).toMatchObject([{ symbol: "ESH4", quantity: 1, multiplier: 50, unrealizedPnl: 1000 }]);
    expect(ev.metrics.trades).toBe(1);
    expect(ev.warnings.join("\n")).not.toContain("expired");
  });

  it("a short past its expiry is bought back at its last price; a closed one is left alone", () => {
    const input: LedgerInput = {
      asOf: "2024-04-01T00:00:00Z",
      cashFlows: [{ account: "ib", time: "2024-03-01T00:00:00Z", amount: 50_000 }],
      trades: [
        future("s", "2024-03-04T14:30:00Z", "sell", 5100, { quantity: 2 }),
        future("x", "2024-03-05T14:30:00Z", "buy", 5000, { symbol: "NQH4", multiplier: 20 }),
        future("y", "2024-03-06T14:30:00Z", "sell", 5010, { symbol: "NQH4", multiplier: 20 }),
      ],
      prices: [
        { symbol: "ESH4", time: "2024-03-15T13:30:00Z", price: 5050, confidence: 1 },
        // After the expiry: not the settlement price.
        { symbol: "ESH4", time: "2024-03-20T13:30:00Z", price: 4000 },
      ],
    };
    const ev = graded(input);
    // (5100 − 5050) × 2 × 50 on ES, (5010 − 5000) × 20 on NQ.
    expect(ev.metrics.realizedPnl).toBeCloseTo(5000 + 200, 9);
    expect(ev.positions).toEqual([]);
    expect(ev.warnings).toContain(
      "Data quality: ESH4 in account ib expired on 2024-03-15 with 2 still short and no closing trade; closed at its last price, 5050, at the end of that day (trade expiry:ib:ESH4).",
    );
    expect(ev.warnings.join("\n")).not.toContain("NQH4 in account");
    const parsed = parseLedger(input);
    if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
    const trips = listRoundTrips(parsed.ledger);
    expect(trips.map((t) => [t.symbol, t.side, t.closeTime])).toEqual([
      ["NQH4", "long", "2024-03-06T14:30:00.000Z"],
      ["ESH4", "short", "2024-03-15T23:59:59.999Z"],
    ]);
  });

  it("a EUR trader's dollar future past its expiry: settled in dollars, its P&L reaching euros at the day's rate", () => {
    const ev = graded({
      baseCurrency: "EUR",
      asOf: "2024-03-29T21:00:00Z",
      cashFlows: [{ account: "ib", time: "2024-03-01T00:00:00Z", amount: 30_000 }],
      trades: [future("b", "2024-03-04T14:30:00Z", "buy", 5000, { currency: "USD" })],
      prices: [{ symbol: "ESH4", time: "2024-03-15T20:00:00Z", price: 5100, confidence: 1 }],
      fxRates: {
        source: "test",
        rates: [
          { currency: "USD", time: "2024-03-01", rate: 0.9 },
          { currency: "USD", time: "2024-03-15", rate: 0.92 },
        ],
      },
    });
    // (5100 − 5000) × 50 = 5,000 USD, held in dollars since, at 0.92.
    expect(ev.metrics.totalPnl).toBeCloseTo(4600, 6);
    expect(ev.positions).toEqual([]);
    expect(ev.warnings.join("\n")).toContain("ESH4 in account ib expired on 2024-03-15 with 1 still long");
  });

  it("without deposits a future is funded by its notional (leverage 1): no capital is invented", () => {
    const ev = graded({
      asOf: "2024-03-14T21:00:00Z",
      trades: [future("b", "2024-03-04T14:30:00Z", "buy", 5000), future("s", "2024-03-14T14:30:00Z", "sell", 5100)],
    });
    expect(ev.metrics.impliedFunding).toBe(250_000);
    expect(ev.metrics.realizedPnl).toBe(5000);
    expect(ev.metrics.simpleReturn).toBeCloseTo(0.02, 12);
  });

  it("only margin leaves cash: a future's notional is no cash below zero, but a loss beyond the deposit is", () => {
    const base = {
      asOf: "2024-03-14T21:00:00Z",
      cashFlows: [{ account: "ib", time: "2024-03-01T00:00:00Z", amount: 10_000 }],
    };
    const held = graded({ ...base, trades: [future("b", "2024-03-04T14:30:00Z", "buy", 5000)] });
    expect(held.metrics.cash).toBe(10_000);
    expect(held.metrics.maxLeverage).toBe(25);
    expect(held.warnings.join("\n")).not.toContain("Cash fell below zero");
    // Bought at 5000 and sold at 4700: 15,000 lost on a 10,000 deposit.
    const blown = graded({
      ...base,
      trades: [future("b", "2024-03-04T14:30:00Z", "buy", 5000), future("s", "2024-03-05T14:30:00Z", "sell", 4700)],
    });
    expect(blown.metrics.cash).toBe(-5000);
    expect(blown.warnings.join("\n")).toContain("Cash fell below zero");
    // The same as a stock, paid in full: cash below zero from the first buy.
    const stock = graded({
      ...base,
      trades: [
        { ...future("b", "2024-03-04T14:30:00Z", "buy", 5000), assetClass: "stock", multiplier: 50, expiry: undefined },
      ],
    });
    expect(stock.warnings.join("\n")).toContain("Cash fell below zero");
    expect(stock.metrics.cash).toBe(-240_000);
  });
});
