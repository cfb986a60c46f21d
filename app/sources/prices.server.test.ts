import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  coinInstrumentForSymbol,
  fetchDefiLlamaDaily,
  fetchDefiLlamaPricesAt,
  fetchYahooDaily,
  getJson,
  mapDefiLlamaChart,
  mapDefiLlamaHistorical,
  mapYahooChart,
  nyCloseTime,
  parseInstrument,
  PriceSourceError,
  totalReturnLevels,
  unadjustSplits,
  walletTokenInstrument,
} from "./prices.server";

// A Yahoo v8 chart answer in its real shape (abridged): NVDA around its 10:1 split, first adjusted
// day 2024-06-10, bars stamped 09:30 New York, one null close (a missing day).
const ts = (day: string) => Date.parse(`${day}T13:30:00Z`) / 1000;
const nvda = {
  chart: {
    result: [
      {
        meta: {
          currency: "USD",
          symbol: "NVDA",
          exchangeName: "NMS",
          instrumentType: "EQUITY",
          gmtoffset: -14400,
          timezone: "EDT",
          exchangeTimezoneName: "America/New_York",
          dataGranularity: "1d",
        },
        timestamp: [ts("2024-06-06"), ts("2024-06-07"), ts("2024-06-10"), ts("2024-06-11"), ts("2024-06-12")],
        events: {
          splits: {
            [String(ts("2024-06-10"))]: {
              date: ts("2024-06-10"),
              numerator: 10.0,
              denominator: 1.0,
              splitRatio: "10:1",
            },
          },
          dividends: { [String(ts("2024-06-11"))]: { amount: 0.01, date: ts("2024-06-11") } },
        },
        indicators: {
          quote: [
            {
              open: [118, 119, 120, 121, 123],
              high: [0, 0, 0, 0, 0],
              low: [0, 0, 0, 0, 0],
              close: [120.998, 120.888, 121.79, null, 125.2],
              volume: [1, 1, 1, 1, 1],
            },
          ],
          adjclose: [{ adjclose: [120.97, 120.86, 121.76, null, 125.19] }],
        },
      },
    ],
    error: null,
  },
};

describe("Yahoo mapping", () => {
  it("maps bars to exchange dates, skips null closes and reads splits as numerator ÷ denominator", () => {
    const m = mapYahooChart("NVDA", nvda);
    expect(m.notFound).toBe(false);
    expect(m.bars.map((b) => b.day)).toEqual(["2024-06-06", "2024-06-07", "2024-06-10", "2024-06-12"]);
    expect(m.bars[1]).toEqual({ day: "2024-06-07", close: 120.888, adjclose: 120.86 });
    expect(m.splits).toEqual([{ day: "2024-06-10", ratio: 10 }]);
  });

  it("reads Yahoo's Not Found chart as no data, and refuses other currencies", () => {
    expect(
      mapYahooChart("NOPE", {
        chart: { result: null, error: { code: "Not Found", description: "No data found, symbol may be delisted" } },
      }),
    ).toMatchObject({ notFound: true, bars: [] });
    const eur = structuredClone(nvda);
    eur.chart.result[0]!.meta.currency = "EUR";
    expect(() => mapYahooChart("NVDA", eur)).toThrow(/EUR, not USD/);
    expect(() => mapYahooChart("X", { hello: 1 })).toThrow(PriceSourceError);
  });

  it("un-adjusts closes to as-traded prices: before the split × 10, from its first day as is", () => {
    const p = unadjustSplits(mapYahooChart("NVDA", nvda));
    expect(p.map((x) => [x.day, Math.round(x.price * 1000) / 1000])).toEqual([
      ["2024-06-06", 1209.98],
      ["2024-06-07", 1208.88],
      ["2024-06-10", 121.79],
      ["2024-06-12", 125.2],
    ]);
  });

  it("multiplies every later split in, reverse splits too, and links an answer to a stored price", () => {
    const bars = ["2020-08-27", "2020-08-28", "2020-08-31", "2022-08-24", "2022-08-25", "2023-05-01"].map((day, i) => ({
      day,
      close: [150, 147, 166, 297, 296, 160][i]!,
      adjclose: null,
    }));
    const splits = [
      { day: "2020-08-31", ratio: 5 },
      { day: "2022-08-25", ratio: 3 },
      { day: "2023-05-01", ratio: 0.1 }, // a 1:10 reverse split
    ];
    const p = unadjustSplits({ bars, splits }).map((x) => Math.round(x.price * 100) / 100);
    // Before 2020-08-31: × 5 × 3 × 0.1; until 2022-08-25: × 3 × 0.1; then × 0.1; from 2023-05-01: as is.
    expect(p).toEqual([225, 220.5, 49.8, 89.1, 29.6, 160]);
    // An answer that stops at 2022-08-25, linked to a stored as-traded price of that day.
    const linked = unadjustSplits(
      { bars: bars.slice(0, 5), splits: splits.slice(0, 2) },
      { day: "2022-08-25", price: 29.6 },
    );
    expect(linked.map((x) => Math.round(x.price * 100) / 100)).toEqual([225, 220.5, 49.8, 89.1, 29.6]);
    expect(() => unadjustSplits({ bars, splits }, { day: "2021-01-04", price: 1 })).toThrow(/lacks 2021-01-04/);
  });

  it("scales adjclose onto a stored total-return level", () => {
    const data = {
      bars: [
        { day: "2024-01-02", close: 472, adjclose: 460 },
        { day: "2024-01-03", close: 470, adjclose: 458 },
        { day: "2024-01-04", close: 1, adjclose: null },
      ],
    };
    expect(totalReturnLevels(data)).toEqual([
      { day: "2024-01-02", price: 460 },
      { day: "2024-01-03", price: 458 },
    ]);
    const linked = totalReturnLevels(data, { day: "2024-01-03", price: 229 });
    expect(linked.map((x) => x.price)).toEqual([230, 229]);
  });

  it("stamps a US close at 16:00 New York, through daylight saving", () => {
    expect(nyCloseTime("2024-06-07").toISOString()).toBe("2024-06-07T20:00:00.000Z");
    expect(nyCloseTime("2024-01-05").toISOString()).toBe("2024-01-05T21:00:00.000Z");
  });
});

describe("DefiLlama mapping", () => {
  it("keeps one price per UTC day: the point nearest the end of that day, with the coin's confidence", () => {
    const body = {
      coins: {
        "coingecko:bitcoin": {
          symbol: "BTC",
          confidence: 0.99,
          prices: [
            { timestamp: Date.parse("2021-03-02T00:04:00Z") / 1000, price: 49_000 }, // end of 03-01
            { timestamp: Date.parse("2021-03-02T23:57:00Z") / 1000, price: 48_500 }, // end of 03-02
            { timestamp: Date.parse("2021-03-02T20:00:00Z") / 1000, price: 47_000 }, // same day, farther from its end
            { timestamp: Date.parse("2021-03-04T00:01:00Z") / 1000, price: 50_100 },
            { timestamp: Date.parse("2021-03-05T00:01:00Z") / 1000, price: 0 },
          ],
        },
      },
    };
    expect(mapDefiLlamaChart("coingecko:bitcoin", body)).toEqual([
      { day: "2021-03-01", price: 49_000, confidence: 0.99 },
      { day: "2021-03-02", price: 48_500, confidence: 0.99 },
      { day: "2021-03-03", price: 50_100, confidence: 0.99 },
    ]);
    expect(mapDefiLlamaChart("coingecko:nothing", body)).toEqual([]);
    expect(() => mapDefiLlamaChart("x", [])).toThrow(PriceSourceError);
  });

  it("gives a price no confidence when DefiLlama's is missing or not one from 0 to 1", () => {
    const prices = [{ timestamp: Date.parse("2021-03-02T00:04:00Z") / 1000, price: 2 }];
    const chart = (coin: Record<string, unknown>) => mapDefiLlamaChart("solana:x", { coins: { "solana:x": coin } });
    expect(chart({ prices, confidence: 0.5 })).toEqual([{ day: "2021-03-01", price: 2, confidence: 0.5 }]);
    expect(chart({ prices, confidence: 0 })).toEqual([{ day: "2021-03-01", price: 2, confidence: 0 }]);
    for (const confidence of [undefined, null, "0.9", 1.5, -0.1, Number.NaN])
      expect(chart({ prices, confidence })).toEqual([{ day: "2021-03-01", price: 2 }]);
  });

  it("reads historical prices per id, leaving out what DefiLlama cannot price", () => {
    const m = mapDefiLlamaHistorical({
      coins: {
        "ethereum:0xabc": { symbol: "ABC", price: 1.5, timestamp: 1, confidence: 0.9 },
        "solana:bad": { price: null },
      },
    });
    expect([...m]).toEqual([["ethereum:0xabc", 1.5]]);
  });
});

describe("instruments", () => {
  it("parses the three kinds and refuses the rest", () => {
    expect(parseInstrument("stock:brk.b")).toEqual({ kind: "stock", symbol: "BRK.B" });
    expect(parseInstrument("stock-tr:SPY")).toEqual({ kind: "stock-tr", symbol: "SPY" });
    expect(parseInstrument("coin:ethereum:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2")).toEqual({
      kind: "coin",
      id: "ethereum:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    });
    expect(() => parseInstrument("NVDA")).toThrow(PriceSourceError);
    expect(() => parseInstrument("stock:N V")).toThrow(PriceSourceError);
    expect(coinInstrumentForSymbol("weth")).toBe("coin:coingecko:ethereum");
    expect(walletTokenInstrument({ kind: "evm", chainId: 8453 }, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")).toBe(
      "coin:base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
    );
    expect(walletTokenInstrument({ kind: "evm", chainId: 56 }, "native")).toBe("coin:coingecko:binancecoin");
    expect(walletTokenInstrument({ kind: "evm", chainId: 7 }, "native")).toBeNull();
    expect(walletTokenInstrument({ kind: "solana" }, "So11111111111111111111111111111111111111112")).toBe(
      "coin:solana:So11111111111111111111111111111111111111112",
    );
    expect(walletTokenInstrument({ kind: "solana" }, "0xnot-a-mint")).toBeNull();
    expect(coinInstrumentForSymbol("PEPE")).toBeNull();
  });
});

describe("HTTP: time limits, retries and errors", () => {
  const server = setupServer();
  const hits: string[] = [];
  beforeAll(() => {
    server.listen({ onUnhandledRequest: "error" });
    server.events.on(
      "request:start",
      ({ request }) => void hits.push(new URL(request.url).pathname + new URL(request.url).search),
    );
  });
  afterEach(() => {
    server.resetHandlers();
    hits.length = 0;
  });
  afterAll(() => server.close());
  const fast = { baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 2_000 };

  it("retries 429 (with or without Retry-After) and 5xx, then answers", async () => {
    let n = 0;
    server.use(
      http.get("https://p.test/x", () => {
        n++;
        if (n === 1) return HttpResponse.text("Too Many Requests", { status: 429, headers: { "retry-after": "0" } });
        if (n === 2) return HttpResponse.json({ message: "Too many requests" }, { status: 429 });
        if (n === 3) return HttpResponse.text("bad gateway", { status: 502 });
        return HttpResponse.json({ ok: true });
      }),
    );
    expect(await getJson("P", new URL("https://p.test/x"), fast)).toEqual({ status: 200, body: { ok: true } });
    expect(hits).toHaveLength(4);
  });

  it("gives up after the retries with a clear message, and does not retry a 400", async () => {
    server.use(http.get("https://p.test/limited", () => HttpResponse.text("slow down", { status: 429 })));
    await expect(getJson("DefiLlama", new URL("https://p.test/limited"), { ...fast, retries: 2 })).rejects.toThrow(
      "DefiLlama kept answering HTTP 429 (rate limited) after 3 attempts.",
    );
    expect(hits).toHaveLength(3);
    hits.length = 0;
    server.use(
      http.get("https://p.test/bad", () =>
        HttpResponse.json({ message: "Requested 720 data points exceeds the maximum of 500." }, { status: 400 }),
      ),
    );
    await expect(getJson("DefiLlama", new URL("https://p.test/bad"), fast)).rejects.toThrow(
      /HTTP 400: .*exceeds the maximum of 500/,
    );
    expect(hits).toHaveLength(1);
  });

  it("times out a silent provider and reports malformed JSON", async () => {
    server.use(http.get("https://p.test/slow", () => new Promise(() => {})));
    await expect(
      getJson("Yahoo Finance", new URL("https://p.test/slow"), { ...fast, timeoutMs: 50, retries: 1 }),
    ).rejects.toThrow("Yahoo Finance did not answer within 0 s after 2 attempts.");
    server.use(http.get("https://p.test/broken", () => new HttpResponse('{"chart":', { status: 200 })));
    await expect(getJson("Yahoo Finance", new URL("https://p.test/broken"), fast)).rejects.toThrow(
      "Yahoo Finance answered with malformed JSON.",
    );
  });

  it("asks Yahoo for daily bars with splits and dividends, writing class shares with a dash", async () => {
    server.use(http.get("https://y.test/v8/finance/chart/:sym", () => HttpResponse.json(nvda)));
    const data = await fetchYahooDaily("https://y.test", "brk.b", "2024-06-06", "2024-06-12", fast);
    expect(data.bars).toHaveLength(4);
    const q = new URL(`https://y.test${hits[0]}`);
    expect(q.pathname).toBe("/v8/finance/chart/BRK-B");
    expect(Object.fromEntries(q.searchParams)).toMatchObject({
      period1: String(Date.parse("2024-06-06T00:00:00Z") / 1000),
      period2: String(Date.parse("2024-06-13T00:00:00Z") / 1000),
      interval: "1d",
      events: "div,split",
    });
  });

  it("asks DefiLlama in chunks of at most 365 daily points, from the end of the first day", async () => {
    server.use(
      http.get("https://l.test/chart/:coins", ({ request, params }) => {
        const q = new URL(request.url).searchParams;
        const start = Number(q.get("start"));
        const prices = Array.from({ length: Number(q.get("span")) }, (_, k) => ({
          timestamp: start + k * 86_400 + 120,
          price: 100 + k,
        }));
        return HttpResponse.json({ coins: { [String(params.coins)]: { symbol: "BTC", confidence: 0.99, prices } } });
      }),
    );
    const p = await fetchDefiLlamaDaily("https://l.test", "coingecko:bitcoin", "2021-01-01", "2022-12-31", fast);
    expect(p).toHaveLength(730);
    expect(p[0]).toEqual({ day: "2021-01-01", price: 100, confidence: 0.99 });
    expect(p.at(-1)!.day).toBe("2022-12-31");
    const calls = hits.map((h) => new URL(`https://l.test${h}`));
    expect(calls.map((c) => c.pathname)).toEqual(["/chart/coingecko:bitcoin", "/chart/coingecko:bitcoin"]);
    expect(calls.map((c) => Number(c.searchParams.get("span")))).toEqual([365, 365]);
    expect(calls[0]!.searchParams.get("start")).toBe(String(Date.parse("2021-01-02T00:00:00Z") / 1000));
    expect(calls[0]!.searchParams.get("period")).toBe("1d");
  });

  it("asks DefiLlama for several ids at one instant", async () => {
    server.use(
      http.get("https://l.test/prices/historical/:ts/:coins", ({ params }) =>
        HttpResponse.json({
          coins: Object.fromEntries(
            String(params.coins)
              .split(",")
              .map((id, i) => [id, { price: 10 + i, symbol: "X", timestamp: Number(params.ts), confidence: 0.99 }]),
          ),
        }),
      ),
    );
    const m = await fetchDefiLlamaPricesAt(
      "https://l.test",
      ["coingecko:bitcoin", "solana:So11111111111111111111111111111111111111112"],
      new Date("2024-01-01T12:00:00Z"),
      fast,
    );
    expect([...m.values()]).toEqual([10, 11]);
    expect(hits[0]).toBe(
      `/prices/historical/${Date.parse("2024-01-01T12:00:00Z") / 1000}/coingecko:bitcoin,solana:So11111111111111111111111111111111111111112`,
    );
  });
});
