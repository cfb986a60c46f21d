import { describe, expect, it } from "vitest";
import type { Exchange } from "ccxt";
import { historyNotice, type StoredPage } from "../exchange.server";
import {
  mapOkx,
  okx,
  readOkxPermissions,
  type OkxBill,
  type OkxConvert,
  type OkxDeposit,
  type OkxFill,
  type OkxWithdrawal,
} from "./okx.server";

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

describe("mapOkx: deposits and withdrawals", () => {
  const T = Date.UTC(2026, 5, 1);
  const movePrices = (asset: string) => ({ USDT: 0.9995, ETH: 2_500 })[asset];
  const deposit = (over: Partial<OkxDeposit>): OkxDeposit => ({
    ccy: "USDT",
    chain: "USDT-ERC20",
    amt: "1000",
    from: "",
    to: "0x9f8c2a41b7d05e3f6a1c4b2d8e7f3a5c6b9d0e12",
    txId: "0x5b1f0c9e7a3d2b4f6e8a1c3d5f7b9e0a2c4d6f8b1a3c5e7d9f0b2a4c6e8d0f1a",
    ts: String(T),
    state: "2",
    depId: "88101",
    ...over,
  });
  const withdrawal = (over: Partial<OkxWithdrawal>): OkxWithdrawal => ({
    ccy: "ETH",
    chain: "ETH-Ethereum",
    amt: "0.3",
    ts: String(T + 86_400_000),
    from: "156****359",
    to: "0x3e7A5c1B9d2F4a6C8e0B1d3F5a7C9e2B4d6F8a0C",
    txId: "0x35c4e1b0a9d8c7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2",
    fee: "0.002",
    feeCcy: "ETH",
    state: "2",
    wdId: "15447421",
    ...over,
  });

  it("reads a USDT deposit as cash at its USD value, an ETH withdrawal as a send naming its chain, its fee sold", () => {
    const d = deposit({});
    const w = withdrawal({});
    const { batch, skipped } = mapOkx(
      [
        { task: { stream: "deposits" }, rows: [d] },
        // The next page starts at the last row's instant again: the deposit comes twice, is one.
        { task: { stream: "deposits", cursor: String(T + 1) }, rows: [d] },
        { task: { stream: "withdrawals" }, rows: [w] },
      ],
      movePrices,
    );
    // 1,000 USDT at 0.9995.
    expect(batch.cashFlows).toEqual([{ externalId: "okx:d:88101", time: new Date(T), amount: 999.5 }]);
    // 0.3 ETH leaves for the address at 2,500; the 0.002 ETH fee on top is sold at 2,500 (5 dollars).
    expect(batch.events).toEqual([
      {
        externalId: "okx:w:15447421",
        time: new Date(T + 86_400_000),
        kind: "send",
        symbol: "ETH",
        quantity: 0.3,
        price: 2_500,
        txId: w.txId,
        address: w.to,
      },
      { externalId: "okx:wf:15447421", time: new Date(T + 86_400_000), kind: "fee", amount: 5 },
    ]);
    expect(batch.trades.map((t) => [t.externalId, t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["okx:wf:15447421:k", "ETH", "sell", 0.002, 2_500],
    ]);
    expect(skipped).toEqual({});
  });

  it("reads a coin deposit in kind by its hash, a stablecoin withdrawal as cash, and counts what it cannot value", () => {
    const { batch, skipped } = mapOkx(
      [
        {
          task: { stream: "deposits" },
          rows: [
            deposit({ depId: "1", ccy: "ETH", amt: "1.2", state: "1" }),
            deposit({ depId: "2", state: "0" }), // waiting for confirmations: not in the account
            deposit({ depId: "3", ccy: "XYZ", amt: "5" }),
          ],
        },
        {
          task: { stream: "withdrawals" },
          rows: [
            withdrawal({ wdId: "4", ccy: "USDT", amt: "200", fee: "1", feeCcy: "USDT" }),
            withdrawal({ wdId: "5", state: "-2" }), // canceled
            withdrawal({ wdId: "6", txId: "", to: "someone@example.com", fee: "0" }), // internal transfer
            withdrawal({ wdId: "7", ccy: "XYZ", fee: "1", feeCcy: "XYZ" }),
          ],
        },
      ],
      movePrices,
    );
    // 1.2 ETH received at 2,500, named by its hash only (OKX gives no sender's address).
    expect(batch.events?.[0]).toEqual({
      externalId: "okx:d:1",
      time: new Date(T),
      kind: "receive",
      symbol: "ETH",
      quantity: 1.2,
      price: 2_500,
      txId: deposit({}).txId,
    });
    // 200 USDT out at 0.9995 = 199.9; its 1 USDT fee is 0.9995 of fees, no trade (cash).
    expect(batch.cashFlows).toEqual([{ externalId: "okx:w:4", time: new Date(T + 86_400_000), amount: -199.9 }]);
    expect(batch.events?.slice(1)).toEqual([
      { externalId: "okx:wf:4", time: new Date(T + 86_400_000), kind: "fee", amount: 0.9995 },
      {
        externalId: "okx:w:6",
        time: new Date(T + 86_400_000),
        kind: "send",
        symbol: "ETH",
        quantity: 0.3,
        price: 2_500,
      },
    ]);
    expect(batch.trades).toEqual([]);
    expect(skipped).toEqual({
      "deposit of XYZ without a USD price": 1,
      "withdrawal of XYZ without a USD price": 1,
      "fee in XYZ without a USD price": 1,
    });
  });
});

describe("OKX's deposit and withdrawal pages", () => {
  const client = (rows: { ts: string }[], asked: Record<string, string>[]) =>
    ({
      privateGetAssetDepositHistory: async (params: Record<string, string>) => {
        asked.push(params);
        return { code: "0", msg: "", data: rows };
      },
    }) as unknown as Exchange;
  const rows = (ts: (i: number) => number) => Array.from({ length: 100 }, (_, i) => ({ ts: String(ts(i)) }));

  it("asks for the task's span, both ends included, and pages from the last row's instant", async () => {
    const asked: Record<string, string>[] = [];
    const task = { stream: "deposits", start: 1_000, end: 9_000 };
    const page = await okx.fetchPage(
      client(
        rows((i) => 8_000 - i),
        asked,
      ),
      task,
    );
    expect(asked).toEqual([{ limit: "100", after: "9001", before: "999" }]);
    // The last row is at 7,901: the next page asks for rows before 7,902, so its instant is read again.
    expect(page.next).toEqual({ ...task, cursor: "7902" });
  });

  it("moves past an instant that fills a whole page, and stops at a short page", async () => {
    const asked: Record<string, string>[] = [];
    const task = { stream: "deposits", start: 1_000, end: 9_000, cursor: "5001" };
    const full = await okx.fetchPage(
      client(
        rows(() => 5_000),
        asked,
      ),
      task,
    );
    expect(asked[0]).toMatchObject({ after: "5001" });
    expect(full.next).toEqual({ ...task, cursor: "5000" });
    const short = await okx.fetchPage(client([{ ts: "4000" }], asked), task);
    expect(short.next).toBeNull();
  });
});

describe("mapOkx: converts and funding bills", () => {
  const T = Date.UTC(2026, 5, 1);
  const convert = (over: Partial<OkxConvert>): OkxConvert => ({
    tradeId: "trader1",
    state: "fullyFilled",
    instId: "ETH-USDT",
    baseCcy: "ETH",
    quoteCcy: "USDT",
    side: "sell",
    fillBaseSz: "0.2",
    fillQuoteSz: "640",
    ts: String(T),
    ...over,
  });
  const bill = (over: Partial<OkxBill>): OkxBill => ({
    billId: "b1",
    ccy: "ETH",
    balChg: "0.004",
    type: "83",
    ts: String(T),
    ...over,
  });
  const usd = (asset: string) => ({ USDT: 1, USDC: 1, ETH: 3_000, BTC: 60_000 })[asset];

  it("makes a convert a swap valued through its dollar side, either way round, each once", () => {
    const sold = convert({});
    const bought = convert({
      tradeId: "trader2",
      instId: "BTC-USDT",
      baseCcy: "BTC",
      side: "buy",
      fillBaseSz: "0.01",
      fillQuoteSz: "590",
    });
    const { batch, skipped } = mapOkx(
      [
        { task: { stream: "converts" }, rows: [sold, bought, convert({ tradeId: "trader3", state: "rejected" })] },
        { task: { stream: "converts", cursor: "1" }, rows: [sold] },
      ],
      usd,
    );
    expect(skipped).toEqual({});
    // 640 USDT for 0.2 ETH: 3,200 each; 590 USDT for 0.01 BTC: 59,000 (the USDT legs are cash).
    expect(batch.trades.map((t) => [t.externalId, t.symbol, t.side, t.quantity, t.price])).toEqual([
      ["okx:c:trader1:s", "ETH", "sell", 0.2, 3_200],
      ["okx:c:trader2:b", "BTC", "buy", 0.01, 59_000],
    ]);
    const stable = mapOkx(
      [{ task: { stream: "converts" }, rows: [convert({ instId: "USDC-USDT", baseCcy: "USDC" })] }],
      usd,
    );
    expect(stable.skipped).toEqual({ "convert between dollar stablecoins": 1 });
  });

  it("makes a staking yield income in kind at the price then, passes over moves read elsewhere, counts the rest", () => {
    const { batch, skipped } = mapOkx(
      [
        {
          task: { stream: "bills" },
          rows: [
            bill({}),
            bill({ billId: "b2", type: "1", ccy: "USDT", balChg: "10000" }), // the deposit: read from deposit-history
            bill({ billId: "b3", type: "131", ccy: "USDT", balChg: "-10000" }), // funding → trading
            bill({ billId: "b4", type: "20", ccy: "USDT", balChg: "-100" }), // to a sub-account
            bill({ billId: "b5", type: "150", ccy: "USDT", balChg: "3" }), // an affiliate commission
            bill({ billId: "b6", type: "343", ccy: "XYZ", balChg: "1" }),
          ],
        },
        { task: { stream: "bills", cursor: "1" }, rows: [bill({})] },
      ],
      usd,
    );
    expect(batch.events).toEqual([
      { externalId: "okx:b:b1", time: new Date(T), kind: "income", symbol: "ETH", amount: 12 },
    ]);
    expect(batch.trades.map((t) => [t.externalId, t.side, t.quantity, t.price])).toEqual([
      ["okx:b:b1:b", "buy", 0.004, 3_000],
    ]);
    expect(batch.cashFlows).toEqual([]);
    expect(skipped).toEqual({
      "OKX transfer with a sub-account (not read yet)": 1,
      "OKX funding bill of type 150 (not read yet)": 1,
      "reward in XYZ without a USD price": 1,
    });
  });

  it("pages converts and bills by time as deposits, on their own endpoints", async () => {
    const asked: string[] = [];
    const fake = {
      privateGetAssetConvertHistory: async () => (asked.push("convert"), { data: [] }),
      privateGetAssetBillsHistory: async () => (asked.push("bills"), { data: [] }),
    } as unknown as Exchange;
    const tasks = okx.tasks(1_000, 9_000).filter((t) => t.stream === "converts" || t.stream === "bills");
    expect(tasks).toEqual([
      { stream: "converts", start: 1_000, end: 9_000 },
      { stream: "bills", start: 1_000, end: 9_000 },
    ]);
    for (const t of tasks) expect((await okx.fetchPage(fake, t)).next).toBeNull();
    expect(asked).toEqual(["convert", "bills"]);
  });
});

describe("historyNotice", () => {
  it("names the month the exchange's depth reaches back to", () => {
    expect(historyNotice("Bybit", { days: 730, said: "2 years" }, Date.UTC(2026, 11, 3))).toBe(
      "Bybit keeps 2 years: trades before 2024-12 are not included",
    );
  });
});
