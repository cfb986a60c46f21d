import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fxRateHandlers, isEcbPublicationDay, simulatedEcbRate } from "../../test/mocks/fx-rates";
import { crossRate, DEMO_FX_RATES_URL, fetchEcbOn, fetchEcbRange } from "./fx-rates.server";
import { PriceSourceError } from "./prices.server";

// The ECB rates simulator (test/mocks/fx-rates.ts) read through the real adapter: the days the ECB
// published, a single date carried forward, Frankfurter's errors.
const server = setupServer(...fxRateHandlers());
const statuses: number[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("response:mocked", ({ response }) => void statuses.push(response.status));
});
afterAll(() => server.close());
const opts = { retries: 0 };

describe("a range", () => {
  it("answers only publication days: no weekend, no Good Friday or Easter Monday (Easter 2024 is 31 March)", async () => {
    const days = await fetchEcbRange(DEMO_FX_RATES_URL, ["USD", "CAD"], "2024-03-26", "2024-04-03", opts);
    expect(days.map((d) => d.day)).toEqual(["2024-03-26", "2024-03-27", "2024-03-28", "2024-04-02", "2024-04-03"]);
    for (const d of days) {
      expect(Object.keys(d.rates).sort()).toEqual(["CAD", "USD"]);
      expect(d.rates.USD).toBe(simulatedEcbRate("USD", d.day));
      expect(d.rates.USD).toBeGreaterThan(0.95);
      expect(d.rates.USD).toBeLessThan(1.25);
      expect(d.rates.CAD).toBeGreaterThan(1.3);
      expect(d.rates.CAD).toBeLessThan(1.7);
    }
    // The same day has the same rate whatever range asks for it.
    const one = await fetchEcbRange(DEMO_FX_RATES_URL, ["USD"], "2024-03-28", "2024-03-28", opts);
    expect(one).toEqual([{ day: "2024-03-28", rates: { USD: days[2]!.rates.USD } }]);
  });

  it("is empty (Frankfurter's 404) over a range with no publication: Christmas 2021 and the weekend after", async () => {
    expect(isEcbPublicationDay("2021-12-24")).toBe(true);
    expect(await fetchEcbRange(DEMO_FX_RATES_URL, ["USD"], "2021-12-25", "2021-12-26", opts)).toEqual([]);
    expect(statuses.at(-1)).toBe(404);
  });

  it("leaves out a currency the ECB does not quote, and answers 404 when it is the only one", async () => {
    const days = await fetchEcbRange(DEMO_FX_RATES_URL, ["USD", "XAU"], "2024-01-08", "2024-01-09", opts);
    expect(days.map((d) => Object.keys(d.rates))).toEqual([["USD"], ["USD"]]);
    expect(await fetchEcbRange(DEMO_FX_RATES_URL, ["RUB"], "2024-01-08", "2024-01-09", opts)).toEqual([]);
    expect(statuses.at(-1)).toBe(404);
  });
});

describe("a single date", () => {
  it("carries the last publication forward with its own date: Easter Monday 2024 → Thursday 28 March", async () => {
    const on = await fetchEcbOn(DEMO_FX_RATES_URL, ["GBP", "JPY"], "2024-04-01", opts);
    expect(on).toEqual({
      day: "2024-03-28",
      rates: { GBP: simulatedEcbRate("GBP", "2024-03-28"), JPY: simulatedEcbRate("JPY", "2024-03-28") },
    });
    expect((await fetchEcbOn(DEMO_FX_RATES_URL, ["USD"], "2024-01-06", opts))?.day).toBe("2024-01-05");
    expect((await fetchEcbOn(DEMO_FX_RATES_URL, ["USD"], "2024-01-08", opts))?.day).toBe("2024-01-08");
  });
});

describe("errors", () => {
  it("answers 422 for a bad currency pair (EUR against EUR) and for an impossible date, as PriceSourceError", async () => {
    // The adapter always asks against EUR and never for EUR, so this is the raw call.
    const pair = await fetch(`${DEMO_FX_RATES_URL}/v1/2024-01-08?base=USD&symbols=USD`);
    expect(pair.status).toBe(422);
    expect(await pair.json()).toEqual({ message: "bad currency pair" });
    const error = await fetchEcbRange(DEMO_FX_RATES_URL, ["USD"], "2024-01-08", "2024-02-30", opts).catch((e) => e);
    expect(error).toBeInstanceOf(PriceSourceError);
    expect(error.message).toMatch(/Not a range of days/);
    const bad = await fetch(`${DEMO_FX_RATES_URL}/v1/2024-02-30..2024-03-02?base=EUR&symbols=USD`);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ message: "invalid date" });
  });

  it("turns Frankfurter's 422 into a PriceSourceError with the status and its message", async () => {
    server.use(
      http.get(
        `${DEMO_FX_RATES_URL}/v1/:when`,
        () => HttpResponse.json({ message: "bad currency pair" }, { status: 422 }),
        {
          once: true,
        },
      ),
    );
    const error = await fetchEcbOn(DEMO_FX_RATES_URL, ["USD"], "2024-01-08", opts).catch((e) => e);
    expect(error).toBeInstanceOf(PriceSourceError);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/HTTP 422: \{"message":"bad currency pair"\}/);
  });

  it("refuses what is not a currency code before asking", async () => {
    await expect(fetchEcbRange(DEMO_FX_RATES_URL, ["usd$"], "2024-01-08", "2024-01-09", opts)).rejects.toThrow(
      /not a currency code/,
    );
  });
});

describe("crossRate", () => {
  it("values one unit of a currency in the base from the euro quotes: EUR→USD 1.10 and EUR→CAD 1.50 make 1 CAD 0.7333… USD", () => {
    const q = { USD: 1.1, CAD: 1.5 };
    expect(crossRate(q, "USD", "CAD")).toBeCloseTo(0.733333333, 9);
    expect(crossRate(q, "CAD", "USD")).toBeCloseTo(1.363636364, 9);
    expect(crossRate(q, "USD", "EUR")).toBeCloseTo(1.1, 12);
    expect(crossRate(q, "EUR", "USD")).toBeCloseTo(1 / 1.1, 12);
    expect(crossRate(q, "USD", "GBP")).toBeUndefined();
  });
});
