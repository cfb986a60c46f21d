import { sql } from "kysely";
import { CURRENCY_CODE, DEFAULT_BASE_CURRENCY, ECB_QUOTED_CURRENCIES } from "~/lib/currencies";
import { crossRate, DEMO_FX_RATES_URL, fetchEcbRange, type EcbDay } from "~/sources/fx-rates.server";
import { addDays, dayOf, isDay, PriceSourceError, type Day } from "~/sources/prices.server";
import type { DB } from "../platform/db.server";
import { isSimulated } from "../platform/demo.server";
import { getEnv } from "../platform/env.server";
import { lastFinalDay, missingRanges } from "./prices.server";

/**
 * The ECB's daily euro reference rates, cached in price_history/price_ranges like prices (DECISIONS
 * 180): instrument `fx:EUR/<CUR>`, price = units of <CUR> per 1 EUR, one row per publication day,
 * and the ranges already asked (weekends and holidays included) so nothing is asked twice. Only
 * final days are cached (before today, UTC); a later instant takes the last final day's rates.
 */

/** The ledger contract's `fxRates` (app/grading/ledger.ts): units of the base per 1 unit of each currency. */
export type FxRates = { source: string; rates: Array<{ currency: string; time: string; rate: number }> };

export const FX_RATES_SOURCE = "ECB euro reference rates";

/** Days looked back before the first instant, so it has a rate across a long holiday weekend (Frankfurter's own lookback). */
export const FX_LOOKBACK_DAYS = 14;

const instrumentOf = (currency: string) => `fx:EUR/${currency}`;

function settings() {
  const env = getEnv();
  return {
    url: isSimulated("fx-rates", env) ? DEMO_FX_RATES_URL : env.FX_RATES_URL,
    options: { timeoutMs: env.FX_RATES_TIMEOUT_MS },
  };
}

/**
 * The ECB's quotes (units per 1 EUR) of `currencies` from `fromDay` to `toDay`, through the cache:
 * the provider is asked only for the days no earlier request covered, one request for the
 * currencies missing the same days. Currencies the ECB does not quote are never asked.
 */
export async function ecbQuotes(
  db: DB,
  currencies: readonly string[],
  fromDay: Day,
  toDay: Day,
): Promise<Map<string, Array<{ day: Day; rate: number }>>> {
  const quoted = [...new Set(currencies)].filter((c) => ECB_QUOTED_CURRENCIES.includes(c as never)).sort();
  const out = new Map<string, Array<{ day: Day; rate: number }>>();
  const lastFinal = lastFinalDay();
  const to = toDay < lastFinal ? toDay : lastFinal;
  if (!quoted.length || fromDay > to) return out;
  // Gaps per currency, then one request per distinct gap for every currency that lacks it.
  const gaps = new Map<string, { from: Day; to: Day; currencies: string[] }>();
  const covered = await db
    .selectFrom("price_ranges")
    .select(["instrument", sql<string>`from_day::text`.as("from"), sql<string>`to_day::text`.as("to")])
    .where("instrument", "in", quoted.map(instrumentOf))
    .execute();
  for (const currency of quoted) {
    const mine = covered.filter((r) => r.instrument === instrumentOf(currency));
    for (const gap of missingRanges(mine, fromDay, to)) {
      const key = `${gap.from}..${gap.to}`;
      const g = gaps.get(key) ?? { ...gap, currencies: [] };
      g.currencies.push(currency);
      gaps.set(key, g);
    }
  }
  const src = gaps.size ? settings() : null;
  for (const gap of gaps.values()) {
    const days = await fetchEcbRange(src!.url, gap.currencies, gap.from, gap.to, src!.options);
    await store(db, gap.currencies, days, gap);
  }
  const rows = await db
    .selectFrom("price_history")
    .select(["instrument", sql<string>`day::text`.as("day"), "price"])
    .where("instrument", "in", quoted.map(instrumentOf))
    .where("day", ">=", fromDay)
    .where("day", "<=", to)
    .orderBy("instrument")
    .orderBy("day")
    .execute();
  for (const r of rows) {
    const currency = r.instrument.slice("fx:EUR/".length);
    const list = out.get(currency) ?? [];
    list.push({ day: r.day, rate: r.price });
    out.set(currency, list);
  }
  return out;
}

async function store(db: DB, currencies: string[], days: EcbDay[], range: { from: Day; to: Day }): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const rows = days.flatMap((d) =>
      currencies.flatMap((c) =>
        d.rates[c] !== undefined ? [{ instrument: instrumentOf(c), day: d.day, price: d.rates[c]! }] : [],
      ),
    );
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insertInto("price_history")
        .values(rows.slice(i, i + 1000))
        .onConflict((oc) => oc.columns(["instrument", "day"]).doNothing())
        .execute();
    }
    await tx
      .insertInto("price_ranges")
      .values(currencies.map((c) => ({ instrument: instrumentOf(c), from_day: range.from, to_day: range.to })))
      .execute();
  });
}

/**
 * The `fxRates` of a ledger in `baseCurrency` holding amounts in `currencies`, for the instants
 * from `fromIso` to `toIso`: for each currency other than the base, its value in the base on every
 * ECB publication day from the last one on or before `fromIso` (up to FX_LOOKBACK_DAYS back) to
 * `toIso`, cross-computed from the euro quotes (quote(base) ÷ quote(currency)), each at 00:00 UTC
 * of its day (a day's rate values that whole day's events; the engine carries it forward). A
 * currency the ECB does not quote gets no rates: the engine counts its rows as not usable.
 * Throws PriceSourceError when the provider fails.
 */
export async function fxRatesFor(
  db: DB,
  baseCurrency: string,
  currencies: readonly string[],
  fromIso: string,
  toIso: string,
): Promise<FxRates> {
  const base = baseCurrency || DEFAULT_BASE_CURRENCY;
  if (!CURRENCY_CODE.test(base)) throw new PriceSourceError(`"${base}" is not a currency code.`);
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  if (!Number.isFinite(from) || !Number.isFinite(to))
    throw new PriceSourceError(`Not instants: ${fromIso} and ${toIso}.`);
  // Only what the ECB quotes (and the euro) can be valued; the base too, or nothing can.
  const known = (c: string) => c === "EUR" || ECB_QUOTED_CURRENCIES.includes(c as never);
  const wanted = [...new Set(currencies)].filter((c) => c !== base && known(c)).sort();
  if (!wanted.length || !known(base) || from > to) return { source: FX_RATES_SOURCE, rates: [] };
  const fromDay = addDays(dayOf(from), -FX_LOOKBACK_DAYS);
  const toDay = dayOf(to);
  if (!isDay(fromDay) || !isDay(toDay)) throw new PriceSourceError(`Not days: ${fromDay} and ${toDay}.`);
  const quotes = await ecbQuotes(db, [base, ...wanted], fromDay, toDay);
  // One row per publication day, each currency's quote on it (the euro is 1 every day).
  const byDay = new Map<Day, Record<string, number>>();
  for (const [currency, list] of quotes)
    for (const { day, rate } of list) byDay.set(day, { ...(byDay.get(day) ?? {}), [currency]: rate });
  const days = [...byDay.keys()].sort();
  // From the last publication on or before the first instant.
  const firstIn = days.findIndex((d) => Date.parse(`${d}T00:00:00Z`) > from);
  const start = firstIn === -1 ? Math.max(0, days.length - 1) : Math.max(0, firstIn - 1);
  const rates: FxRates["rates"] = [];
  for (const currency of wanted) {
    for (const day of days.slice(start)) {
      const rate = crossRate(byDay.get(day)!, base, currency);
      if (rate !== undefined) rates.push({ currency, time: `${day}T00:00:00.000Z`, rate });
    }
  }
  return { source: FX_RATES_SOURCE, rates };
}
