import { describe, expect, it } from "vitest";
import type { Ledger, Trade } from "~/grading";
import { closesAgree, MARKED_SYMBOLS_MAX, symbolsToMark, withMarketCloses, type Close } from "./market-marks";

const DAY = 86_400_000;
const t0 = Date.parse("2026-03-02T21:00:00.000Z");
/** Weekday closes of a steady climb from `start`, `n` days from t0. */
const climb = (start: number, n: number, step = 1.001): Close[] =>
  Array.from({ length: n }, (_, i) => ({ time: t0 + i * DAY, price: start * step ** i }));

const trade = (symbol: string, day: number, side: "buy" | "sell", quantity: number, price: number): Trade => ({
  id: `${symbol}-${day}-${side}`,
  account: "1",
  time: new Date(t0 + day * DAY - 3 * 3_600_000).toISOString(),
  symbol,
  assetClass: "stock",
  side,
  quantity,
  price,
  fee: 0,
});

describe("closesAgree", () => {
  const closes = climb(100, 30);
  it("trusts a series the fills trade around", () => {
    const fills = [0, 5, 9, 20].map((d) => ({ time: t0 + d * DAY - 3_600_000, price: closes[d]!.price * 1.004 }));
    expect(closesAgree(fills, closes)).toBe(true);
  });
  it("refuses a series ten times the fills (a split the source reads differently)", () => {
    const fills = [0, 5, 9].map((d) => ({ time: t0 + d * DAY - 3_600_000, price: closes[d]!.price / 10 }));
    expect(closesAgree(fills, closes)).toBe(false);
  });
  it("refuses a series that only some fills agree with", () => {
    const fills = Array.from({ length: 10 }, (_, d) => ({
      time: t0 + d * DAY - 3_600_000,
      price: closes[d]!.price * (d < 8 ? 1 : 1.5),
    }));
    expect(closesAgree(fills, closes)).toBe(false);
  });
  it("says nothing agrees when no fill has a price or a close near it", () => {
    expect(closesAgree([{ time: t0, price: 0 }], closes)).toBe(false);
    expect(closesAgree([{ time: t0 - 40 * DAY, price: 100 }], closes)).toBe(false);
  });
});

describe("withMarketCloses", () => {
  const ledger: Ledger = {
    asOf: new Date(t0 + 20 * DAY + 3_600_000).toISOString(),
    trades: [trade("AAA", 2, "buy", 10, 100.5), trade("AAA", 6, "sell", 4, 100.9), trade("BBB", 3, "buy", 5, 50)],
    cashFlows: [],
    prices: [{ symbol: "AAA", time: new Date(t0 + 10 * DAY).toISOString(), price: 101.5 }],
    events: [],
  };
  const series = new Map([
    ["AAA", climb(100, 30)],
    ["BBB", climb(500, 30)],
  ]);
  const { ledger: marked, marked: names, unpriced } = withMarketCloses(ledger, series);

  it("marks an agreeing symbol at each close from its first fill to asOf, keeping the provider's own marks", () => {
    expect(names).toEqual(["AAA"]);
    const aaa = marked.prices.filter((p) => p.symbol === "AAA");
    const times = aaa.map((p) => Date.parse(p.time));
    // The closes of days 2..20 (the fill on day 2 is before its close), day 10's being the kept mark.
    expect(aaa).toHaveLength(19);
    expect(Math.min(...times)).toBe(t0 + 2 * DAY);
    expect(Math.max(...times)).toBe(t0 + 20 * DAY);
    expect(aaa.filter((p) => Date.parse(p.time) === t0 + 10 * DAY)).toEqual([ledger.prices[0]]);
  });

  it("lists a symbol whose closes disagree with its fills, and adds none of them", () => {
    expect(unpriced).toEqual(["BBB"]);
    expect(marked.prices.some((p) => p.symbol === "BBB")).toBe(false);
  });

  it("leaves the trades and flows as they were", () => {
    expect(marked.trades).toBe(ledger.trades);
    expect(marked.cashFlows).toBe(ledger.cashFlows);
  });

  it("puts each close's source and confidence on its mark, and invents none a close lacks", () => {
    const coin = (c: Close, i: number): Close =>
      i % 3 === 0 ? c : { ...c, source: "defillama", ...(i % 3 === 1 ? { confidence: 0.42 } : {}) };
    const given = new Map([
      ["AAA", climb(100, 30).map((c) => ({ ...c, source: "yahoo", confidence: 1 }))],
      ["BBB", climb(50, 30).map(coin)],
    ]);
    const { ledger: out, marked: names } = withMarketCloses(ledger, given);
    expect(names).toEqual(["AAA", "BBB"]);
    const aaa = out.prices.filter((p) => p.symbol === "AAA");
    // The kept mark (the broker's own, day 10) stays as it was; every added one is Yahoo's.
    expect(aaa.filter((p) => p !== ledger.prices[0])).toHaveLength(18);
    for (const p of aaa) if (p !== ledger.prices[0]) expect(p).toMatchObject({ source: "yahoo", confidence: 1 });
    const bbb = out.prices.filter((p) => p.symbol === "BBB");
    expect(bbb.length).toBeGreaterThan(10);
    for (const p of bbb) {
      const i = Math.round((Date.parse(p.time) - t0) / DAY);
      const expected = i % 3 === 0 ? {} : { source: "defillama", ...(i % 3 === 1 ? { confidence: 0.42 } : {}) };
      expect(p).toEqual({ symbol: "BBB", time: p.time, price: p.price, ...expected });
    }
  });
});

describe("symbolsToMark", () => {
  it("leaves options out and ranks the rest by value traded, at most MARKED_SYMBOLS_MAX", () => {
    const trades = [
      { ...trade("OPT", 1, "buy", 1000, 100), assetClass: "option" as const },
      trade("SMALL", 1, "buy", 1, 10),
      trade("BIG", 1, "buy", 100, 10),
      ...Array.from({ length: MARKED_SYMBOLS_MAX }, (_, i) => trade(`S${i}`, 1, "buy", 1, 20)),
    ];
    const picked = symbolsToMark(trades).map((s) => s.symbol);
    expect(picked).toHaveLength(MARKED_SYMBOLS_MAX);
    expect(picked[0]).toBe("BIG");
    expect(picked).not.toContain("OPT");
    expect(picked).not.toContain("SMALL");
  });
});
