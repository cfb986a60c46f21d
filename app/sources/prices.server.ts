import { setTimeout as sleep } from "node:timers/promises";

/**
 * Historical USD daily prices (pure: fetch and map, return data; the cache lives in
 * app/server/prices.server.ts). Two keyless providers:
 *
 * - Stocks and ETFs: Yahoo's chart API (unofficial) `GET {base}/v8/finance/chart/{SYM}?period1&period2
 *   &interval=1d&events=div,split`. `close` is split-adjusted as of today, `adjclose` split- and
 *   dividend-adjusted, `events.splits` lists {date, numerator, denominator}. Our ledger's trade prices
 *   are as traded, so closes are un-adjusted (see `unadjustSplits`).
 * - Crypto tokens: DefiLlama's coins API `GET {base}/chart/{id}?start&span&period=1d` (ids like
 *   `coingecko:bitcoin`, `ethereum:0x…`, `solana:<mint>`) and `/prices/historical/{ts}/{ids}`.
 *
 * Every call has a time limit and retries 429 and 5xx with backoff (Retry-After when given).
 */

/** A UTC calendar day, "YYYY-MM-DD". */
export type Day = string;
/** `confidence`: how far the provider vouches for the price, 0–1, when it says (DefiLlama does; Yahoo does not). */
export type DailyPrice = { day: Day; price: number; confidence?: number };

/**
 * What a price is asked for, as one string (the cache's key):
 * - `stock:NVDA` — a stock/ETF's daily close as traded (never split-adjusted), USD;
 * - `stock-tr:SPY` — a total-return level (Yahoo adjclose: splits and reinvested dividends), for benchmarks;
 * - `coin:<DefiLlama id>` — a token's USD price at the end of each UTC day, e.g. `coin:coingecko:bitcoin`.
 */
export type Instrument = `stock:${string}` | `stock-tr:${string}` | `coin:${string}`;

export type ParsedInstrument = { kind: "stock" | "stock-tr"; symbol: string } | { kind: "coin"; id: string };

export function parseInstrument(instrument: string): ParsedInstrument {
  const m = /^(stock|stock-tr|coin):(.+)$/.exec(instrument);
  if (!m)
    throw new PriceSourceError(
      `"${instrument}" is not an instrument (stock:SYM, stock-tr:SYM or coin:<DefiLlama id>).`,
    );
  if (m[1] === "coin") {
    if (!/^[a-z0-9-]+:[A-Za-z0-9._-]+$/.test(m[2]!))
      throw new PriceSourceError(`"${m[2]}" is not a DefiLlama coin id (chain:address or coingecko:slug).`);
    return { kind: "coin", id: m[2]! };
  }
  const symbol = m[2]!.toUpperCase();
  if (!/^[A-Z0-9.^=-]{1,15}$/.test(symbol)) throw new PriceSourceError(`"${m[2]}" is not a ticker symbol.`);
  return { kind: m[1] as "stock" | "stock-tr", symbol };
}

// Common crypto tickers → DefiLlama ids (CoinGecko slugs). Wrapped native coins count as the coin.
const COIN_IDS: Record<string, string> = {
  BTC: "coingecko:bitcoin",
  WBTC: "coingecko:bitcoin",
  ETH: "coingecko:ethereum",
  WETH: "coingecko:ethereum",
  SOL: "coingecko:solana",
  WSOL: "coingecko:solana",
  BNB: "coingecko:binancecoin",
  POL: "coingecko:polygon-ecosystem-token",
  AVAX: "coingecko:avalanche-2",
  USDC: "coingecko:usd-coin",
  USDT: "coingecko:tether",
  DAI: "coingecko:dai",
};

/** The instrument of a crypto ticker we know (BTC, ETH, SOL…), else null (use the token's address). */
export function coinInstrumentForSymbol(symbol: string): Instrument | null {
  const id = COIN_IDS[symbol.toUpperCase()];
  return id ? `coin:${id}` : null;
}

// EVM chain id → DefiLlama's chain name (token ids are "<chain>:<contract>"), the native coin and
// its wrapped contract (priced as the coin).
const EVM_CHAINS: Record<number, { chain: string; native: string; wrapped?: string }> = {
  1: { chain: "ethereum", native: "coingecko:ethereum", wrapped: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2" },
  10: { chain: "optimism", native: "coingecko:ethereum", wrapped: "0x4200000000000000000000000000000000000006" },
  56: { chain: "bsc", native: "coingecko:binancecoin", wrapped: "0xbb4cdb9cbd36b01bd1cbaee0c2de46d7f5ff52e8" },
  137: {
    chain: "polygon",
    native: "coingecko:polygon-ecosystem-token",
    wrapped: "0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270",
  },
  8453: { chain: "base", native: "coingecko:ethereum", wrapped: "0x4200000000000000000000000000000000000006" },
  42161: { chain: "arbitrum", native: "coingecko:ethereum", wrapped: "0x82af49447d8a07e3bd95bd0d56f35241523fbab1" },
  43114: { chain: "avax", native: "coingecko:avalanche-2" },
};

/**
 * The instrument of a wallet token as the wallet adapters key it: an EVM contract address (the
 * wrapped native coin, or "native", as the coin) (app/sources/evm.server.ts); a Solana mint
 * (app/sources/solana.server.ts, wrapped SOL for SOL). Null for a chain DefiLlama naming is not known for here.
 */
export function walletTokenInstrument(
  chain: { kind: "evm"; chainId: number } | { kind: "solana" },
  token: string,
): Instrument | null {
  // The native coin is priced as its wrapped mint (one for one).
  if (chain.kind === "solana")
    return token === "native"
      ? "coin:solana:So11111111111111111111111111111111111111112"
      : /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(token)
        ? `coin:solana:${token}`
        : null;
  const c = EVM_CHAINS[chain.chainId];
  if (!c) return null;
  if (token === "native" || (c.wrapped && token.toLowerCase() === c.wrapped)) return `coin:${c.native}`;
  return /^0x[0-9a-fA-F]{40}$/.test(token) ? `coin:${c.chain}:${token.toLowerCase()}` : null;
}

/** A price provider failed or answered something unusable; the message is safe to show. */
export class PriceSourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PriceSourceError";
  }
}

export type FetchOptions = {
  /** Time limit of one HTTP call. */
  timeoutMs?: number;
  /** Retries after the first attempt, on 429, 5xx, timeouts and network errors. */
  retries?: number;
  /** First backoff without a Retry-After header; doubles each retry (with jitter). */
  baseDelayMs?: number;
  /** Longest wait between two attempts (also caps Retry-After). */
  maxDelayMs?: number;
};

const DEFAULTS: Required<FetchOptions> = { timeoutMs: 15_000, retries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

export const YAHOO_BASE_URL = "https://query1.finance.yahoo.com";
export const DEFILLAMA_BASE_URL = "https://coins.llama.fi";
// Demo mode (PRICES_LIVE unset): the msw simulator in test/mocks/prices.ts answers these.
export const DEMO_YAHOO_URL = "https://yahoo.demo.grader.invalid";
export const DEMO_DEFILLAMA_URL = "https://coins.demo.grader.invalid";

// Yahoo answers 429 to clients without a browser-like User-Agent.
const HEADERS = { accept: "application/json", "user-agent": "Mozilla/5.0 (compatible; Grader/1.0)" };

function retryAfterMs(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

/**
 * GET a JSON document with a time limit and retries. 404 answers `{ status: 404, body }` (the
 * caller decides what "not found" means); any other non-2xx after the retries is a PriceSourceError.
 */
export async function getJson(
  provider: string,
  url: URL,
  options: FetchOptions = {},
): Promise<{ status: number; body: unknown }> {
  const o = { ...DEFAULTS, ...options };
  let last = "";
  for (let attempt = 0; ; attempt++) {
    let wait: number | null = null;
    try {
      const res = await fetch(url, { headers: HEADERS, signal: AbortSignal.timeout(o.timeoutMs) });
      const text = await res.text();
      if (res.ok || res.status === 404) {
        try {
          return { status: res.status, body: JSON.parse(text) };
        } catch {
          if (res.status === 404) return { status: 404, body: null };
          throw new PriceSourceError(`${provider} answered with malformed JSON.`, res.status);
        }
      }
      if (res.status !== 429 && res.status < 500) {
        throw new PriceSourceError(
          `${provider} refused the request (HTTP ${res.status}: ${text.replace(/\s+/g, " ").slice(0, 160)}).`,
          res.status,
        );
      }
      last =
        res.status === 429
          ? `${provider} kept answering HTTP 429 (rate limited)`
          : `${provider} answered HTTP ${res.status}`;
      wait = retryAfterMs(res.headers.get("retry-after"));
    } catch (error) {
      if (error instanceof PriceSourceError) throw error;
      const name = (error as Error)?.name;
      last =
        name === "TimeoutError" || name === "AbortError"
          ? `${provider} did not answer within ${Math.round(o.timeoutMs / 1000)} s`
          : `${provider} could not be reached`;
    }
    if (attempt >= o.retries) throw new PriceSourceError(`${last} after ${attempt + 1} attempts.`);
    const backoff = o.baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
    await sleep(Math.min(o.maxDelayMs, wait ?? backoff));
  }
}

// ---------------------------------------------------------------------------------------------
// Days

const DAY_MS = 86_400_000;

export function isDay(s: string): boolean {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && Number.isFinite(ms) && dayOf(ms) === s;
}
export function dayOf(ms: number): Day {
  return new Date(ms).toISOString().slice(0, 10);
}
export function dayStart(day: Day): number {
  return Date.parse(`${day}T00:00:00Z`);
}
export function addDays(day: Day, n: number): Day {
  return dayOf(dayStart(day) + n * DAY_MS);
}

const nyOffset = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeZoneName: "shortOffset" });
/** The instant of the New York close (16:00 local, DST-aware) of a trading day. */
export function nyCloseTime(day: Day): Date {
  // Offset at noon UTC of that day (never near a DST switch, which happens at 2 a.m. local).
  const part =
    nyOffset.formatToParts(new Date(dayStart(day) + 12 * 3_600_000)).find((p) => p.type === "timeZoneName")?.value ??
    "GMT-5";
  const hours = Number(/GMT([+-]\d+)/.exec(part)?.[1] ?? -5);
  return new Date(dayStart(day) + (16 - hours) * 3_600_000);
}

// ---------------------------------------------------------------------------------------------
// Yahoo

export type YahooBar = { day: Day; close: number; adjclose: number | null };
export type YahooSplit = { day: Day; ratio: number };
export type YahooDaily = { symbol: string; bars: YahooBar[]; splits: YahooSplit[]; notFound: boolean };

type YahooChart = {
  chart?: {
    result?: Array<{
      meta?: { gmtoffset?: number; currency?: string };
      timestamp?: number[];
      events?: { splits?: Record<string, { date?: number; numerator?: number; denominator?: number }> };
      indicators?: {
        quote?: Array<{ close?: Array<number | null> }>;
        adjclose?: Array<{ adjclose?: Array<number | null> }>;
      };
    }> | null;
    error?: { code?: string; description?: string } | null;
  };
};

/** Maps a Yahoo chart answer to daily bars (exchange-local dates) and split events (pure). */
export function mapYahooChart(symbol: string, body: unknown): YahooDaily {
  const chart = (body as YahooChart)?.chart;
  if (!chart || typeof chart !== "object")
    throw new PriceSourceError("Yahoo answered with something that is not a chart.");
  const result = chart.result?.[0];
  if (!result) {
    if (chart.error?.code === "Not Found") return { symbol, bars: [], splits: [], notFound: true };
    throw new PriceSourceError(
      `Yahoo answered without data for ${symbol}${chart.error?.description ? `: ${chart.error.description}` : ""}.`,
    );
  }
  const currency = result.meta?.currency;
  if (currency && currency !== "USD") throw new PriceSourceError(`Yahoo quotes ${symbol} in ${currency}, not USD.`);
  const offset = (result.meta?.gmtoffset ?? 0) * 1000;
  const closes = result.indicators?.quote?.[0]?.close ?? [];
  const adj = result.indicators?.adjclose?.[0]?.adjclose ?? [];
  const byDay = new Map<Day, YahooBar>();
  (result.timestamp ?? []).forEach((ts, i) => {
    const close = closes[i];
    if (typeof close !== "number" || !(close > 0)) return; // Yahoo leaves nulls for halted or missing days
    const a = adj[i];
    byDay.set(dayOf(ts * 1000 + offset), {
      day: dayOf(ts * 1000 + offset),
      close,
      adjclose: typeof a === "number" && a > 0 ? a : null,
    });
  });
  const splits: YahooSplit[] = [];
  for (const s of Object.values(result.events?.splits ?? {})) {
    if (typeof s?.date !== "number" || !(Number(s.numerator) > 0) || !(Number(s.denominator) > 0)) continue;
    splits.push({ day: dayOf(s.date * 1000 + offset), ratio: Number(s.numerator) / Number(s.denominator) });
  }
  splits.sort((a, b) => a.day.localeCompare(b.day));
  return { symbol, bars: [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)), splits, notFound: false };
}

/** Daily bars from `fromDay` to `toDay` (inclusive), or to the present when `toDay` is null. */
export async function fetchYahooDaily(
  baseUrl: string,
  symbol: string,
  fromDay: Day,
  toDay: Day | null,
  options?: FetchOptions,
): Promise<YahooDaily> {
  // Yahoo writes class shares with a dash (BRK-B), brokers with a dot (BRK.B).
  const ysym = symbol.toUpperCase().replace(/\./g, "-");
  const url = new URL(`${baseUrl.replace(/\/$/, "")}/v8/finance/chart/${encodeURIComponent(ysym)}`);
  url.searchParams.set("period1", String(Math.floor(dayStart(fromDay) / 1000)));
  url.searchParams.set("period2", String(Math.floor((toDay ? dayStart(toDay) + DAY_MS : Date.now()) / 1000)));
  url.searchParams.set("interval", "1d");
  url.searchParams.set("events", "div,split");
  url.searchParams.set("includeAdjustedClose", "true");
  const { body } = await getJson("Yahoo Finance", url, options);
  return mapYahooChart(symbol, body);
}

/**
 * Yahoo's closes back to as-traded prices. Yahoo divides every close before a split's first
 * adjusted day by its ratio (numerator ÷ denominator: 10 for NVDA's 10:1, 0.1 for a 1:10 reverse
 * split), for every split up to today. So
 *
 *   asTraded(d) = close(d) × Π ratio(s) over the splits s with d < s.day ≤ end  × K
 *
 * where `end` is the last day of the answer. When the answer runs to the present, K = 1. When it
 * stops earlier, `link` gives a day of the answer whose as-traded price is already known (the first
 * cached day after it), and K = link.price ÷ close(link.day) carries the splits after it.
 */
export function unadjustSplits(data: Pick<YahooDaily, "bars" | "splits">, link?: DailyPrice): DailyPrice[] {
  let k = 1;
  let { bars, splits } = data;
  if (link) {
    const bar = bars.find((b) => b.day === link.day);
    if (!bar) throw new PriceSourceError(`Yahoo's answer lacks ${link.day}, the day that links it to stored prices.`);
    k = link.price / bar.close;
    bars = bars.filter((b) => b.day <= link.day);
    splits = splits.filter((s) => s.day <= link.day);
  }
  const out: DailyPrice[] = [];
  let factor = k;
  let next = splits.length - 1;
  // Walk back in time, multiplying in each split once its first adjusted day is after the bar.
  for (let i = bars.length - 1; i >= 0; i--) {
    const bar = bars[i]!;
    while (next >= 0 && splits[next]!.day > bar.day) factor *= splits[next--]!.ratio;
    out.push({ day: bar.day, price: bar.close * factor });
  }
  return out.reverse();
}

/**
 * Total-return levels from Yahoo's adjclose. adjclose is scaled to the latest dividend, so answers
 * fetched at different times differ by a constant; `link` (a stored level on a day of this answer)
 * rescales the answer onto the stored scale.
 */
export function totalReturnLevels(data: Pick<YahooDaily, "bars">, link?: DailyPrice): DailyPrice[] {
  const bars = data.bars.filter((b) => b.adjclose !== null);
  let k = 1;
  if (link) {
    const bar = bars.find((b) => b.day === link.day);
    if (!bar) throw new PriceSourceError(`Yahoo's answer lacks ${link.day}, the day that links it to stored levels.`);
    k = link.price / bar.adjclose!;
  }
  return bars.map((b) => ({ day: b.day, price: b.adjclose! * k }));
}

// ---------------------------------------------------------------------------------------------
// DefiLlama

/** Days per chart request: DefiLlama serves at most 500 points (HTTP 400 beyond, per a secondary source). */
export const DEFILLAMA_MAX_SPAN = 365;

type LlamaChart = {
  coins?: Record<
    string,
    { symbol?: string; confidence?: number; prices?: Array<{ timestamp?: number; price?: number }> }
  >;
};
type LlamaPrices = {
  coins?: Record<string, { symbol?: string; price?: number; timestamp?: number; confidence?: number }>;
};

/**
 * Maps a /chart answer to one price per UTC day: the point nearest the end of that day (points
 * come near each requested midnight, not exactly on it), so day D is worth what it was worth when
 * D ended. Each price carries the coin's `confidence` (one per coin in the answer,
 * ../shared/PROVIDERS.md §16) when it is a number from 0 to 1. An id DefiLlama cannot price is left
 * out of its answer: no prices (pure).
 */
export function mapDefiLlamaChart(id: string, body: unknown): DailyPrice[] {
  const coins = (body as LlamaChart)?.coins;
  if (!coins || typeof coins !== "object")
    throw new PriceSourceError("DefiLlama answered with something that is not a price chart.");
  const c = coins[id]?.confidence;
  const confidence = typeof c === "number" && c >= 0 && c <= 1 ? { confidence: c } : {};
  const best = new Map<Day, { price: number; distance: number }>();
  for (const p of coins[id]?.prices ?? []) {
    if (typeof p?.timestamp !== "number" || typeof p.price !== "number" || !(p.price > 0)) continue;
    const ms = p.timestamp * 1000;
    const day = dayOf(ms - DAY_MS / 2);
    const distance = Math.abs(ms - (dayStart(day) + DAY_MS));
    const seen = best.get(day);
    if (!seen || distance < seen.distance) best.set(day, { price: p.price, distance });
  }
  return [...best.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, { price }]) => ({ day, price, ...confidence }));
}

/** Daily prices of one DefiLlama id from `fromDay` to `toDay` (end-of-day values, each with DefiLlama's confidence), in chunks. */
export async function fetchDefiLlamaDaily(
  baseUrl: string,
  id: string,
  fromDay: Day,
  toDay: Day,
  options?: FetchOptions,
): Promise<DailyPrice[]> {
  const out: DailyPrice[] = [];
  for (let start = fromDay; start <= toDay; start = addDays(start, DEFILLAMA_MAX_SPAN)) {
    const last = [addDays(start, DEFILLAMA_MAX_SPAN - 1), toDay].sort()[0]!;
    const span = Math.round((dayStart(last) - dayStart(start)) / DAY_MS) + 1;
    const url = new URL(`${baseUrl.replace(/\/$/, "")}/chart/${encodeURIComponent(id).replace(/%3A/gi, ":")}`);
    // The first point at the end of `start` (midnight after it).
    url.searchParams.set("start", String(Math.floor((dayStart(start) + DAY_MS) / 1000)));
    url.searchParams.set("span", String(span));
    url.searchParams.set("period", "1d");
    const { status, body } = await getJson("DefiLlama", url, options);
    if (status === 404) continue;
    out.push(...mapDefiLlamaChart(id, body).filter((p) => p.day >= start && p.day <= last));
  }
  return out;
}

/** Maps a /prices/historical answer to a price per id (ids DefiLlama cannot price are absent; pure). */
export function mapDefiLlamaHistorical(body: unknown): Map<string, number> {
  const coins = (body as LlamaPrices)?.coins;
  if (!coins || typeof coins !== "object")
    throw new PriceSourceError("DefiLlama answered with something that is not a price list.");
  const out = new Map<string, number>();
  for (const [id, c] of Object.entries(coins)) if (typeof c?.price === "number" && c.price > 0) out.set(id, c.price);
  return out;
}

/** USD prices of several DefiLlama ids at one instant. */
export async function fetchDefiLlamaPricesAt(
  baseUrl: string,
  ids: string[],
  time: Date,
  options?: FetchOptions,
): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const url = new URL(
    `${baseUrl.replace(/\/$/, "")}/prices/historical/${Math.floor(time.getTime() / 1000)}/${ids.map((id) => encodeURIComponent(id).replace(/%3A/gi, ":")).join(",")}`,
  );
  const { status, body } = await getJson("DefiLlama", url, options);
  return status === 404 ? new Map() : mapDefiLlamaHistorical(body);
}
