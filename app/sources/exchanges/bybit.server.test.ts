import { describe, expect, it } from "vitest";
import type { StoredPage } from "../exchange.server";
import { bybitWindows, mapBybit, readBybitPermissions, type BybitExecution } from "./bybit.server";

const DAY = 86_400_000;
const exec = (over: Partial<BybitExecution>): BybitExecution => ({
  symbol: "BTCUSDT",
  orderId: "o",
  side: "Buy",
  execId: "e1",
  execPrice: "50000",
  execQty: "0.1",
  execValue: "5000",
  execFee: "0.0001",
  feeCurrency: "BTC",
  execType: "Trade",
  execTime: String(Date.UTC(2026, 5, 1)),
  ...over,
});
const prices = (asset: string) => ({ USDT: 1, BTC: 50_000 })[asset];
const instruments: StoredPage = {
  task: { stream: "instruments", symbol: "BTCUSDT" },
  rows: [
    { symbol: "BTCUSDT", baseCoin: "BTC", quoteCoin: "USDT" },
    { symbol: "BTCEUR", baseCoin: "BTC", quoteCoin: "EUR" },
  ],
};

describe("Bybit's key permissions", () => {
  it("accepts a Read-Only key and refuses a Read-Write one, withdrawals first", () => {
    expect(readBybitPermissions({ readOnly: 1, permissions: { Wallet: ["Withdraw"] } })).toBeNull();
    expect(
      readBybitPermissions({ readOnly: 0, permissions: { Wallet: ["AccountTransfer", "Withdraw"] } }),
    ).toMatchObject({ permission: "withdraw" });
    expect(readBybitPermissions({ readOnly: 0, permissions: { Spot: ["SpotTrade"] } })?.message).toMatch(
      /^This key can trade\. Create a read-only key: on Bybit/,
    );
  });
});

describe("bybitWindows", () => {
  it("covers the span in windows of at most 7 days, oldest first, none overlapping", () => {
    const from = Date.UTC(2025, 0, 1);
    const windows = bybitWindows(from, from + 20 * DAY);
    expect(windows.map((w) => [w.start, w.end])).toEqual([
      [from, from + 7 * DAY - 1],
      [from + 7 * DAY, from + 14 * DAY - 1],
      [from + 14 * DAY, from + 20 * DAY],
    ]);
  });
});

describe("mapBybit", () => {
  it("names base and quote from the instruments, sells a fee in kind at the fill's price, reads a fill once", () => {
    const f = exec({});
    const { batch, skipped } = mapBybit(
      [instruments, { task: { stream: "executions" }, rows: [f, f, exec({ execId: "e2", symbol: "BTCEUR" })] }],
      prices,
    );
    expect(batch.trades.map((t) => [t.externalId, t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["bybit:t:e1", "BTC", "buy", 0.1, 50_000],
      ["bybit:t:e1:k", "BTC", "sell", 0.0001, 50_000],
    ]);
    expect(batch.events).toEqual([{ externalId: "bybit:f:e1", time: expect.any(Date), kind: "fee", amount: 5 }]);
    expect(skipped).toEqual({ "trade in EUR without a USD price": 1 });
  });
});
