import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_FX_RATES_URL } from "~/sources/fx-rates.server";
import { fxRateHandlers, simulatedEcbRate } from "../mocks/fx-rates";

// The FX rates service in-process against PGlite (or DATABASE_URL's PostgreSQL), the ECB's rates
// answered by the demo simulator at the network edge: the cross rates it makes, what it asks twice
// (nothing).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
process.env.FX_RATES_LIVE = "0";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { fxRatesFor, ecbQuotes } = await import("~/server/grades/fx-rates.server");

const server = setupServer(...fxRateHandlers());
const requests: string[] = [];

beforeAll(async () => {
  await migrateToLatest();
  // A PostgreSQL test database keeps its cache between runs: start from no rates.
  const db = await getDb();
  await db.deleteFrom("price_history").where("instrument", "like", "fx:%").execute();
  await db.deleteFrom("price_ranges").where("instrument", "like", "fx:%").execute();
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("response:mocked", ({ request }) => {
    const u = new URL(request.url);
    requests.push(`${u.pathname}?symbols=${u.searchParams.get("symbols")}`);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests.length = 0;
});

describe("fxRatesFor", () => {
  it("cross-computes from the euro quotes: EUR→USD 1.10 and EUR→CAD 1.50 make 1 CAD worth 0.7333… USD", async () => {
    // Hand-made quotes for one week of 2019 (a Monday to a Friday), answered once.
    const rates: Record<string, Record<string, number>> = {};
    for (const day of ["2019-03-04", "2019-03-05", "2019-03-06", "2019-03-07", "2019-03-08"])
      rates[day] = { CAD: 1.5, GBP: 0.88, USD: 1.1 };
    rates["2019-03-08"] = { CAD: 1.5, GBP: 0.8, USD: 1.2 };
    server.use(
      http.get(
        `${DEMO_FX_RATES_URL}/v1/:when`,
        () => HttpResponse.json({ amount: 1.0, base: "EUR", start_date: "2019-03-04", end_date: "2019-03-08", rates }),
        { once: true },
      ),
    );
    const db = await getDb();
    const fx = await fxRatesFor(
      db,
      "USD",
      ["CAD", "EUR", "GBP", "USD"],
      "2019-03-05T15:00:00Z",
      "2019-03-08T20:00:00Z",
    );
    expect(fx.source).toBe("ECB euro reference rates");
    // From the publication on or before the first instant: 5 March's own, at its 00:00.
    const of = (c: string) => fx.rates.filter((r) => r.currency === c);
    expect(of("CAD").map((r) => r.time)).toEqual([
      "2019-03-05T00:00:00.000Z",
      "2019-03-06T00:00:00.000Z",
      "2019-03-07T00:00:00.000Z",
      "2019-03-08T00:00:00.000Z",
    ]);
    expect(of("CAD")[0]!.rate).toBeCloseTo(1.1 / 1.5, 12);
    expect(of("CAD")[0]!.rate).toBeCloseTo(0.733333, 6);
    expect(of("CAD")[3]!.rate).toBeCloseTo(0.8, 12); // 1.20 ÷ 1.50
    expect(of("EUR")[0]!.rate).toBeCloseTo(1.1, 12); // the euro: quote(USD) ÷ 1
    expect(of("GBP")[0]!.rate).toBeCloseTo(1.25, 12); // 1.10 ÷ 0.88
    expect(of("GBP")[3]!.rate).toBeCloseTo(1.5, 12); // 1.20 ÷ 0.80
    expect(of("USD")).toEqual([]); // the base itself needs no rate
    // One request for every currency (the base's quote included), from 14 days before the first instant.
    expect(requests).toEqual(["/v1/2019-02-19..2019-03-08?symbols=CAD,GBP,USD"]);

    // In euros: 1 USD = 1 ÷ 1.10 EUR.
    requests.length = 0;
    const inEuros = await fxRatesFor(db, "EUR", ["USD"], "2019-03-05T15:00:00Z", "2019-03-08T20:00:00Z");
    expect(inEuros.rates[0]).toEqual({ currency: "USD", time: "2019-03-05T00:00:00.000Z", rate: 1 / 1.1 });
    expect(requests).toEqual([]); // from the cache
  });

  it("asks the provider once: a second call, and a shorter one inside it, read the cache", async () => {
    const db = await getDb();
    const first = await fxRatesFor(db, "GBP", ["CAD", "JPY"], "2024-03-27T10:00:00Z", "2024-04-05T10:00:00Z");
    expect(requests).toEqual(["/v1/2024-03-13..2024-04-05?symbols=CAD,GBP,JPY"]);
    // Easter 2024: nothing on Good Friday (29 March) or Easter Monday (1 April).
    const days = [...new Set(first.rates.map((r) => r.time.slice(0, 10)))];
    expect(days).toEqual(["2024-03-27", "2024-03-28", "2024-04-02", "2024-04-03", "2024-04-04", "2024-04-05"]);
    const cad = first.rates.find((r) => r.currency === "CAD" && r.time.startsWith("2024-04-02"))!;
    expect(cad.rate).toBeCloseTo(simulatedEcbRate("GBP", "2024-04-02")! / simulatedEcbRate("CAD", "2024-04-02")!, 12);
    expect(cad.rate).toBeGreaterThan(0.5);
    expect(cad.rate).toBeLessThan(0.7);

    requests.length = 0;
    expect(await fxRatesFor(db, "GBP", ["CAD", "JPY"], "2024-03-27T10:00:00Z", "2024-04-05T10:00:00Z")).toEqual(first);
    const inner = await fxRatesFor(db, "GBP", ["JPY"], "2024-04-02T12:00:00Z", "2024-04-03T12:00:00Z");
    expect(inner.rates.map((r) => r.time.slice(0, 10))).toEqual(["2024-04-02", "2024-04-03"]);
    expect(requests).toEqual([]);

    // A new currency over the same days is asked alone; a later week only for its own days.
    await fxRatesFor(db, "GBP", ["CAD", "CHF"], "2024-03-27T10:00:00Z", "2024-04-05T10:00:00Z");
    expect(requests).toEqual(["/v1/2024-03-13..2024-04-05?symbols=CHF"]);
    requests.length = 0;
    await fxRatesFor(db, "GBP", ["CAD"], "2024-04-01T10:00:00Z", "2024-04-12T10:00:00Z");
    expect(requests).toEqual(["/v1/2024-04-06..2024-04-12?symbols=CAD,GBP"]);
  });

  it("carries the rate of the Thursday before Easter to an instant on Easter Monday", async () => {
    const db = await getDb();
    const fx = await fxRatesFor(db, "GBP", ["CAD"], "2024-04-01T10:00:00Z", "2024-04-01T18:00:00Z");
    expect(fx.rates).toHaveLength(1);
    expect(fx.rates[0]!.time).toBe("2024-03-28T00:00:00.000Z");
  });

  it("gives no rates for a currency the ECB does not quote, and none for days not final yet", async () => {
    const db = await getDb();
    const fx = await fxRatesFor(db, "USD", ["XAU"], "2024-03-27T10:00:00Z", "2024-04-05T10:00:00Z");
    expect(fx.rates).toEqual([]);
    expect(requests).toEqual([]);
    const future = await ecbQuotes(db, ["USD"], "2999-01-01", "2999-01-31");
    expect(future.size).toBe(0);
  });
});
