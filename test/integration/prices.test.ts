import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_YAHOO_URL, fetchYahooDaily, totalReturnLevels } from "~/sources/prices.server";
import {
  priceHandlers,
  rateLimitNext,
  simulatedAsTraded,
  simulatedCoinPrice,
  THIN_CONFIDENCE,
  yahooChart,
} from "../mocks/prices";

// The price service in-process against PGlite (or DATABASE_URL's PostgreSQL), its providers
// answered by the demo simulator at the network edge: what it stores, what it asks twice (nothing).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
process.env.PRICES_LIVE = "0";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { benchmarkSeries, dailyPrices, lastFinalDay, marketCloses, missingRanges, riskFreeSeries, swapPriceLookup } =
  await import("~/server/grades/prices.server");
const priceConfidence = await import("../../migrations/0047_price_confidence");
const { valueSwaps } = await import("~/sources/swaps");

const server = setupServer(...priceHandlers());
// URLs the providers answered (a 429 retried is counted once, by its answer), and every status.
const requests: string[] = [];
const statuses: number[] = [];

beforeAll(async () => {
  await migrateToLatest();
  // A PostgreSQL test database keeps its cache between runs: start from nothing.
  const db = await getDb();
  await db.deleteFrom("price_history").execute();
  await db.deleteFrom("price_ranges").execute();
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("response:mocked", ({ request, response }) => {
    statuses.push(response.status);
    if (response.status !== 429) requests.push(request.url);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests.length = 0;
});

const asked = () =>
  requests
    .map((u) => new URL(u))
    .map((u) => `${u.pathname}?${u.searchParams.get("period1") ?? u.searchParams.get("start")}`);

describe("dailyPrices", () => {
  it("answers NVDA as traded across its split, and a second request asks the provider nothing", async () => {
    const first = await dailyPrices("stock:NVDA", "2024-05-01", "2024-06-30");
    expect(requests).toHaveLength(1);
    expect(first.map((p) => p.day)).toContain("2024-06-07");
    expect(first.find((p) => p.day === "2024-06-07")!.price).toBeCloseTo(simulatedAsTraded("NVDA", "2024-06-07"), 2);
    expect(first.find((p) => p.day === "2024-06-07")!.price).toBeGreaterThan(900);
    expect(first.find((p) => p.day === "2024-06-10")!.price).toBeLessThan(160);
    expect(first.some((p) => p.day === "2024-06-08")).toBe(false); // a Saturday

    requests.length = 0;
    expect(await dailyPrices("stock:NVDA", "2024-05-01", "2024-06-30")).toEqual(first);
    expect(await dailyPrices("stock:NVDA", "2024-06-01", "2024-06-15")).toEqual(
      first.filter((p) => p.day >= "2024-06-01" && p.day <= "2024-06-15"),
    );
    // The first answer ran to today (to learn every later split), so later days are stored too.
    expect((await dailyPrices("stock:NVDA", "2025-03-01", "2025-03-31")).length).toBeGreaterThan(18);
    expect(requests).toEqual([]);
  });

  it("fetches only the missing earlier days, linked to the stored ones, across the 2021 split", async () => {
    const older = await dailyPrices("stock:NVDA", "2021-06-01", "2024-05-10");
    expect(asked()).toEqual([`/v8/finance/chart/NVDA?${Date.parse("2021-06-01T00:00:00Z") / 1000}`]);
    const period2 = new URL(requests.at(-1)!).searchParams.get("period2");
    expect(Number(period2)).toBe(Date.parse("2024-05-02T00:00:00Z") / 1000); // up to the first stored day, 2024-05-01
    for (const day of ["2021-07-16", "2021-07-20", "2023-03-01", "2024-04-30"]) {
      expect(older.find((p) => p.day === day)!.price, day).toBeCloseTo(simulatedAsTraded("NVDA", day), 2);
    }
    expect(older.find((p) => p.day === "2021-07-16")!.price).toBeGreaterThan(500);
    expect(older.find((p) => p.day === "2021-07-20")!.price).toBeLessThan(260);
    requests.length = 0;
    await dailyPrices("stock:NVDA", "2021-06-01", "2024-06-30");
    expect(requests).toEqual([]);
  });

  it("asks up to today instead when Yahoo's answer lacks the stored day it should link to", async () => {
    await dailyPrices("stock:AVGO", "2024-07-01", "2024-07-31");
    requests.length = 0;
    // The next answer leaves out its last bar (the stored 2024-07-01).
    server.use(
      http.get(
        `${DEMO_YAHOO_URL}/v8/finance/chart/:symbol`,
        ({ request }) => {
          const q = new URL(request.url).searchParams;
          const body = yahooChart("AVGO", Number(q.get("period1")), Number(q.get("period2")), q.get("events") ?? "");
          const r = body.chart.result[0]!;
          r.timestamp.pop();
          r.indicators.quote[0]!.close.pop();
          r.indicators.adjclose[0]!.adjclose.pop();
          return HttpResponse.json(body);
        },
        { once: true },
      ),
    );
    const p = await dailyPrices("stock:AVGO", "2024-06-03", "2024-07-31");
    expect(requests.map((u) => new URL(u).searchParams.get("period2"))).toEqual([
      String(Date.parse("2024-07-02T00:00:00Z") / 1000),
      expect.any(String),
    ]);
    expect(Number(new URL(requests[1]!).searchParams.get("period2"))).toBeGreaterThan(Date.now() / 1000 - 60);
    for (const day of ["2024-06-03", "2024-07-12", "2024-07-15"])
      expect(p.find((x) => x.day === day)!.price, day).toBeCloseTo(simulatedAsTraded("AVGO", day), 2);
    expect(p.find((x) => x.day === "2024-07-12")!.price).toBeGreaterThan(1_000); // before its 10:1 split
  });

  it("remembers ranges without prices (an unknown coin or ticker) and never asks for unfinished days", async () => {
    expect(await dailyPrices("coin:coingecko:no-such-coin", "2024-01-01", "2024-01-31")).toEqual([]);
    expect(await dailyPrices("stock:NOTREAL", "2024-01-01", "2024-01-31")).toEqual([]);
    expect(requests).toHaveLength(2);
    requests.length = 0;
    expect(await dailyPrices("coin:coingecko:no-such-coin", "2024-01-01", "2024-01-31")).toEqual([]);
    expect(await dailyPrices("stock:NOTREAL", "2024-01-10", "2024-01-20")).toEqual([]);
    expect(await dailyPrices("stock:AAPL", addDay(lastFinalDay(), 1), "2999-01-01")).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("asks DefiLlama for missing days only, in chunks, then nothing", async () => {
    const btc = await dailyPrices("coin:coingecko:bitcoin", "2021-01-01", "2021-12-31");
    expect(btc).toHaveLength(365);
    expect(requests).toHaveLength(1); // 365 days fit one request
    requests.length = 0;
    const more = await dailyPrices("coin:coingecko:bitcoin", "2020-12-01", "2022-01-31");
    expect(more).toHaveLength(31 + 365 + 31);
    const starts = requests.map((u) => new URL(u).searchParams.get("start")).sort();
    expect(starts).toEqual([
      String(Date.parse("2020-12-02T00:00:00Z") / 1000),
      String(Date.parse("2022-01-02T00:00:00Z") / 1000),
    ]);
    expect(more.filter((p) => p.day >= "2021-01-01" && p.day <= "2021-12-31")).toEqual(btc);
  });

  it("refuses bad days and instruments", async () => {
    await expect(dailyPrices("stock:NVDA", "2024-13-01", "2024-12-31")).rejects.toThrow(/YYYY-MM-DD/);
    await expect(dailyPrices("NVDA" as "stock:NVDA", "2024-01-01", "2024-12-31")).rejects.toThrow(/not an instrument/);
  });
});

describe("confidence", () => {
  // A thin token as the simulator serves one (an address beginning 0xbad): DefiLlama's confidence 0.5.
  const THIN = "coin:ethereum:0xbad00000000000000000000000000000000f00d5" as const;
  const stored = async (instrument: string) =>
    (await getDb())
      .selectFrom("price_history")
      .select("confidence")
      .where("instrument", "=", instrument)
      .execute()
      .then((rows) => [...new Set(rows.map((r) => r.confidence))]);

  it("keeps DefiLlama's confidence with a coin's prices, in the cache; a stock's price has none", async () => {
    const eth = await dailyPrices("coin:coingecko:ethereum", "2023-03-01", "2023-03-31");
    expect(eth).toHaveLength(31);
    for (const p of eth) expect(p.confidence).toBe(0.99);
    const thin = await dailyPrices(THIN, "2023-03-01", "2023-03-31");
    expect(thin).toHaveLength(31);
    for (const p of thin) expect(p.confidence).toBe(THIN_CONFIDENCE);
    expect(await stored(THIN)).toEqual([THIN_CONFIDENCE]);
    // From the cache: the same prices and confidences, nothing asked.
    requests.length = 0;
    expect(await dailyPrices(THIN, "2023-03-05", "2023-03-25")).toEqual(
      thin.filter((p) => p.day >= "2023-03-05" && p.day <= "2023-03-25"),
    );
    expect(await dailyPrices("coin:coingecko:ethereum", "2023-03-01", "2023-03-31")).toEqual(eth);
    expect(requests).toEqual([]);
    const ko = await dailyPrices("stock:KO", "2023-03-01", "2023-03-31");
    expect(ko.length).toBeGreaterThan(18);
    for (const p of ko) expect(p).not.toHaveProperty("confidence");
    expect(await stored("stock:KO")).toEqual([null]);
  });

  it("marketCloses: Yahoo's closes at confidence 1, a coin's with DefiLlama's, none for a coin row stored without one", async () => {
    const from = new Date("2023-04-03T12:00:00Z");
    const to = new Date("2023-04-28T12:00:00Z");
    const closes = await marketCloses(
      [
        { symbol: "KO", assetClass: "stock" },
        { symbol: "ETH", assetClass: "crypto" },
      ],
      from,
      to,
    );
    const ko = closes.get("KO")!;
    const eth = closes.get("ETH")!;
    expect(ko.length).toBeGreaterThan(18);
    expect(eth.length).toBeGreaterThan(25);
    for (const c of ko) expect(c).toEqual({ time: c.time, price: c.price, source: "yahoo", confidence: 1 });
    for (const c of eth) expect(c).toEqual({ time: c.time, price: c.price, source: "defillama", confidence: 0.99 });
    // A coin's price cached without a confidence (DefiLlama gave none): DefiLlama's, of unknown
    // confidence, so the engine never lets it raise a value. Yahoo's are 1 whatever is stored.
    const db = await getDb();
    await db
      .updateTable("price_history")
      .set({ confidence: null })
      .where("instrument", "=", "coin:coingecko:ethereum")
      .where("day", "=", "2023-04-10")
      .execute();
    const again = await marketCloses([{ symbol: "ETH", assetClass: "crypto" }], from, to);
    const day = Date.parse("2023-04-10T23:59:59.999Z");
    expect(again.get("ETH")!.find((c) => c.time === day)).toEqual({
      time: day,
      price: eth.find((c) => c.time === day)!.price,
      source: "defillama",
    });
    expect(again.get("ETH")!.filter((c) => c.confidence === 0.99)).toHaveLength(eth.length - 1);
  });

  it("migration 0047 empties the coins' cache (asked again, with their confidence) and keeps the rest", async () => {
    await dailyPrices("coin:coingecko:bitcoin", "2023-05-01", "2023-05-10");
    await dailyPrices("stock:KO", "2023-05-01", "2023-05-10");
    const db = await getDb();
    const count = async (trx: typeof db, like: string) => {
      const rows = await trx
        .selectFrom("price_history")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("instrument", "like", like)
        .executeTakeFirstOrThrow();
      const ranges = await trx
        .selectFrom("price_ranges")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("instrument", "like", like)
        .executeTakeFirstOrThrow();
      return [Number(rows.n), Number(ranges.n)];
    };
    const before = { coins: await count(db, "coin:%"), stocks: await count(db, "stock:%") };
    expect(before.coins[0]).toBeGreaterThan(0);
    expect(before.stocks[0]).toBeGreaterThan(0);
    // Down and up again in a transaction that is rolled back: this test's database keeps its schema.
    const undone = new Error("rolled back");
    await expect(
      db.transaction().execute(async (trx) => {
        await priceConfidence.down(trx);
        await priceConfidence.up(trx);
        expect(await count(trx, "coin:%")).toEqual([0, 0]);
        expect(await count(trx, "stock:%")).toEqual(before.stocks);
        throw undone;
      }),
    ).rejects.toBe(undone);
    expect(await count(db, "coin:%")).toEqual(before.coins);
  });
});

describe("benchmarkSeries", () => {
  it("SPY total return at each New York close, from the last close before `from` to `to`; then from the cache", async () => {
    const from = new Date("2024-01-06T15:00:00Z"); // a Saturday
    const to = new Date("2024-12-31T23:00:00Z");
    const s = await benchmarkSeries("stocks", from, to);
    expect(s.symbol).toBe("SPY");
    expect(s.prices[0]!.time).toBe("2024-01-05T21:00:00.000Z"); // Friday's close, EST
    expect(s.prices.find((p) => p.time.startsWith("2024-07-01"))!.time).toBe("2024-07-01T20:00:00.000Z"); // EDT
    expect(s.prices.at(-1)!.time).toBe("2024-12-31T21:00:00.000Z");
    expect(s.prices.length).toBeGreaterThan(245);
    const times = s.prices.map((p) => p.time);
    expect([...times].sort()).toEqual(times);
    requests.length = 0;
    expect(await benchmarkSeries("stocks", from, to)).toEqual(s);
    expect(requests).toEqual([]);
  });

  it("a total-return series fetched in pieces is one series: the return over a span does not depend on the order of requests", async () => {
    const late = await benchmarkSeries("stocks", new Date("2025-02-01T00:00:00Z"), new Date("2025-06-30T00:00:00Z"));
    const early = await benchmarkSeries("stocks", new Date("2022-01-01T00:00:00Z"), new Date("2023-12-31T00:00:00Z"));
    const all = await benchmarkSeries("stocks", new Date("2022-01-01T00:00:00Z"), new Date("2025-06-30T00:00:00Z"));
    const at = (series: typeof all, day: string) => series.prices.find((p) => p.time.startsWith(day))!.price;
    // Levels agree wherever the pieces overlap the whole: one scale.
    expect(at(all, "2025-03-03")).toBeCloseTo(at(late, "2025-03-03"), 8);
    expect(at(all, "2023-03-01")).toBeCloseTo(at(early, "2023-03-01"), 8);
    // Across the day where the older piece was linked to the stored one (2023-12-27), returns are
    // those of one uninterrupted Yahoo answer.
    const fresh = totalReturnLevels(
      await fetchYahooDaily(DEMO_YAHOO_URL, "SPY", "2022-01-01", null, { baseDelayMs: 1 }),
    );
    const f = (day: string) => fresh.find((p) => p.day === day)!.price;
    expect(at(all, "2024-06-03") / at(all, "2023-06-01")).toBeCloseTo(f("2024-06-03") / f("2023-06-01"), 5);
    // Total return beats the price return by the dividends (SPY ≈ 1.3 % a year over 3.5 years).
    const prices = await dailyPrices("stock:SPY", "2022-01-03", "2025-06-27");
    const priceReturn = prices.at(-1)!.price / prices[0]!.price;
    const totalReturn = at(all, prices.at(-1)!.day) / at(all, prices[0]!.day);
    expect(totalReturn / priceReturn).toBeGreaterThan(1.035);
    expect(totalReturn / priceReturn).toBeLessThan(1.055);
  });

  it("links an older piece onto stored total-return levels whatever their scale (adjclose moves with each new dividend)", async () => {
    await dailyPrices("stock-tr:QQQ", "2024-01-02", "2024-12-31");
    // As if the stored levels came from an answer scaled to an older dividend.
    const db = await getDb();
    await db
      .updateTable("price_history")
      .set((eb) => ({ price: eb("price", "*", 2) }))
      .where("instrument", "=", "stock-tr:QQQ")
      .execute();
    const joined = await dailyPrices("stock-tr:QQQ", "2023-01-03", "2024-12-31");
    const fresh = totalReturnLevels(
      await fetchYahooDaily(DEMO_YAHOO_URL, "QQQ", "2023-01-01", null, { baseDelayMs: 1 }),
    );
    const j = (day: string) => joined.find((p) => p.day === day)!.price;
    const f = (day: string) => fresh.find((p) => p.day === day)!.price;
    expect(j("2024-06-03") / j("2023-06-01")).toBeCloseTo(f("2024-06-03") / f("2023-06-01"), 6);
    expect(j("2023-06-01") / f("2023-06-01")).toBeCloseTo(2, 6);
  });

  it("rebuilds a total-return run from one fresh answer when Yahoo lacks the stored day to link to", async () => {
    await dailyPrices("stock-tr:WMT", "2024-03-01", "2024-03-31");
    const db = await getDb();
    await db
      .updateTable("price_history")
      .set((eb) => ({ price: eb("price", "*", 2) }))
      .where("instrument", "=", "stock-tr:WMT")
      .execute();
    requests.length = 0;
    server.use(
      http.get(
        `${DEMO_YAHOO_URL}/v8/finance/chart/:symbol`,
        ({ request }) => {
          const q = new URL(request.url).searchParams;
          const body = yahooChart("WMT", Number(q.get("period1")), Number(q.get("period2")), q.get("events") ?? "");
          const r = body.chart.result[0]!;
          r.timestamp.pop();
          r.indicators.quote[0]!.close.pop();
          r.indicators.adjclose[0]!.adjclose.pop();
          return HttpResponse.json(body);
        },
        { once: true },
      ),
    );
    const joined = await dailyPrices("stock-tr:WMT", "2023-01-03", "2024-12-31");
    expect(requests).toHaveLength(2);
    const fresh = totalReturnLevels(
      await fetchYahooDaily(DEMO_YAHOO_URL, "WMT", "2023-01-01", null, { baseDelayMs: 1 }),
    );
    const f = (day: string) => fresh.find((p) => p.day === day)!.price;
    for (const day of ["2023-06-01", "2024-03-01", "2024-12-02"])
      expect(joined.find((p) => p.day === day)!.price / f(day), day).toBeCloseTo(1, 8);
    requests.length = 0;
    await dailyPrices("stock-tr:WMT", "2023-01-03", "2025-01-31");
    expect(requests).toEqual([]);
  });

  it("BTC in USD at each UTC day's end, within a sane band in 2021", async () => {
    const s = await benchmarkSeries("crypto", new Date("2021-03-01T12:00:00Z"), new Date("2021-09-30T12:00:00Z"));
    expect(s.symbol).toBe("BTC");
    expect(s.prices[0]!.time).toBe("2021-02-28T23:59:59.999Z");
    expect(s.prices.at(-1)!.time).toBe("2021-09-29T23:59:59.999Z");
    for (const p of s.prices) expect(p.price).toBeGreaterThan(20_000);
    for (const p of s.prices) expect(p.price).toBeLessThan(75_000);
  });
});

describe("riskFreeSeries", () => {
  it("the 13-week T-bill yield as annual fractions at each New York close, at its real levels; then from the cache", async () => {
    const from = new Date("2021-01-09T15:00:00Z"); // a Saturday
    const to = new Date("2025-12-01T23:00:00Z");
    const s = await riskFreeSeries(from, to);
    expect(s.symbol).toBe("^IRX");
    expect(s.rates[0]!.time).toBe("2021-01-08T21:00:00.000Z"); // Friday's close, EST
    const at = (day: string) => s.rates.find((p) => p.time.startsWith(day))!.rate;
    expect(at("2021-06-01")).toBeLessThan(0.002); // ~0.02–0.05 % in 2021
    expect(at("2023-01-03")).toBeGreaterThan(0.038); // ~4.3 % at 2023's start
    expect(at("2023-01-03")).toBeLessThan(0.048);
    expect(at("2024-01-02")).toBeGreaterThan(0.048); // 5.2–5.3 % mid-2023 to mid-2024
    expect(at("2024-01-02")).toBeLessThan(0.056);
    expect(at("2025-12-01")).toBeGreaterThan(0.035); // ~4 % late in 2025
    expect(at("2025-12-01")).toBeLessThan(0.043);
    requests.length = 0;
    expect(await riskFreeSeries(from, to)).toEqual(s);
    expect(requests).toEqual([]);
  });
});

describe("swapPriceLookup", () => {
  const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
  const PEPE = "0x6982508145454ce325ddbe47a25d4ec3d2311933";
  const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
  const WSOL = "So11111111111111111111111111111111111111112";

  it("values an ETH → PEPE swap with no stablecoin leg at ETH's price at that hour, from the cache the second time", async () => {
    const time = new Date("2024-06-01T12:00:00Z");
    const txs = [
      {
        id: "0xswap",
        time,
        legs: [
          { id: "0xswap:native", token: WETH, symbol: "ETH", amount: -2, stable: false },
          { id: "0xswap:7", token: PEPE, symbol: "PEPE", amount: 1.5e8, stable: false },
        ],
        fee: 0.001,
      },
    ];
    const { priceAt } = await swapPriceLookup({ kind: "evm", chainId: 1 }, txs, { nativeToken: WETH });
    const eth = simulatedCoinPrice("coingecko:ethereum", time)!;
    expect(priceAt(WETH, time)! / eth).toBeCloseTo(1, 2);
    const r = valueSwaps(txs, { nativeToken: WETH, priceAt });
    expect(r.swapsSkipped).toBe(0);
    expect(r.trades).toHaveLength(2);
    const [sell, buy] = r.trades;
    expect(sell).toMatchObject({ side: "sell", symbol: "ETH", quantity: 2 });
    expect(sell!.price / eth).toBeCloseTo(1, 2);
    expect(buy).toMatchObject({ side: "buy", symbol: "PEPE", quantity: 1.5e8 });
    expect(buy!.price * 1.5e8).toBeCloseTo(sell!.price * 2, 6);
    requests.length = 0;
    await swapPriceLookup({ kind: "evm", chainId: 1 }, txs, { nativeToken: WETH });
    expect(requests).toEqual([]);
  });

  it("values a Solana BONK → SOL swap through SOL, and leaves unknown chains to the fallback", async () => {
    const time = new Date("2025-03-10T06:00:00Z");
    const txs = [
      {
        id: "sig",
        time,
        legs: [
          { id: "sig:3", token: BONK, symbol: "BONK", amount: -5e6, stable: false },
          { id: "sig:sol", token: WSOL, symbol: "SOL", amount: 0.8, stable: false },
        ],
      },
    ];
    const { priceAt } = await swapPriceLookup({ kind: "solana" }, txs, { nativeToken: WSOL });
    const r = valueSwaps(txs, { nativeToken: WSOL, priceAt });
    expect(r.trades.find((t) => t.symbol === "SOL")!.price / simulatedCoinPrice("coingecko:solana", time)!).toBeCloseTo(
      1,
      2,
    );
    const unknown = await swapPriceLookup({ kind: "evm", chainId: 999_999 }, [
      {
        ...txs[0]!,
        legs: [
          { ...txs[0]!.legs[0]!, token: PEPE },
          { ...txs[0]!.legs[1]!, token: "native" },
        ],
      },
    ]);
    expect(unknown.priceAt("native", time)).toBeUndefined();
    expect(unknown.confidenceAt("native", time)).toBeUndefined();
  });

  it("gives each swap's token DefiLlama's confidence then: thin 0.5, listed 0.99, unlisted 0 (DECISIONS 219)", async () => {
    const time = new Date("2025-02-03T15:00:00Z");
    const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
    const THIN_TOKEN = "0xbad0000000000000000000000000000000beef01";
    const UNLISTED = "0xdead000000000000000000000000000000beef02";
    const buy = (id: string, token: string) => ({
      id,
      time,
      legs: [
        { id: `${id}:1`, token: USDC, symbol: "USDC", amount: -100, stable: true },
        { id: `${id}:2`, token, symbol: id.toUpperCase(), amount: 10, stable: false },
      ],
    });
    const txs = [buy("thin", THIN_TOKEN), buy("pepe", PEPE), buy("rug", UNLISTED)];
    const lookups = await swapPriceLookup({ kind: "evm", chainId: 1 }, txs, { nativeToken: "native" });
    expect(lookups.confidenceAt(THIN_TOKEN, time)).toBe(THIN_CONFIDENCE);
    expect(lookups.confidenceAt(PEPE, time)).toBe(0.99);
    // DefiLlama answers without it: nobody else quotes it, so nobody vouches for the fill.
    expect(lookups.priceAt(UNLISTED, time)).toBeUndefined();
    expect(lookups.confidenceAt(UNLISTED, time)).toBe(0);
    const r = valueSwaps(txs, { ...lookups });
    expect(r.trades.map((t) => [t.symbol, t.price, t.confidence])).toEqual([
      ["PEPE", 10, 0.99],
      ["RUG", 10, 0],
      ["THIN", 10, THIN_CONFIDENCE],
    ]);
  });
});

it("missingRanges finds the holes", () => {
  const covered = [
    { from: "2024-01-10", to: "2024-01-20" },
    { from: "2024-01-15", to: "2024-01-25" },
    { from: "2024-02-01", to: "2024-02-05" },
  ];
  expect(missingRanges(covered, "2024-01-01", "2024-02-10")).toEqual([
    { from: "2024-01-01", to: "2024-01-09" },
    { from: "2024-01-26", to: "2024-01-31" },
    { from: "2024-02-06", to: "2024-02-10" },
  ]);
  expect(missingRanges(covered, "2024-01-12", "2024-01-24")).toEqual([]);
  expect(missingRanges([], "2024-01-01", "2024-01-01")).toEqual([{ from: "2024-01-01", to: "2024-01-01" }]);
});

it("retries a provider's HTTP 429 (Retry-After) and answers", async () => {
  statuses.length = 0;
  rateLimitNext("yahoo", 2);
  const p = await dailyPrices("stock:MSFT", "2024-03-01", "2024-03-31");
  expect(statuses.slice(0, 2)).toEqual([429, 429]);
  expect(statuses.at(-1)).toBe(200); // after one more 429 when the simulator's own turn comes
  expect(p.length).toBeGreaterThan(18);
});

function addDay(day: string, n: number) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
