import { PermissionDenied, type Exchange } from "ccxt";
import { describe, expect, it } from "vitest";
import type { StoredPage } from "../exchange.server";
import {
  bybit,
  bybitWindows,
  mapBybit,
  readBybitPermissions,
  type BybitDeposit,
  type BybitExecution,
  type BybitConvert,
  type BybitWithdrawal,
  type BybitYield,
} from "./bybit.server";

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

  it("cuts deposits and withdrawals in windows under 30 days", () => {
    const from = Date.UTC(2025, 0, 1);
    const windows = bybitWindows(from, from + 45 * DAY, "deposits", 30);
    expect(windows).toEqual([
      { stream: "deposits", start: from, end: from + 30 * DAY - 1 },
      { stream: "deposits", start: from + 30 * DAY, end: from + 45 * DAY },
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

describe("mapBybit: deposits and withdrawals", () => {
  const T1 = Date.UTC(2026, 4, 1, 8);
  const T2 = Date.UTC(2026, 4, 9, 12);
  const at = (t: number) => new Date(t);
  const usd = (asset: string) => ({ USDT: 1.0002, ETH: 3_000 })[asset];
  const deposit = (over: Partial<BybitDeposit>): BybitDeposit => ({
    id: "160237231",
    coin: "USDT",
    chain: "TRX",
    amount: "1000",
    txID: "04bf3fbad2fc85b107a42cfdc5ff83110092b606ca754efa0f032f8b94b3262e",
    status: 3,
    toAddress: "TDGYpm5zPacnEqKV34TJPuhJhHom9hcXAy",
    fromAddress: "TJ7hhYhVhaxNx6BPyq7yFpqZrQULL3JSdb",
    successAt: String(T1),
    ...over,
  });
  const withdrawal = (over: Partial<BybitWithdrawal>): BybitWithdrawal => ({
    withdrawId: "131629076",
    coin: "ETH",
    chain: "ETH",
    amount: "0.2",
    withdrawFee: "0.0015",
    txID: "0x3d7bddb797f0e86420c982c0723653b8b728fd0ec9953b6b354445848d83a185",
    status: "success",
    toAddress: "0xE3De6d711e0951d34777b5Cd93c827F822ee8514",
    createTime: String(T2),
    updateTime: String(T2 + 180_000),
    withdrawType: 0,
    ...over,
  });
  const ethIn = deposit({ id: "2", coin: "ETH", chain: "ETH", amount: "0.5", txID: "0xabc", fromAddress: "0xF00" });
  const pages: StoredPage[] = [
    {
      task: { stream: "deposits", start: T1 - DAY, end: T1 + DAY },
      rows: [
        deposit({}),
        ethIn,
        ethIn, // the next window's first page met it again
        deposit({ id: "3", coin: "ETH", status: 1 }), // still confirming: not in the account
        deposit({ id: "4", coin: "ETH", status: 70011 }), // rolled back
        deposit({ id: "5", coin: "ETH", amount: "0.1", status: 70012, txID: "", fromAddress: "" }),
        deposit({ id: "6", coin: "XYZ", amount: "10" }),
      ],
    },
    {
      task: { stream: "withdrawals", start: T2 - DAY, end: T2 + DAY },
      rows: [
        withdrawal({}),
        // Off-chain to another Bybit user: its toAddress is a UID, no chain transaction.
        withdrawal({
          withdrawId: "9801",
          coin: "USDT",
          amount: "100",
          withdrawFee: "1",
          withdrawType: 1,
          txID: "",
          toAddress: "123456",
        }),
        withdrawal({ withdrawId: "9976", status: "CancelByUser", txID: "" }),
        withdrawal({ withdrawId: "9977", status: "SecurityCheck", txID: "" }),
      ],
    },
  ];

  it("maps a stablecoin as cash, another coin in kind naming its chain, the fee sold from the position", () => {
    const { batch, skipped } = mapBybit(pages, usd);
    // 1,000 USDT in at 1.0002; 100 USDT out at 1.0002 (its 1 USDT fee is cash too: no trade).
    expect(batch.cashFlows).toEqual([
      { externalId: "bybit:d:160237231", time: at(T1), amount: expect.closeTo(1000.2, 9) },
      { externalId: "bybit:w:9801", time: at(T2 + 180_000), amount: expect.closeTo(-100.02, 9) },
    ]);
    expect(batch.events).toEqual([
      {
        externalId: "bybit:d:2",
        time: at(T1),
        kind: "receive",
        symbol: "ETH",
        quantity: 0.5,
        price: 3_000,
        txId: "0xabc",
        address: "0xF00",
      },
      // Still credited after a rollback review; no sender named: no address.
      { externalId: "bybit:d:5", time: at(T1), kind: "receive", symbol: "ETH", quantity: 0.1, price: 3_000 },
      // Sent when it completed (updateTime), to its toAddress; the fee 0.0015 ETH × 3,000 = 4.5.
      {
        externalId: "bybit:w:131629076",
        time: at(T2 + 180_000),
        kind: "send",
        symbol: "ETH",
        quantity: 0.2,
        price: 3_000,
        txId: "0x3d7bddb797f0e86420c982c0723653b8b728fd0ec9953b6b354445848d83a185",
        address: "0xE3De6d711e0951d34777b5Cd93c827F822ee8514",
      },
      { externalId: "bybit:wf:131629076", time: at(T2 + 180_000), kind: "fee", amount: expect.closeTo(4.5, 9) },
      { externalId: "bybit:wf:9801", time: at(T2 + 180_000), kind: "fee", amount: expect.closeTo(1.0002, 9) },
    ]);
    expect(batch.trades.map((t) => [t.externalId, t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["bybit:wf:131629076:k", "ETH", "sell", 0.0015, 3_000],
    ]);
    expect(skipped).toEqual({ "deposit of XYZ without a USD price": 1 });
  });
});

describe("mapBybit: converts and Earn yields", () => {
  const T = Date.UTC(2026, 5, 1);
  const usd = (asset: string) => ({ USDT: 1, USDC: 1, ETH: 3_000, BTC: 60_000 })[asset];
  const convert = (over: Partial<BybitConvert>): BybitConvert => ({
    exchangeTxId: "x1",
    fromCoin: "ETH",
    fromAmount: "0.1",
    toCoin: "USDT",
    toAmount: "310",
    createdTime: String(T / 1000),
    ...over,
  });
  const paid = (over: Partial<Extract<BybitYield, { id: string }>>): BybitYield => ({
    id: "y1",
    coin: "ETH",
    amount: "0.002",
    status: "Success",
    createdAt: String(T),
    ...over,
  });

  it("makes a convert a swap valued through its dollar side (createdTime in seconds), each once", () => {
    const { batch, skipped } = mapBybit(
      [
        {
          task: { stream: "converts" },
          rows: [convert({}), convert({ exchangeTxId: "x2", fromCoin: "ETH", toCoin: "BTC", toAmount: "0.005" })],
        },
        {
          task: { stream: "converts", cursor: "c" },
          rows: [convert({}), convert({ exchangeTxId: "x3", fromCoin: "USDC" })],
        },
      ],
      usd,
    );
    // 310 USDT for 0.1 ETH: 3,100 each; ETH → BTC through ETH's own price (neither is a dollar).
    expect(batch.trades.map((t) => [t.externalId, t.time.getTime(), t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["bybit:c:x1:s", T, "ETH", "sell", 0.1, 3_100],
      ["bybit:c:x2:s", T, "ETH", "sell", 0.1, 3_000],
      ["bybit:c:x2:b", T, "BTC", "buy", 0.005, 60_000],
    ]);
    expect(skipped).toEqual({ "convert between dollar stablecoins": 1 });
  });

  it("makes a paid yield income in kind at the price then; a pending one is not paid; a refusal is counted", () => {
    const { batch, skipped } = mapBybit(
      [
        {
          task: { stream: "earn" },
          rows: [paid({}), paid({ id: "y2", status: "Pending" }), paid({ id: "y3", coin: "XYZ" })],
        },
        { task: { stream: "earn", cursor: "c" }, rows: [paid({})] },
      ],
      usd,
    );
    expect(batch.events).toEqual([
      { externalId: "bybit:y:y1", time: new Date(T), kind: "income", symbol: "ETH", amount: 6 },
    ]);
    expect(batch.trades.map((t) => [t.externalId, t.side, t.quantity, t.price])).toEqual([
      ["bybit:y:y1:b", "buy", 0.002, 3_000],
    ]);
    expect(skipped).toEqual({ "reward in XYZ without a USD price": 1 });
    const refused = mapBybit([{ task: { stream: "earn" }, rows: [{ refused: "no" }] }], usd);
    expect(refused.skipped).toEqual({ "Bybit Earn yields (the key may not read Earn: tick Earn, read-only)": 1 });
  });

  it("walks Earn's windows a week at a time in one stream, and asks once when the key may not read Earn", async () => {
    const asked: Record<string, string>[] = [];
    const answers: unknown[] = [
      { result: { list: [paid({})], nextPageCursor: "next" } },
      { result: { list: [], nextPageCursor: "" } },
      { result: { yield: [paid({ id: "y2" })], nextPageCursor: "" } },
    ];
    const client = {
      privateGetV5EarnYield: async (p: Record<string, string>) => (asked.push(p), answers.shift()),
    } as unknown as Exchange;
    const task = { stream: "earn", start: 0, end: 10 * DAY };
    const first = await bybit.fetchPage(client, task);
    expect(first.next).toEqual({ ...task, cursor: "next" });
    const second = await bybit.fetchPage(client, first.next!);
    expect(second.next).toEqual({ stream: "earn", start: 7 * DAY, end: 10 * DAY, cursor: undefined });
    const last = await bybit.fetchPage(client, second.next!);
    expect(last.rows).toHaveLength(1);
    expect(last.next).toBeNull();
    expect(asked.map((p) => [p.startTime, p.endTime, p.cursor])).toEqual([
      ["0", String(7 * DAY - 1), undefined],
      ["0", String(7 * DAY - 1), "next"],
      [String(7 * DAY), String(10 * DAY), undefined],
    ]);
    const denied = {
      privateGetV5EarnYield: async () => {
        throw new PermissionDenied('bybit {"retCode":10005}');
      },
    } as unknown as Exchange;
    expect(await bybit.fetchPage(denied, task)).toEqual({
      rows: [{ refused: "this key may not read Earn" }],
      next: null,
    });
  });
});
