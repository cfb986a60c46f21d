import { sql } from "kysely";
import {
  addDays,
  coinInstrumentForSymbol,
  dayOf,
  dayStart,
  DEFILLAMA_BASE_URL,
  DEMO_DEFILLAMA_URL,
  DEMO_YAHOO_URL,
  fetchDefiLlamaDaily,
  fetchYahooDaily,
  isDay,
  nyCloseTime,
  parseInstrument,
  PriceSourceError,
  totalReturnLevels,
  unadjustSplits,
  walletTokenInstrument,
  YAHOO_BASE_URL,
  type DailyPrice,
  type Day,
  type FetchOptions,
  type Instrument,
} from "~/sources/prices.server";
import { pricesNeeded, type PriceLookup, type WalletTransaction } from "~/sources/swaps";
import { getDb, type DB } from "../platform/db.server";
import { isSimulated } from "../platform/demo.server";
import { getEnv } from "../platform/env.server";
import { log } from "../platform/log.server";

export { PriceSourceError, coinInstrumentForSymbol } from "~/sources/prices.server";
export type { DailyPrice, Day, Instrument } from "~/sources/prices.server";

/**
 * Historical daily USD prices, cached in the database (price_history, price_ranges): a request
 * reads the cache, asks the provider only for the days no earlier request covered, and stores
 * what it gets, so a re-import asks nothing twice. Only final days are cached (before today, UTC).
 */

type Range = { from: Day; to: Day };

function sources() {
  const env = getEnv();
  const options: FetchOptions = { timeoutMs: env.PRICES_TIMEOUT_MS };
  return isSimulated("prices", env)
    ? { yahoo: DEMO_YAHOO_URL, llama: DEMO_DEFILLAMA_URL, options }
    : { yahoo: YAHOO_BASE_URL, llama: DEFILLAMA_BASE_URL, options };
}

/** The last day whose price is final (a US close or a UTC day's end is behind us): yesterday, UTC. */
export function lastFinalDay(now = Date.now()): Day {
  return dayOf(now - 86_400_000);
}

/** The parts of [from, to] that no range covers (pure; exported for tests). */
export function missingRanges(covered: Range[], from: Day, to: Day): Range[] {
  const out: Range[] = [];
  let cursor = from;
  for (const r of [...covered].sort((a, b) => a.from.localeCompare(b.from))) {
    if (cursor > to) break;
    if (r.to < cursor) continue;
    if (r.from > cursor) out.push({ from: cursor, to: [addDays(r.from, -1), to].sort()[0]! });
    if (r.to >= cursor) cursor = addDays(r.to, 1);
  }
  if (cursor <= to) out.push({ from: cursor, to });
  return out;
}

async function coveredRanges(db: DB, instrument: string): Promise<Range[]> {
  return db
    .selectFrom("price_ranges")
    .select([sql<string>`from_day::text`.as("from"), sql<string>`to_day::text`.as("to")])
    .where("instrument", "=", instrument)
    .execute();
}

async function neighbour(
  db: DB,
  instrument: string,
  side: "before" | "after",
  day: Day,
): Promise<DailyPrice | undefined> {
  return db
    .selectFrom("price_history")
    .select([sql<string>`day::text`.as("day"), "price"])
    .where("instrument", "=", instrument)
    .where("day", side === "after" ? ">" : "<", day)
    .orderBy("day", side === "after" ? "asc" : "desc")
    .limit(1)
    .executeTakeFirst();
}

async function store(db: DB, instrument: string, prices: DailyPrice[], range: Range, replace = false): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (replace) await tx.deleteFrom("price_history").where("instrument", "=", instrument).execute();
    for (let i = 0; i < prices.length; i += 1000) {
      const rows = prices
        .slice(i, i + 1000)
        .map((p) => ({ instrument, day: p.day, price: p.price, confidence: p.confidence ?? null }));
      await tx
        .insertInto("price_history")
        .values(rows)
        .onConflict((oc) => oc.columns(["instrument", "day"]).doNothing())
        .execute();
    }
    await tx.insertInto("price_ranges").values({ instrument, from_day: range.from, to_day: range.to }).execute();
  });
}

/** Asks the provider for one missing range and stores it (with what else the answer covered). */
async function fill(db: DB, instrument: Instrument, gap: Range, lastFinal: Day): Promise<void> {
  const parsed = parseInstrument(instrument);
  const src = sources();
  if (parsed.kind === "coin") {
    const prices = await fetchDefiLlamaDaily(src.llama, parsed.id, gap.from, gap.to, src.options);
    await store(db, instrument, prices, gap);
    return;
  }
  // Yahoo's closes are adjusted to today: an answer that stops before today is linked to the first
  // stored day after it; one that runs to today needs no link for splits, and a total-return
  // answer is then linked to the stored day before it (adjclose's scale moves with each dividend).
  const next = await neighbour(db, instrument, "after", gap.to);
  const prev = !next && parsed.kind === "stock-tr" ? await neighbour(db, instrument, "before", gap.from) : undefined;
  let data = await fetchYahooDaily(src.yahoo, parsed.symbol, prev?.day ?? gap.from, next?.day ?? null, src.options);
  const covered: Range = { from: gap.from, to: next ? gap.to : lastFinal };
  if (data.notFound) {
    log("info", "prices: symbol not found", { instrument });
    await store(db, instrument, [], covered);
    return;
  }
  const link = next ?? prev;
  if (link && !data.bars.some((b) => b.day === link.day && (parsed.kind === "stock" || b.adjclose !== null))) {
    // Yahoo no longer has the stored day to link to (rare: a revised history).
    if (parsed.kind === "stock") {
      // As traded needs no link up to today.
      data = await fetchYahooDaily(src.yahoo, parsed.symbol, gap.from, null, src.options);
      const all = unadjustSplits(data);
      await store(
        db,
        instrument,
        all.filter((p) => p.day >= covered.from && p.day <= covered.to),
        covered,
      );
      return;
    }
    // Total return: one fresh answer for the whole run replaces the stored levels (one scale again).
    const first = (await neighbour(db, instrument, "after", "0001-01-01"))?.day ?? gap.from;
    const from = first < gap.from ? first : gap.from;
    const fresh = totalReturnLevels(await fetchYahooDaily(src.yahoo, parsed.symbol, from, null, src.options)).filter(
      (p) => p.day <= lastFinal,
    );
    await store(db, instrument, fresh, { from, to: lastFinal }, true);
    return;
  }
  const all = parsed.kind === "stock" ? unadjustSplits(data, next) : totalReturnLevels(data, link);
  await store(
    db,
    instrument,
    all.filter((p) => p.day >= covered.from && p.day <= covered.to),
    covered,
  );
}

/**
 * Daily USD prices of `instrument` from `fromDay` to `toDay` (inclusive, "YYYY-MM-DD"), ascending;
 * days without a price (weekends, holidays, before a listing) are absent, and so are days from
 * today on (not final yet). A coin's price carries DefiLlama's confidence when DefiLlama gave one
 * (a stock's never: Yahoo gives none). Throws PriceSourceError when a provider fails.
 */
export async function dailyPrices(instrument: Instrument, fromDay: Day, toDay: Day): Promise<DailyPrice[]> {
  if (!isDay(fromDay) || !isDay(toDay))
    throw new PriceSourceError(`Days must be YYYY-MM-DD (got ${fromDay} and ${toDay}).`);
  const parsed = parseInstrument(instrument);
  const key: Instrument = parsed.kind === "coin" ? `coin:${parsed.id}` : `${parsed.kind}:${parsed.symbol}`;
  const lastFinal = lastFinalDay();
  const to = toDay < lastFinal ? toDay : lastFinal;
  if (fromDay > to) return [];
  const db = await getDb();
  const covered = await coveredRanges(db, key);
  // A total-return series stays one contiguous run, each answer linked to what is stored.
  let wantFrom = fromDay;
  let wantTo = to;
  if (parsed.kind === "stock-tr" && covered.length) {
    for (const r of covered) {
      if (r.from < wantFrom) wantFrom = r.from;
      if (r.to > wantTo && r.to <= lastFinal) wantTo = r.to;
    }
  }
  for (const gap of missingRanges(covered, wantFrom, wantTo)) await fill(db, key, gap, lastFinal);
  const rows = await db
    .selectFrom("price_history")
    .select([sql<string>`day::text`.as("day"), "price", "confidence"])
    .where("instrument", "=", key)
    .where("day", ">=", fromDay)
    .where("day", "<=", to)
    .orderBy("day")
    .execute();
  return rows.map(({ day, price, confidence }) => (confidence === null ? { day, price } : { day, price, confidence }));
}

export type BenchmarkKind = "stocks" | "crypto";
/** symbol: "SPY", "BTC", or a blend "SPY 70/BTC 30" (whole percent of capital, see blendedBenchmark). */
export type BenchmarkSeries = { symbol: string; prices: { time: string; price: number }[] };

/** Below this share of the capital a class does not enter the benchmark (the record is one class). */
export const BLEND_MIN_SHARE = 0.1;

/**
 * A mixed record's benchmark: the S&P 500 and bitcoin weighted by the capital the record held in
 * each (crypto's share `cryptoWeight`, rounded to a whole percent so the name states the weights
 * exactly), rebalanced at every price of either (a constant mix, as a blended benchmark is). Each
 * series carried forward between its own prices; the level starts at 100.
 */
export function blendedBenchmark(
  stocks: BenchmarkSeries,
  crypto: BenchmarkSeries,
  cryptoWeight: number,
): BenchmarkSeries {
  const wc = Math.round(cryptoWeight * 100);
  const symbol = `SPY ${100 - wc}/BTC ${wc}`;
  const s = stocks.prices.map((p) => ({ t: Date.parse(p.time), p: p.price }));
  const c = crypto.prices.map((p) => ({ t: Date.parse(p.time), p: p.price }));
  if (s.length === 0 || c.length === 0) return { symbol, prices: [] };
  const times = [...new Set([...s, ...c].map((x) => x.t))].sort((a, b) => a - b);
  let i = 0;
  let j = 0;
  let level = 100;
  let prevS = s[0]!.p;
  let prevC = c[0]!.p;
  const prices: BenchmarkSeries["prices"] = [];
  for (const t of times) {
    while (i + 1 < s.length && s[i + 1]!.t <= t) i++;
    while (j + 1 < c.length && c[j + 1]!.t <= t) j++;
    const nowS = s[i]!.t <= t ? s[i]!.p : s[0]!.p;
    const nowC = c[j]!.t <= t ? c[j]!.p : c[0]!.p;
    level *= 1 + ((100 - wc) / 100) * (nowS / prevS - 1) + (wc / 100) * (nowC / prevC - 1);
    prevS = nowS;
    prevC = nowC;
    prices.push({ time: new Date(t).toISOString(), price: level });
  }
  return { symbol, prices };
}

/**
 * The market a record is measured against (Grade v2): SPY total-return closes for stock, ETF and
 * option records, BTC's daily USD price for crypto. Each price carries the instant it became known
 * (the New York close; the end of the UTC day for BTC), from the last one at or before `from` to
 * the last one at or before `to`.
 */
export async function benchmarkSeries(kind: BenchmarkKind, from: Date, to: Date): Promise<BenchmarkSeries> {
  const symbol: "SPY" | "BTC" = kind === "stocks" ? "SPY" : "BTC";
  if (!(from.getTime() <= to.getTime())) return { symbol, prices: [] };
  const instrument: Instrument = kind === "stocks" ? "stock-tr:SPY" : "coin:coingecko:bitcoin";
  // Ten days back finds a price before `from` across weekends and holidays.
  const rows = await dailyPrices(instrument, addDays(dayOf(from.getTime()), -10), dayOf(to.getTime()));
  const timed = rows.map((r) => ({
    time: kind === "stocks" ? nyCloseTime(r.day) : new Date(`${r.day}T23:59:59.999Z`),
    price: r.price,
  }));
  const firstIn = timed.findIndex((p) => p.time.getTime() > from.getTime());
  const start = firstIn === -1 ? Math.max(0, timed.length - 1) : Math.max(0, firstIn - 1);
  return {
    symbol,
    prices: timed
      .slice(start)
      .filter((p) => p.time.getTime() <= to.getTime())
      .map((p) => ({ time: p.time.toISOString(), price: p.price })),
  };
}

export type RiskFreeSeries = { symbol: "^IRX"; rates: { time: string; rate: number }[] };

/**
 * The risk-free rate of a grade (Grade v3): the 13-week US Treasury bill's yield, Yahoo's ^IRX
 * (quoted in percent), as annual fractions, each at the New York close it became known, from the
 * last one at or before `from` to the last one at or before `to`. Cached like any price.
 */
export async function riskFreeSeries(from: Date, to: Date): Promise<RiskFreeSeries> {
  if (!(from.getTime() <= to.getTime())) return { symbol: "^IRX", rates: [] };
  // Ten days back finds a yield before `from` across weekends and holidays.
  const rows = await dailyPrices("stock:^IRX", addDays(dayOf(from.getTime()), -10), dayOf(to.getTime()));
  const timed = rows.map((r) => ({ time: nyCloseTime(r.day), rate: r.price / 100 }));
  const firstIn = timed.findIndex((p) => p.time.getTime() > from.getTime());
  const start = firstIn === -1 ? Math.max(0, timed.length - 1) : Math.max(0, firstIn - 1);
  return {
    symbol: "^IRX",
    rates: timed
      .slice(start)
      .filter((p) => p.time.getTime() <= to.getTime() && p.rate > -1 && p.rate < 1)
      .map((p) => ({ time: p.time.toISOString(), rate: p.rate })),
  };
}

/**
 * Prices at instants, from the daily cache: for a token, log-linear between the ends of the day
 * before and of the day itself (DefiLlama's daily points); for a stock, the last close at or
 * before the instant. An instrument whose provider fails is left out (logged), so its lookups
 * answer undefined and the caller falls back.
 */
export async function pricesAt(
  needs: Array<{ instrument: Instrument; time: Date }>,
): Promise<(instrument: Instrument, time: Date) => number | undefined> {
  return (await quotesAt(needs)).price;
}

/** A price lookup and how far its source vouches for the price there (quotesAt). */
export type Quotes = {
  price: (instrument: Instrument, time: Date) => number | undefined;
  /**
   * A coin's: the confidence of the daily points its price is drawn from (the lower of the two),
   * 0 when the source answered but quotes no price within a day of the instant (a token nobody
   * else trades). Undefined for a stock (an exchange's close says nothing), a point without one,
   * or an instrument whose provider failed: the caller treats the fill as a market's, as before.
   */
  confidence: (instrument: Instrument, time: Date) => number | undefined;
};

type Point = { t: number; price: number; confidence?: number };

/** pricesAt's lookup, with each price's confidence (DECISIONS 219). */
export async function quotesAt(needs: Array<{ instrument: Instrument; time: Date }>): Promise<Quotes> {
  const byInstrument = new Map<Instrument, { from: Day; to: Day }>();
  for (const n of needs) {
    const day = dayOf(n.time.getTime());
    const r = byInstrument.get(n.instrument);
    byInstrument.set(n.instrument, { from: r && r.from < day ? r.from : day, to: r && r.to > day ? r.to : day });
  }
  const series = new Map<Instrument, Point[]>();
  for (const [instrument, r] of byInstrument) {
    try {
      const coin = instrument.startsWith("coin:");
      const rows = await dailyPrices(instrument, addDays(r.from, coin ? -1 : -10), r.to);
      series.set(
        instrument,
        rows.map((p) => ({
          t: coin ? dayStart(p.day) + 86_400_000 : nyCloseTime(p.day).getTime(),
          price: p.price,
          ...(p.confidence !== undefined ? { confidence: p.confidence } : {}),
        })),
      );
    } catch (error) {
      if (!(error instanceof PriceSourceError)) throw error;
      log("info", "prices: no historical prices", { instrument, error: error.message });
    }
  }
  // The points an instant's price is drawn from: [before, after] to interpolate, or the one nearest.
  const pointsAt = (instrument: Instrument, time: Date): Point[] => {
    const points = series.get(instrument);
    if (!points?.length) return [];
    const t = time.getTime();
    let i = points.length - 1;
    while (i >= 0 && points[i]!.t > t) i--;
    const before = points[i];
    const after = points[i + 1];
    if (!instrument.startsWith("coin:")) return before && t - before.t < 10 * 86_400_000 ? [before] : [];
    if (before && after && after.t - before.t <= 86_400_000) return [before, after];
    // At the edge (e.g. today, not final yet): the nearest day's end within a day.
    const near = [before, after]
      .filter((p): p is Point => p !== undefined && Math.abs(p.t - t) <= 86_400_000)
      .sort((a, b) => Math.abs(a.t - t) - Math.abs(b.t - t))[0];
    return near ? [near] : [];
  };
  return {
    price: (instrument, time) => {
      const points = pointsAt(instrument, time);
      if (points.length === 2) {
        const [before, after] = points as [Point, Point];
        const f = (time.getTime() - before.t) / (after.t - before.t);
        return Math.exp((1 - f) * Math.log(before.price) + f * Math.log(after.price));
      }
      return points[0]?.price;
    },
    confidence: (instrument, time) => {
      if (!instrument.startsWith("coin:") || !series.has(instrument)) return undefined;
      const points = pointsAt(instrument, time);
      if (!points.length) return 0;
      let least: number | undefined;
      for (const p of points) {
        if (p.confidence === undefined) return undefined;
        least = least === undefined ? p.confidence : Math.min(least, p.confidence);
      }
      return least;
    },
  };
}

/** A wallet's price lookups for app/sources/swaps.ts `valueSwaps`: its `priceAt` and `confidenceAt`. */
export type SwapLookups = { priceAt: PriceLookup; confidenceAt: PriceLookup };

/**
 * The lookups for app/sources/swaps.ts `valueSwaps`, for one wallet's transactions: prefetches
 * (through the cache) the historical USD prices of the tokens its swaps trade, its fees and (with
 * `transfers`) the tokens it received or sent need, with the source's confidence in each (a
 * fill's, DECISIONS 219). Keys are the adapters' token keys (see walletTokenInstrument).
 */
export async function swapPriceLookup(
  chain: { kind: "evm"; chainId: number } | { kind: "solana" },
  transactions: WalletTransaction[],
  opts: Parameters<typeof pricesNeeded>[1] = {},
): Promise<SwapLookups> {
  const instrumentOf = (token: string) => walletTokenInstrument(chain, token);
  const needs = pricesNeeded(transactions, opts).flatMap((n) => {
    const instrument = instrumentOf(n.token);
    return instrument ? [{ instrument, time: n.time }] : [];
  });
  const quotes = await quotesAt(needs);
  const through =
    (lookup: Quotes["price"]): PriceLookup =>
    (token, time) => {
      const instrument = instrumentOf(token);
      return instrument ? lookup(instrument, time) : undefined;
    };
  return { priceAt: through(quotes.price), confidenceAt: through(quotes.confidence) };
}

/** Price requests in flight at once for one record's closes (a provider's rate limit is per client). */
const CLOSES_CONCURRENCY = 4;

/** A market close with the instant it became known, who quoted it and how far it vouches for it. */
export type MarketClose = { time: number; price: number; source: "yahoo" | "defillama"; confidence?: number };

/**
 * Daily closes of a record's symbols from `from` to `to`, through the cache, each with the instant
 * it became known: a stock's or ETF's as-traded close (never split-adjusted, like its fills) at
 * the New York close, a crypto ticker we know at the end of its UTC day. Each says its source and
 * confidence (DECISIONS 208): Yahoo's closes are an exchange's, confidence 1; a coin's carries
 * DefiLlama's own, and none when DefiLlama gave none (the engine then never lets it raise a
 * value). A symbol the source does not know, or whose provider fails, is left out (logged): its
 * positions keep the prices they traded at.
 */
export async function marketCloses(
  symbols: ReadonlyArray<{ symbol: string; assetClass: string }>,
  from: Date,
  to: Date,
): Promise<Map<string, MarketClose[]>> {
  const out = new Map<string, MarketClose[]>();
  if (!(from.getTime() <= to.getTime())) return out;
  const fromDay = addDays(dayOf(from.getTime()), -10);
  const toDay = dayOf(to.getTime());
  const queue = symbols.flatMap(({ symbol, assetClass }) => {
    const coin = assetClass === "crypto";
    const instrument = coin ? coinInstrumentForSymbol(symbol) : stockInstrument(symbol);
    return instrument ? [{ symbol, instrument, coin }] : [];
  });
  const work = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { symbol, instrument, coin } = next;
      try {
        const rows = await dailyPrices(instrument, fromDay, toDay);
        out.set(
          symbol,
          rows.map((r): MarketClose =>
            coin
              ? {
                  time: dayStart(r.day) + 86_400_000 - 1,
                  price: r.price,
                  source: "defillama",
                  ...(r.confidence !== undefined ? { confidence: r.confidence } : {}),
                }
              : { time: nyCloseTime(r.day).getTime(), price: r.price, source: "yahoo", confidence: 1 },
          ),
        );
      } catch (error) {
        if (!(error instanceof PriceSourceError)) throw error;
        log("info", "prices: no closes for a traded symbol", { instrument, error: error.message });
      }
    }
  };
  await Promise.all(Array.from({ length: CLOSES_CONCURRENCY }, work));
  return out;
}

/** A stock or ETF ticker as Yahoo spells it (a class share's dot is a dash: BRK.B → BRK-B), or null. */
function stockInstrument(symbol: string): Instrument | null {
  const yahoo = symbol.toUpperCase().replace(/\./g, "-");
  return /^[A-Z][A-Z0-9-]{0,9}$/.test(yahoo) ? `stock:${yahoo}` : null;
}
