import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceHandlers, RATE_LIMIT_EVERY, simulatedAsTraded, THIN_CONFIDENCE } from "../../test/mocks/prices";
import {
  DEMO_DEFILLAMA_URL,
  DEMO_YAHOO_URL,
  fetchDefiLlamaDaily,
  fetchDefiLlamaPricesAt,
  fetchYahooDaily,
  getJson,
  totalReturnLevels,
  unadjustSplits,
  type DailyPrice,
} from "./prices.server";

// The demo price simulator (test/mocks/prices.ts) read through the real adapter: plausible levels,
// the splits that really happened, Yahoo's adjusted closes un-adjusted back to as traded.
const server = setupServer(...priceHandlers());
const statuses: number[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("response:mocked", ({ response }) => void statuses.push(response.status));
});
afterAll(() => server.close());
const opts = { baseDelayMs: 1, maxDelayMs: 5 };

const between = (p: DailyPrice[], from: string, to: string) =>
  p.filter((x) => x.day >= from && x.day <= to).map((x) => x.price);

describe("stocks", () => {
  it("NVDA as traded: about $1,200 in late May 2024, about $120 from its 10:1 split on 10 June", async () => {
    const asTraded = unadjustSplits(await fetchYahooDaily(DEMO_YAHOO_URL, "NVDA", "2024-05-01", null, opts));
    const may = between(asTraded, "2024-05-01", "2024-05-31");
    const late = between(asTraded, "2024-05-24", "2024-06-07");
    const after = between(asTraded, "2024-06-10", "2024-06-28");
    expect(may.length).toBeGreaterThan(18);
    for (const p of may) expect(p).toBeGreaterThan(650);
    for (const p of may) expect(p).toBeLessThan(1_400);
    for (const p of late) expect(p).toBeGreaterThan(900);
    for (const p of after) expect(p).toBeGreaterThan(85);
    for (const p of after) expect(p).toBeLessThan(160);
    // No NVDA at $679 after the split, no jump in the adjusted series across it.
    const adjusted = (await fetchYahooDaily(DEMO_YAHOO_URL, "NVDA", "2024-06-06", "2024-06-11", opts)).bars.map(
      (b) => b.close,
    );
    expect(Math.max(...adjusted) / Math.min(...adjusted)).toBeLessThan(1.3);
  });

  it("NVDA around its 4:1 split of 20 July 2021 and the splits of AAPL, TSLA, AMZN, GOOGL, AVGO, WMT", async () => {
    const cases: Array<[string, string, string, number]> = [
      ["NVDA", "2021-07-16", "2021-07-20", 4],
      ["AAPL", "2020-08-28", "2020-08-31", 4],
      ["TSLA", "2020-08-28", "2020-08-31", 5],
      ["TSLA", "2022-08-24", "2022-08-25", 3],
      ["AMZN", "2022-06-03", "2022-06-06", 20],
      ["GOOGL", "2022-07-15", "2022-07-18", 20],
      ["AVGO", "2024-07-12", "2024-07-15", 10],
      ["WMT", "2024-02-23", "2024-02-26", 3],
    ];
    for (const [symbol, before, after, ratio] of cases) {
      const p = unadjustSplits(await fetchYahooDaily(DEMO_YAHOO_URL, symbol, before, null, opts));
      const jump = p.find((x) => x.day === before)!.price / p.find((x) => x.day === after)!.price;
      expect(jump, `${symbol} ${after}`).toBeGreaterThan(ratio * 0.75);
      expect(jump, `${symbol} ${after}`).toBeLessThan(ratio * 1.33);
      // The same day as traded, whether read from an old or a recent start.
      expect(simulatedAsTraded(symbol, after)).toBeCloseTo(p.find((x) => x.day === after)!.price, 2);
    }
  });

  it("plausible levels for the common tickers, and a sane one for an unknown ticker", async () => {
    // The real 2024 range as traded (low, high), less 20 % and plus 20 %.
    const real: Record<string, [number, number]> = {
      SPY: [467, 607],
      QQQ: [400, 539],
      AAPL: [165, 259],
      MSFT: [367, 467],
      TSLA: [142, 480],
      META: [344, 632],
      AMZN: [144, 232],
      GOOGL: [131, 196],
      AMD: [121, 211],
      AVGO: [130, 1_800],
      WMT: [58, 176],
    };
    const bands = Object.fromEntries(Object.entries(real).map(([s, [lo, hi]]) => [s, [lo * 0.8, hi * 1.2]]));
    for (const [symbol, [lo, hi]] of Object.entries(bands)) {
      const p = between(
        unadjustSplits(await fetchYahooDaily(DEMO_YAHOO_URL, symbol, "2024-01-01", null, opts)),
        "2024-01-01",
        "2024-12-31",
      );
      expect(p.length, symbol).toBeGreaterThan(240);
      expect(Math.min(...p), symbol).toBeGreaterThan(lo);
      expect(Math.max(...p), symbol).toBeLessThan(hi);
    }
    const unknown = (await fetchYahooDaily(DEMO_YAHOO_URL, "QWXZ", "2024-01-01", "2024-12-31", opts)).bars.map(
      (b) => b.close,
    );
    expect(Math.min(...unknown)).toBeGreaterThan(1);
    expect(Math.max(...unknown)).toBeLessThan(1_000);
    expect((await fetchYahooDaily(DEMO_YAHOO_URL, "NOTREAL", "2024-01-01", "2024-12-31", opts)).notFound).toBe(true);
  });

  it("weekdays only, and the same price for a day whatever range is asked", async () => {
    const a = (await fetchYahooDaily(DEMO_YAHOO_URL, "MSFT", "2023-01-01", "2023-12-31", opts)).bars;
    const b = (await fetchYahooDaily(DEMO_YAHOO_URL, "MSFT", "2023-06-01", "2023-06-30", opts)).bars;
    for (const bar of a) expect([0, 6]).not.toContain(new Date(`${bar.day}T00:00:00Z`).getUTCDay());
    expect(a.find((x) => x.day === "2023-12-25")).toBeUndefined();
    expect(a.length).toBeGreaterThan(245);
    expect(a.length).toBeLessThan(255);
    expect(b).toEqual(a.filter((x) => x.day >= "2023-06-01" && x.day <= "2023-06-30"));
  });

  it("SPY pays dividends: the total return beats the price return by about its yield", async () => {
    const data = await fetchYahooDaily(DEMO_YAHOO_URL, "SPY", "2023-01-01", "2024-12-31", opts);
    const tr = totalReturnLevels(data);
    const price = data.bars[data.bars.length - 1]!.close / data.bars[0]!.close;
    const total = tr[tr.length - 1]!.price / tr[0]!.price;
    expect(total / price).toBeGreaterThan(1.02);
    expect(total / price).toBeLessThan(1.035);
  });
});

describe("crypto", () => {
  it("BTC in 2021 within a sane band, with its spring and autumn highs", async () => {
    const p = await fetchDefiLlamaDaily(DEMO_DEFILLAMA_URL, "coingecko:bitcoin", "2021-01-01", "2021-12-31", opts);
    expect(p).toHaveLength(365);
    for (const x of p) expect(x.price).toBeGreaterThan(20_000);
    for (const x of p) expect(x.price).toBeLessThan(75_000);
    expect(Math.max(...between(p, "2021-04-01", "2021-04-30"))).toBeGreaterThan(55_000);
    expect(Math.min(...between(p, "2021-07-01", "2021-07-31"))).toBeLessThan(36_000);
    // DefiLlama's confidence in a CoinGecko-sourced price.
    for (const x of p) expect(x.confidence).toBe(0.99);
  });

  it("serves a thin token (an address beginning 0xbad, a mint beginning bad) with a low confidence", async () => {
    const thin = [
      "ethereum:0xbad0000000000000000000000000000000c0ffee",
      "solana:bad1111111111111111111111111111111111",
    ];
    for (const id of thin) {
      const p = await fetchDefiLlamaDaily(DEMO_DEFILLAMA_URL, id, "2024-03-01", "2024-03-10", opts);
      expect(p).toHaveLength(10);
      for (const x of p) expect(x.confidence).toBe(THIN_CONFIDENCE);
    }
    const other = await fetchDefiLlamaDaily(
      DEMO_DEFILLAMA_URL,
      "ethereum:0x0000000000000000000000000000000000c0ffee",
      "2024-03-01",
      "2024-03-02",
      opts,
    );
    expect(other.map((x) => x.confidence)).toEqual([0.99, 0.99]);
    const { body } = await getJson(
      "DefiLlama",
      new URL(`${DEMO_DEFILLAMA_URL}/prices/historical/1709294400/${thin.join(",")},coingecko:bitcoin`),
      opts,
    );
    const coins = (body as { coins: Record<string, { confidence: number }> }).coins;
    expect(Object.fromEntries(Object.entries(coins).map(([id, c]) => [id, c.confidence]))).toEqual({
      [thin[0]!]: THIN_CONFIDENCE,
      [thin[1]!]: THIN_CONFIDENCE,
      "coingecko:bitcoin": 0.99,
    });
  });

  it("ETH, SOL and wrapped ETH agree; an unknown CoinGecko slug is unpriced; a token address gets a price", async () => {
    const t = new Date("2024-06-01T12:00:00Z");
    const m = await fetchDefiLlamaPricesAt(
      DEMO_DEFILLAMA_URL,
      [
        "coingecko:ethereum",
        "ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2",
        "coingecko:solana",
        "coingecko:no-such-coin",
        "ethereum:0x0000000000000000000000000000000000c0ffee",
      ],
      t,
      opts,
    );
    expect(m.get("coingecko:ethereum")).toBeGreaterThan(2_500);
    expect(m.get("coingecko:ethereum")).toBeLessThan(5_500);
    expect(m.get("ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2")).toBe(m.get("coingecko:ethereum"));
    expect(m.get("coingecko:solana")).toBeGreaterThan(80);
    expect(m.get("coingecko:solana")).toBeLessThan(300);
    expect(m.has("coingecko:no-such-coin")).toBe(false);
    expect(m.get("ethereum:0x0000000000000000000000000000000000c0ffee")).toBeGreaterThan(0);
  });
});

it("answers now and then with HTTP 429, which the adapter retries", () => {
  expect(statuses.length).toBeGreaterThan(RATE_LIMIT_EVERY);
  expect(statuses).toContain(429);
  expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(Math.ceil(statuses.length / RATE_LIMIT_EVERY));
});
