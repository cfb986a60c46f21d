import { describe, expect, it } from "vitest";
import { parseLedger } from "./index";

const trade = (over: Record<string, unknown> = {}) => ({
  id: "t1",
  account: "main",
  time: "2024-01-02T15:00:00Z",
  symbol: "AAPL",
  assetClass: "stock",
  side: "buy",
  quantity: 1,
  price: 100,
  ...over,
});

describe("parseLedger", () => {
  it("accepts a minimal ledger and applies defaults", () => {
    const r = parseLedger({ trades: [trade()] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.ledger.cashFlows).toEqual([]);
    expect(r.ledger.prices).toEqual([]);
    expect(r.ledger.trades[0].fee).toBe(0);
  });

  it("accepts JSON text and numeric ids (normalised to strings)", () => {
    const r = parseLedger(JSON.stringify({ trades: [trade({ id: 7 })], cashFlows: [] }));
    expect(r.ok && r.ledger.trades[0].id).toBe("7");
  });

  it("lists every problem as `path: reason`, in document order", () => {
    const r = parseLedger({
      asOf: "yesterday",
      trades: [
        trade(),
        trade({ id: "t2", quantity: 0 }),
        trade({ id: "t3", price: -1, fee: -2 }),
        trade({ id: "t4", assetClass: "bond", side: "hold", time: "2024-01-02T15:00:00" }),
      ],
      cashFlows: [{ account: "main", time: "2024-01-01", amount: "100" }],
      prices: [{ symbol: "AAPL", time: "2024-02-30", price: 1 }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      "asOf: must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone (Z or ±HH:MM)",
      "trades[1].quantity: must be > 0",
      "trades[2].price: must be ≥ 0",
      "trades[2].fee: must be ≥ 0",
      "trades[3].time: must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone (Z or ±HH:MM)",
      "trades[3].assetClass: must be one of stock, etf, crypto, option, future, forex, cfd",
      "trades[3].side: must be buy or sell",
      "cashFlows[0].amount: must be a number",
      "prices[0].time: must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone (Z or ±HH:MM)",
    ]);
  });

  it("refuses duplicate trade ids, naming both", () => {
    const r = parseLedger({ trades: [trade({ id: "a" }), trade({ id: "b" }), trade({ id: "a" })] });
    expect(r).toEqual({ ok: false, problems: ['trades[2].id: duplicate of trades[0].id ("a")'] });
  });

  it("reports duplicates alongside other problems", () => {
    const r = parseLedger({ trades: [trade({ id: "a", price: -5 }), trade({ id: "a" })] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual(["trades[0].price: must be ≥ 0", 'trades[1].id: duplicate of trades[0].id ("a")']);
  });

  it("reports missing fields, wrong types and bad roots", () => {
    const r = parseLedger({ trades: [{ id: "x" }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toContain("trades[0].account: is required");
    expect(r.problems).toContain("trades[0].quantity: is required");
    expect(parseLedger({})).toEqual({ ok: false, problems: ["trades: is required"] });
    expect(parseLedger([])).toEqual({ ok: false, problems: ["(root): must be an object"] });
    expect(parseLedger({ trades: {} })).toEqual({ ok: false, problems: ["trades: must be an array"] });
    const bad = parseLedger("{not json");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems[0]).toMatch(/^\(root\): invalid JSON/);
  });

  it("accepts offsets and date-only times, refuses zone-less date-times and impossible dates", () => {
    expect(parseLedger({ trades: [trade({ time: "2024-01-02T10:00:00+02:00" })] }).ok).toBe(true);
    expect(parseLedger({ trades: [trade({ time: "2024-01-02" })] }).ok).toBe(true);
    expect(parseLedger({ trades: [trade({ time: "2024-01-02T10:00:00" })] }).ok).toBe(false);
    expect(parseLedger({ trades: [trade({ time: "2023-02-29" })] }).ok).toBe(false);
    expect(parseLedger({ trades: [trade({ time: "2024-01-02T24:00:00Z" })] }).ok).toBe(false);
  });
});

describe("parseLedger, edges (issue 29, point 5)", () => {
  const NOW = Date.UTC(2026, 11, 3, 9, 0);

  it("refuses, without asOf, an item dated in the future of the caller's clock", () => {
    // v2 graded 2099 for 2023 as a 76-year record.
    const r = parseLedger(
      {
        trades: [trade({ time: "2023-01-02" }), trade({ id: "t2", side: "sell", time: "2099-01-05T10:00:00Z" })],
        cashFlows: [{ account: "main", time: "2099-01-01", amount: 100 }],
      },
      { now: NOW },
    );
    expect(r).toEqual({
      ok: false,
      problems: [
        "trades[1].time: 2099-01-05T10:00:00Z is in the future (today is 2026-12-03); check the time, or set asOf to grade up to a date",
        "cashFlows[0].time: 2099-01-01 is in the future (today is 2026-12-03); check the time, or set asOf to grade up to a date",
      ],
    });
  });

  it("accepts the trader's today in any time zone, and a future item when asOf is set (it is left out)", () => {
    // UTC+14: the trader's date is a day ahead of UTC's.
    expect(parseLedger({ trades: [trade({ time: "2026-12-04T08:00:00+14:00" })] }, { now: NOW }).ok).toBe(true);
    expect(parseLedger({ trades: [trade({ time: "2026-12-04" })] }, { now: NOW }).ok).toBe(true);
    expect(parseLedger({ trades: [trade({ time: "2026-12-05" })] }, { now: NOW }).ok).toBe(false);
    const r = parseLedger(
      { asOf: "2026-12-01", trades: [trade(), trade({ id: "t2", time: "2099-01-05" })] },
      { now: NOW },
    );
    expect(r.ok).toBe(true);
  });

  it("refuses a cash flow of 0 and a transfer within one account", () => {
    const r = parseLedger({
      trades: [trade()],
      cashFlows: [
        { account: "main", time: "2024-01-01", amount: 0 },
        { account: "main", time: "2024-01-01", amount: 10 },
      ],
      events: [
        { id: "e", time: "2024-01-03", kind: "transfer", from: "main", to: "main", symbol: "AAPL", quantity: 1 },
      ],
    });
    expect(r).toEqual({
      ok: false,
      problems: [
        "cashFlows[0].amount: must not be 0 (a deposit is > 0, a withdrawal < 0)",
        'events[0].to: must be another account than from ("main"): a transfer within one account moves nothing (give a toSymbol to wrap)',
      ],
    });
  });
});

describe("parseLedger, every currency (v3.1)", () => {
  const rates = { source: "ECB", rates: [{ currency: "EUR", time: "2024-01-01", rate: 1.1 }] };

  it("accepts currencies on rows, an exchange, rates and a base, and keeps them", () => {
    const r = parseLedger({
      baseCurrency: "EUR",
      trades: [trade({ currency: "USD" }), trade({ id: "t2", symbol: "SAP", currency: "EUR" })],
      cashFlows: [{ account: "main", time: "2024-01-01", amount: 100, currency: "GBP" }],
      events: [
        {
          id: "x",
          time: "2024-01-01",
          kind: "fx",
          account: "main",
          sell: "GBP",
          sellAmount: 100,
          buy: "USD",
          buyAmount: 127,
          fee: 1,
        },
        { id: "d", time: "2024-01-03", kind: "income", account: "main", amount: 5, currency: "USD" },
      ],
      benchmark: { symbol: "SPY", currency: "USD", prices: [{ time: "2024-01-01", price: 470 }] },
      fxRates: rates,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.ledger.baseCurrency).toBe("EUR");
    expect(r.ledger.trades.map((t) => t.currency)).toEqual(["USD", "EUR"]);
    expect(r.ledger.events[0]).toMatchObject({ kind: "fx", sell: "GBP", buy: "USD", fee: 1 });
    expect(r.ledger.fxRates).toEqual(rates);
  });

  it("refuses a code that is not ISO 4217's shape, an exchange within one currency and a symbol in two currencies", () => {
    const r = parseLedger({
      baseCurrency: "euro",
      trades: [trade({ currency: "USDT" }), trade({ id: "t2", currency: "EUR" }), trade({ id: "t3", currency: "USD" })],
      events: [
        {
          id: "x",
          time: "2024-01-01",
          kind: "fx",
          account: "main",
          sell: "EUR",
          sellAmount: 1,
          buy: "EUR",
          buyAmount: 1,
        },
      ],
      fxRates: { source: "ECB", rates: [{ currency: "EUR", time: "2024-01-01", rate: 0 }] },
    });
    expect(r).toEqual({
      ok: false,
      problems: [
        "baseCurrency: must be an ISO 4217 currency code (three capital letters, e.g. EUR)",
        "trades[0].currency: must be an ISO 4217 currency code (three capital letters, e.g. EUR)",
        'events[0].buy: must be another currency than sell ("EUR"): an exchange within one currency moves nothing',
        "fxRates.rates[0].rate: must be > 0",
      ],
    });
    const two = parseLedger({
      trades: [trade(), trade({ id: "t2", currency: "CAD" }), trade({ id: "t3", currency: "USD" })],
    });
    expect(two).toEqual({
      ok: false,
      problems: [
        'trades[1].currency: "AAPL" is in CAD here but in USD at trades[0]; a symbol has one currency (its marks are in it), so list the other listing under its own symbol',
      ],
    });
  });
});

describe("parseLedger: contracts (v3.2, DECISIONS 196)", () => {
  const es = (over: Record<string, unknown> = {}) =>
    trade({ symbol: "ESH4", assetClass: "future", multiplier: 50, expiry: "2024-03-15", ...over });

  it("accepts futures, forex and CFDs with a multiplier and an expiry, and keeps them", () => {
    const r = parseLedger({
      trades: [
        es(),
        trade({ id: "t2", symbol: "EUR.USD", assetClass: "forex", multiplier: 100000, currency: "USD" }),
        trade({ id: "t3", symbol: "TSLA.CFD", assetClass: "cfd", side: "sell" }),
      ],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.ledger.trades[0]).toMatchObject({ assetClass: "future", multiplier: 50, expiry: "2024-03-15" });
    expect(r.ledger.trades[1]).toMatchObject({ assetClass: "forex", multiplier: 100000 });
    expect("multiplier" in r.ledger.trades[2]).toBe(false);
  });

  it("refuses a multiplier that is not a positive number, an expiry that is not a day and a confidence outside 0–1", () => {
    for (const [over, problem] of [
      [{ multiplier: 0 }, "trades[0].multiplier: must be > 0"],
      [{ multiplier: -50 }, "trades[0].multiplier: must be > 0"],
      [{ multiplier: "50" }, "trades[0].multiplier: must be a number"],
      [{ expiry: "2024-02-30" }, "trades[0].expiry: must be an ISO 8601 date (YYYY-MM-DD)"],
      [{ expiry: "2024-03-15T21:00:00Z" }, "trades[0].expiry: must be an ISO 8601 date (YYYY-MM-DD)"],
      [{ confidence: 1.5 }, "trades[0].confidence: must be ≤ 1"],
      [{ confidence: -0.5 }, "trades[0].confidence: must be ≥ 0"],
    ] as const) {
      for (const zod of [false, true])
        expect(parseLedger({ trades: [es(over)] }, { zod })).toEqual({ ok: false, problems: [problem] });
    }
  });

  it("refuses an expiry on a stock, an ETF, a coin or a spot forex pair (both validators)", () => {
    for (const assetClass of ["stock", "etf", "crypto", "forex"])
      for (const zod of [false, true])
        expect(parseLedger({ trades: [trade({ assetClass, expiry: "2024-03-15" })] }, { zod })).toEqual({
          ok: false,
          problems: [
            `trades[0].expiry: must be absent on a ${assetClass} trade: only futures, options and CFDs expire`,
          ],
        });
  });

  it("refuses a symbol with two multipliers or two expiries, where the second appears", () => {
    expect(parseLedger({ trades: [es(), es({ id: "t2", multiplier: 5 })] })).toEqual({
      ok: false,
      problems: [
        'trades[1].multiplier: "ESH4" has multiplier 5 here but 50 at trades[0]; a symbol is one contract, so list another contract size under its own symbol',
      ],
    });
    expect(parseLedger({ trades: [es(), es({ id: "t2", multiplier: undefined })] }).ok).toBe(false);
    expect(parseLedger({ trades: [es(), es({ id: "t2", expiry: "2024-06-21" })] })).toEqual({
      ok: false,
      problems: [
        'trades[1].expiry: "ESH4" expires 2024-06-21 here but 2024-03-15 at trades[0]; a symbol is one contract, so list each expiry under its own symbol (ESH6, ESM6)',
      ],
    });
    // A multiplier of 1 written out is the default.
    expect(parseLedger({ trades: [trade(), trade({ id: "t2", multiplier: 1 })] }).ok).toBe(true);
  });
});
