import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readExchangeError, type StoredPage } from "../../app/sources/exchange.server";
import { binance, mapBinance, readRestrictions } from "../../app/sources/exchanges/binance.server";
import { DEMO_BINANCE_URL } from "../../app/sources/wallet-demo";
import {
  binanceHandlers,
  DEMO_BINANCE,
  DEMO_BINANCE_START,
  DEMO_BINANCE_UID,
  setBinanceSecret,
} from "../mocks/binance";

// The Binance entry through ccxt on its real code path, against the simulator: what a key may do,
// the signed requests' checks, the windows, the bans, and the mapping of the demo year.

const server = setupServer(...binanceHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
process.env.SIM_DELAY_FACTOR = "0";

const settings = { baseUrl: DEMO_BINANCE_URL, timeoutMs: 5_000 };
const client = (apiKey: string, secret = "any secret") => binance.client({ apiKey, secret }, settings);
const DAY = 86_400_000;

async function failure(call: Promise<unknown>, c = client("x")) {
  try {
    await call;
  } catch (error) {
    return readExchangeError("Binance", c, error);
  }
  throw new Error("expected the call to fail");
}

describe("Binance keys", () => {
  it("proves a read-only key and finds the account's uid", async () => {
    expect(await binance.checkKey(client("demo-read-only"))).toEqual({ ok: true, uid: String(DEMO_BINANCE_UID) });
    const other = await binance.checkKey(client("demo-read-only-second"));
    expect(other.ok && other.uid).not.toBe(String(DEMO_BINANCE_UID));
  });

  it("refuses keys that can trade or withdraw, naming the permission to untick", async () => {
    const trade = await binance.checkKey(client("demo-can-trade"));
    expect(trade).toMatchObject({ ok: false, permission: "trade" });
    expect(!trade.ok && trade.message).toMatch(
      /^This key can trade\. Create a read-only key: .*Enable Spot & Margin Trading/,
    );
    const withdraw = await binance.checkKey(client("demo-can-withdraw"));
    expect(!withdraw.ok && withdraw.message).toMatch(
      /^This key can withdraw\. Create a read-only key: .*Enable Withdrawals/,
    );
    expect(readRestrictions({ enableReading: false })?.permission).toBe("read");
  });

  it("answers an unknown key -2015 and a wrong signature -1022", async () => {
    const unknown = client("not-a-key");
    expect(await failure(binance.checkKey(unknown), unknown)).toMatchObject({
      kind: "key",
      message: expect.stringMatching(/-2015/),
    });
    setBinanceSecret("demo-read-only-signed", "right");
    const wrong = client("demo-read-only-signed", "wrong");
    const read = await failure(binance.checkKey(wrong), wrong);
    expect(read.message).toMatch(/Signature for this request is not valid|-1022/);
    expect((await binance.checkKey(client("demo-read-only-signed", "right"))).ok).toBe(true);
  });

  it("retries once after a -1021 with ccxt's measured time difference", async () => {
    const skewed = client("sim-clock-skew");
    expect((await binance.checkKey(skewed)).ok).toBe(true);
    expect(skewed.options.adjustForTimeDifference).toBe(true);
  });

  it("reads a 429 and a 418 as waits of their Retry-After", async () => {
    const banned = client("sim-ban");
    const first = await failure(binance.fetchPage(banned, { stream: "dust" }), banned);
    expect(first).toMatchObject({ kind: "rate", retryAfterSeconds: 1 });
    const second = await failure(binance.fetchPage(banned, { stream: "dust" }), banned);
    expect(second).toMatchObject({ kind: "rate", retryAfterSeconds: 1 });
    expect((await binance.fetchPage(banned, { stream: "dust" })).rows).toHaveLength(1);
  });

  it("holds myTrades to 24-hour windows and deposits to spans under 90 days", async () => {
    const c = client("demo-read-only");
    const wide = await failure(
      c.privateGetMyTrades({ symbol: "BTCUSDT", startTime: DEMO_BINANCE_START, endTime: DEMO_BINANCE_START + 2 * DAY }),
      c,
    );
    expect(wide.message).toMatch(/24 hours/);
    const deposits = await failure(
      c.sapiGetCapitalDepositHisrec({ startTime: DEMO_BINANCE_START, endTime: DEMO_BINANCE_START + 90 * DAY }),
      c,
    );
    expect(deposits.message).toMatch(/90 days/);
  });
});

describe("the demo year, read and mapped", () => {
  it("finds the traded symbols from what the account touched and maps every row or counts it", async () => {
    const c = client("demo-read-only");
    const pages: StoredPage[] = [];
    const walk = async (tasks: Parameters<typeof binance.fetchPage>[1][]) => {
      for (let task of tasks)
        for (;;) {
          // A client per call, as each import job makes its own (ccxt's throttle starts full).
          const page = await binance.fetchPage(client("demo-read-only"), task);
          if (page.rows.length) pages.push({ task, rows: page.rows });
          if (!page.next) break;
          task = page.next;
        }
    };
    const tasks = binance.tasks(DEMO_BINANCE_START - 10 * DAY, DEMO_BINANCE_START + 400 * DAY);
    // Deposits and withdrawals in 89-day spans, converts in 30-day ones, over 410 days.
    expect(tasks.filter((t) => t.stream === "deposits")).toHaveLength(5);
    expect(tasks.filter((t) => t.stream === "converts")).toHaveLength(14);
    await walk(tasks);
    const trades = await binance.tradeTasks(c, pages);
    expect(trades.map((t) => t.symbol!.split("|")[0])).toEqual([
      "BNBBTC",
      "BNBUSDT",
      "BTCEUR",
      "BTCUSDT",
      "ETHBTC",
      "ETHUSDT",
      "SOLUSDT",
    ]);
    await walk(trades);
    // Prices: USDT at 1, BNB 600, ETH 2,500, SOL 150; no EUR.
    const usd: Record<string, number> = { USDT: 1, BNB: 600, ETH: 2_500, SOL: 150, BTC: 60_000 };
    const mapped = mapBinance(pages, (asset) => usd[asset]);
    const btc = mapped.batch.trades.filter((t) => t.symbol === "BTC");
    expect(btc).toHaveLength(24);
    const realized = DEMO_BINANCE.roundTrips.reduce((s, r) => s + r.qty * (r.sell - r.buy), 0);
    expect(realized).toBe(DEMO_BINANCE.realizedUsdt);
    const sells = btc.filter((t) => t.side === "sell").reduce((s, t) => s + t.quantity * t.price, 0);
    const buys = btc.filter((t) => t.side === "buy").reduce((s, t) => s + t.quantity * t.price, 0);
    expect(sells - buys).toBeCloseTo(500, 6);
    // 25 fills in USDT pay 0.0001 BNB each at 600 (the EUR fill is not used, its fee with it).
    const fees = mapped.batch.events!.filter((e) => e.kind === "fee");
    expect(fees.filter((e) => e.externalId.startsWith("binance:f:"))).toHaveLength(25);
    // Each paid in kind: 0.0001 BNB sold at 600 from the BNB position (the dust's charge never reached it).
    const feeSales = mapped.batch.trades.filter((t) => t.externalId.endsWith(":k"));
    expect(feeSales).toHaveLength(26);
    expect(feeSales.filter((t) => t.symbol === "BNB")).toHaveLength(25);
    expect(feeSales.find((t) => t.symbol === "BNB")).toMatchObject({ side: "sell", quantity: 0.0001, price: 600 });
    expect(feeSales.find((t) => t.symbol === "ETH")).toMatchObject({ side: "sell", quantity: 0.001, price: 2_500 });
    expect(mapped.skipped).toEqual({ "trade in EUR without a USD price": 1 });
    // The convert and the dust sweep as swaps; the deposit as cash, the ETH withdrawal in kind.
    expect(mapped.batch.trades.find((t) => t.externalId.endsWith(":b") && t.symbol === "ETH")).toMatchObject({
      side: "buy",
      quantity: 0.2,
      price: 2_500,
    });
    expect(mapped.batch.trades.find((t) => t.symbol === "SOL")).toMatchObject({ side: "sell", quantity: 0.01 });
    expect(mapped.batch.cashFlows).toEqual([expect.objectContaining({ amount: 10_000 })]);
    expect(mapped.batch.events!.find((e) => e.kind === "send")).toMatchObject({
      symbol: "ETH",
      quantity: 0.1,
      price: 2_500,
    });
  });
});
