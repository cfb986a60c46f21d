import { CURRENCY_CODE } from "~/lib/currencies";
import { getJson, isDay, PriceSourceError, type Day, type FetchOptions } from "./prices.server";

/**
 * The ECB's euro foreign exchange reference rates, through Frankfurter's v1 API (ECB-only, frozen;
 * docs/SOURCES.md "FX rates"). Pure apart from the fetch: the base URL and options are arguments,
 * the cache lives in app/server/grades/fx-rates.server.ts.
 *
 * - `GET {base}/v1/{start}..{end}?base=EUR&symbols=USD,CAD` → `{amount, base, start_date, end_date,
 *   rates: {day: {USD: 1.0856, …}}}`: only the days the ECB published (no weekends, no TARGET
 *   holidays); start_date and end_date are the first and last of those days. Nothing published in
 *   the range, or only unknown symbols: 404 `{"message":"not found"}`.
 * - `GET {base}/v1/{day}?base=EUR&symbols=…` → `{amount, base, date, rates}`: the last published
 *   day on or before `day` (carried forward over weekends and holidays), `date` being that day.
 * - 422 `{"message": …}` for bad input ("bad currency pair" when base = symbols, an impossible date).
 *
 * Every rate is in units of the currency per 1 euro (ECB-style). A symbol the ECB does not quote
 * is simply absent from an answer that has others.
 */

export const FRANKFURTER_BASE_URL = "https://api.frankfurter.dev";
// Demo mode (FX_RATES_LIVE unset): the msw simulator in test/mocks/fx-rates.ts answers it.
export const DEMO_FX_RATES_URL = "https://fx.demo.grader.invalid";

/** One ECB publication day: units of each currency per 1 EUR. */
export type EcbDay = { day: Day; rates: Record<string, number> };

function symbolsParam(currencies: readonly string[]): string {
  const list = [...new Set(currencies.map((c) => c.toUpperCase()))].filter((c) => c !== "EUR").sort();
  for (const c of list) if (!CURRENCY_CODE.test(c)) throw new PriceSourceError(`"${c}" is not a currency code.`);
  if (!list.length) throw new PriceSourceError("No currency to ask the ECB's rates for.");
  return list.join(",");
}

function cleanRates(raw: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [code, rate] of Object.entries(raw as Record<string, unknown>))
    if (CURRENCY_CODE.test(code) && typeof rate === "number" && Number.isFinite(rate) && rate > 0) out[code] = rate;
  return out;
}

function checkEuroBase(body: Record<string, unknown>) {
  if (body.base !== "EUR" || (body.amount !== undefined && body.amount !== 1))
    throw new PriceSourceError("Frankfurter answered rates that are not per 1 euro.");
}

/** Maps a range answer to its publication days, ascending (pure). */
export function mapFrankfurterRange(body: unknown): EcbDay[] {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== "object" || !b.rates || typeof b.rates !== "object")
    throw new PriceSourceError("Frankfurter answered with something that is not a range of rates.");
  checkEuroBase(b);
  return Object.entries(b.rates as Record<string, unknown>)
    .filter(([day]) => isDay(day))
    .map(([day, rates]) => ({ day, rates: cleanRates(rates) }))
    .filter((d) => Object.keys(d.rates).length > 0)
    .sort((a, b) => a.day.localeCompare(b.day));
}

/** Maps a single-date answer to the publication day it carries (pure). */
export function mapFrankfurterDay(body: unknown): EcbDay {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== "object" || typeof b.date !== "string" || !isDay(b.date))
    throw new PriceSourceError("Frankfurter answered with something that is not a day's rates.");
  checkEuroBase(b);
  return { day: b.date, rates: cleanRates(b.rates) };
}

/**
 * The ECB's rates of `currencies` against the euro on every day it published from `fromDay` to
 * `toDay` (inclusive). Nothing published (a holiday weekend, only unknown symbols): [].
 */
export async function fetchEcbRange(
  baseUrl: string,
  currencies: readonly string[],
  fromDay: Day,
  toDay: Day,
  options?: FetchOptions,
): Promise<EcbDay[]> {
  if (!isDay(fromDay) || !isDay(toDay) || fromDay > toDay)
    throw new PriceSourceError(`Not a range of days: ${fromDay}..${toDay}.`);
  const url = new URL(`${baseUrl.replace(/\/$/, "")}/v1/${fromDay}..${toDay}`);
  url.searchParams.set("base", "EUR");
  url.searchParams.set("symbols", symbolsParam(currencies));
  const { status, body } = await getJson("Frankfurter (ECB rates)", url, options);
  return status === 404 ? [] : mapFrankfurterRange(body);
}

/**
 * The ECB's rates of `currencies` in force on `day`: its last publication on or before it (the
 * answer's `day` is that publication's), or null when nothing was published in the lookback.
 */
export async function fetchEcbOn(
  baseUrl: string,
  currencies: readonly string[],
  day: Day,
  options?: FetchOptions,
): Promise<EcbDay | null> {
  if (!isDay(day)) throw new PriceSourceError(`"${day}" is not a day (YYYY-MM-DD).`);
  const url = new URL(`${baseUrl.replace(/\/$/, "")}/v1/${day}`);
  url.searchParams.set("base", "EUR");
  url.searchParams.set("symbols", symbolsParam(currencies));
  const { status, body } = await getJson("Frankfurter (ECB rates)", url, options);
  return status === 404 ? null : mapFrankfurterDay(body);
}

/**
 * How many units of `base` one unit of `currency` is worth, from one day's euro quotes (units per
 * 1 EUR; the euro itself is 1): quote(base) ÷ quote(currency). Undefined when either is missing.
 * With EUR→USD 1.10 and EUR→CAD 1.50, one CAD is 1.10 ÷ 1.50 = 0.7333… USD.
 */
export function crossRate(eurQuotes: Record<string, number>, base: string, currency: string): number | undefined {
  const q = (c: string) => (c === "EUR" ? 1 : eurQuotes[c]);
  const b = q(base);
  const c = q(currency);
  return b !== undefined && c !== undefined && b > 0 && c > 0 ? b / c : undefined;
}
