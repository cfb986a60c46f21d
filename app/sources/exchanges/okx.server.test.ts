import { describe, expect, it } from "vitest";
import { historyNotice, type StoredPage } from "../exchange.server";
import { mapOkx, readOkxPermissions, type OkxFill } from "./okx.server";

const fill = (over: Partial<OkxFill>): OkxFill => ({
  instType: "SPOT",
  instId: "BTC-USDT",
  tradeId: "1",
  ordId: "1",
  billId: "100",
  fillPx: "50000",
  fillSz: "0.1",
  side: "buy",
  feeCcy: "BTC",
  fee: "-0.0001",
  ts: String(Date.UTC(2026, 5, 1)),
  ...over,
});
const prices = (asset: string) => ({ USDT: 1, BTC: 50_000, OKB: 40 })[asset];

describe("OKX's key permissions", () => {
  it("refuses withdraw before trade, and a key that cannot read", () => {
    expect(readOkxPermissions("read_only,trade,withdraw")?.permission).toBe("withdraw");
    expect(readOkxPermissions("read_only,trade")?.message).toMatch(/^This key can trade\. .*\(untick Trade\)\.$/);
    expect(readOkxPermissions("")?.permission).toBe("read");
    expect(readOkxPermissions("read_only")).toBeNull();
  });
});

describe("mapOkx", () => {
  it("sells a fee in the base at the fill's own price, and reads a fill in both endpoints once", () => {
    const f = fill({});
    const pages: StoredPage[] = [
      { task: { stream: "fills-history" }, rows: [f] },
      { task: { stream: "fills" }, rows: [f] },
    ];
    const { batch } = mapOkx(pages, prices);
    expect(batch.trades.map((t) => [t.externalId, t.side, t.quantity, t.price])).toEqual([
      ["okx:t:100", "buy", 0.1, 50_000],
      ["okx:t:100:k", "sell", 0.0001, 50_000],
    ]);
    expect(batch.events).toEqual([{ externalId: "okx:f:100", time: expect.any(Date), kind: "fee", amount: 5 }]);
  });

  it("keeps a USDT fee as cash, a rebate as income in kind, and counts what it cannot value", () => {
    const { batch, skipped } = mapOkx(
      [
        {
          task: { stream: "fills-history" },
          rows: [
            fill({ billId: "1", side: "sell", feeCcy: "USDT", fee: "-5" }),
            fill({ billId: "2", feeCcy: "OKB", fee: "0.5" }),
            fill({ billId: "3", instId: "BTC-EUR" }),
            fill({ billId: "4", instType: "MARGIN" }),
          ],
        },
      ],
      prices,
    );
    expect(batch.trades.filter((t) => t.symbol === "USDT")).toEqual([]);
    expect(batch.events).toEqual([
      { externalId: "okx:f:1", time: expect.any(Date), kind: "fee", amount: 5 },
      { externalId: "okx:r:2", time: expect.any(Date), kind: "income", symbol: "OKB", amount: 20 },
    ]);
    expect(batch.trades.find((t) => t.externalId === "okx:t:2:r")).toMatchObject({ symbol: "OKB", side: "buy" });
    expect(skipped).toEqual({ "trade in EUR without a USD price": 1, "OKX margin fill (not graded yet)": 1 });
  });
});

describe("historyNotice", () => {
  it("names the month the exchange's depth reaches back to", () => {
    expect(historyNotice("Bybit", { days: 730, said: "2 years" }, Date.UTC(2026, 11, 3))).toBe(
      "Bybit keeps 2 years: trades before 2024-12 are not included",
    );
  });
});
