import ccxt, { type Exchange } from "ccxt";
import type { LinkableExchange } from "~/lib/exchanges";
import type { ImportBatch } from "./imported";

// Exchanges through ccxt (docs/SOURCES.md "Exchanges"): what every exchange entry
// (app/sources/exchanges/<id>.server.ts) implements, and what they share: the client, the errors,
// the clock-skew retry. Pure apart from the fetch: the credentials and settings are arguments.

/** A trader's key as the exchange issued it; decrypted only for the calls of one job. */
export type ExchangeCredentials = { apiKey: string; secret: string; passphrase?: string };

export type ExchangeSettings = {
  /** The exchange's API origin ("https://api.binance.com"), or the simulator's in demo mode. */
  baseUrl: string;
  timeoutMs: number;
};

/** What the key may do, asked of the exchange before anything is stored. */
export type KeyCheck =
  { ok: true; uid: string } | { ok: false; permission: "trade" | "withdraw" | "read"; message: string };

/**
 * One request of an import: a window (or the next page of one) of one stream of the history. A
 * job fetches one task and stores its rows; `next` is the same stream's next page, if any.
 */
export type HistoryTask = {
  stream: string;
  start?: number;
  end?: number;
  symbol?: string;
  page?: number;
  /** The exchange's own cursor for the next page (Coinbase). */
  cursor?: string;
};
export type FetchedPage = { rows: unknown[]; next: HistoryTask | null };
/** A stored page: the task it answered and its rows, as the mapping reads them back. */
export type StoredPage = { task: HistoryTask; rows: unknown[] };

/** A USD price of an asset at an instant through the price source; undefined when it has none. */
export type AssetPrice = (asset: string, time: Date) => number | undefined;

export type MappedExchange = {
  batch: Omit<ImportBatch, "payloads">;
  /** "What this grade could not use": reason → count. */
  skipped: Record<string, number>;
};

/**
 * One exchange (docs/ARCHITECTURE.md "A provider", the exchanges' part). Adding one is this entry,
 * its line in EXCHANGES and its simulator.
 */
export type ExchangeEntry = {
  id: LinkableExchange;
  /** The ccxt class that speaks its REST API. */
  client(credentials: ExchangeCredentials, settings: ExchangeSettings): Exchange;
  /** Read-only proved, and the exchange's own account id (the one-account-one-user rule). */
  checkKey(client: Exchange): Promise<KeyCheck>;
  /** The windows read before the trades (balances, deposits, withdrawals …), oldest first. */
  tasks(fromMs: number, nowMs: number): HistoryTask[];
  /** The trade streams those pages reveal (Binance: one per traded symbol). */
  tradeTasks(client: Exchange, pages: StoredPage[]): Promise<HistoryTask[]>;
  fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage>;
  /** The stored pages as ledger rows, priced through `priceAt`; nothing dropped without a count. */
  map(pages: StoredPage[], priceAt: AssetPrice): MappedExchange;
  /** What is wrong with a key's form before any call (Kraken's secret is base64), or null. */
  credentialProblem?(credentials: ExchangeCredentials): string | null;
  /**
   * How long a rate-limit answer without a Retry-After is waited out: the exchange's own rule
   * (Kraken's counter decays; Binance always says). Default 60 s.
   */
  rateWaitSeconds?: number;
  /**
   * How far back the exchange serves trades (OKX 1 year, Bybit 2): what is older is said plainly
   * on the account page and in the grade's "What this grade could not use" (`historyNotice`).
   */
  keeps?: { days: number; said: string };
};

/**
 * "OKX keeps 1 year: trades before 2025-12 are not included": the month the exchange's depth
 * reaches back to from `nowMs`, said of every import of it, since nothing tells whether older
 * trades existed (pure).
 */
export function historyNotice(name: string, keeps: { days: number; said: string }, nowMs: number): string {
  const month = new Date(nowMs - keeps.days * 86_400_000).toISOString().slice(0, 7);
  return `${name} keeps ${keeps.said}: trades before ${month} are not included`;
}

/** A ccxt client that sends through the global fetch (so msw sees it in demo mode and tests). */
export function ccxtClient(
  id: "binance" | "kraken" | "coinbase" | "okx" | "bybit",
  credentials: ExchangeCredentials,
  settings: ExchangeSettings,
  options: Record<string, unknown> = {},
): Exchange {
  const client = new ccxt[id]({
    apiKey: credentials.apiKey,
    secret: credentials.secret,
    ...(credentials.passphrase ? { password: credentials.passphrase } : {}),
    timeout: settings.timeoutMs,
    enableRateLimit: true,
    // ccxt's own undici is invisible to msw (PROVIDERS.md §6): a demo must never reach a real exchange.
    fetchImplementation: globalThis.fetch,
    options,
  });
  client.enableLastResponseHeaders = true;
  return client;
}

/** Points every API family of a ccxt client at `baseUrl` (the real origin, or the simulator's). */
export function rebase(client: Exchange, realOrigin: string, baseUrl: string) {
  const api = client.urls.api as Record<string, string>;
  for (const [key, url] of Object.entries(api))
    if (typeof url === "string" && url.startsWith(realOrigin)) api[key] = baseUrl + url.slice(realOrigin.length);
}

/** How a failed exchange call reads to an import step. */
export type ExchangeError =
  | { kind: "key"; message: string }
  | { kind: "rate"; message: string; retryAfterSeconds: number }
  | { kind: "unavailable"; message: string }
  | { kind: "other"; message: string };

/**
 * The exchange's own error code and message in a ccxt error: Binance's `{"code":-2015,"msg":…}`,
 * OKX's `{"code":"50111","msg":…}`, Bybit's `{"retCode":10003,"retMsg":…}`, Kraken's
 * `{"error":["EAPI:Invalid key"]}` (its text is its code).
 */
function exchangeCode(error: Error): { code: number | string; msg: string } | null {
  const m = /\{.*\}/s.exec(error.message);
  if (!m) return null;
  try {
    const body = JSON.parse(m[0]) as {
      code?: unknown;
      msg?: unknown;
      error?: unknown;
      retCode?: unknown;
      retMsg?: unknown;
    };
    if (typeof body.code === "number") return { code: body.code, msg: String(body.msg ?? "") };
    if (typeof body.code === "string" && /^-?\d+$/.test(body.code) && body.code !== "0")
      return { code: Number(body.code), msg: String(body.msg ?? "") };
    if (typeof body.retCode === "number" && body.retCode !== 0)
      return { code: body.retCode, msg: String(body.retMsg ?? "") };
    if (Array.isArray(body.error) && typeof body.error[0] === "string")
      return { code: body.error[0], msg: body.error[0] };
    return null;
  } catch {
    return null;
  }
}

/** "(-2015)" after Binance's (OKX's, Bybit's) message; Kraken's message is its code. */
const said = (own: { code: number | string; msg: string }) =>
  typeof own.code === "number" ? `${own.msg} (${own.code})` : own.msg;

export function readExchangeError(
  name: string,
  client: Exchange | null,
  error: unknown,
  rateWaitSeconds = 60,
): ExchangeError {
  if (!(error instanceof Error)) return { kind: "other", message: String(error) };
  const own = exchangeCode(error);
  // Binance answers a revoked key, a key used from an IP it does not allow and a key without the
  // permission alike (-2015); ccxt reads a late -2015 as a ban, so the code decides, not the class.
  if (own && (own.code === -2015 || own.code === -2014 || own.code === -2008))
    return { kind: "key", message: `${name} refused the key: ${said(own)}` };
  if (error instanceof ccxt.DDoSProtection || error instanceof ccxt.RateLimitExceeded) {
    const headers = (client?.last_response_headers ?? {}) as Record<string, string>;
    const after = Number(headers["Retry-After"] ?? headers["retry-after"]);
    return {
      kind: "rate",
      message: `${name} asked us to slow down${own ? ` (${own.code})` : ""}; the import waits and resumes.`,
      retryAfterSeconds: Number.isFinite(after) && after > 0 ? after : rateWaitSeconds,
    };
  }
  if (error instanceof ccxt.AuthenticationError)
    return { kind: "key", message: `${name} refused the key${own ? `: ${said(own)}` : "."}` };
  if (error instanceof ccxt.NetworkError || error instanceof ccxt.ExchangeNotAvailable)
    return { kind: "unavailable", message: `${name} did not answer; the import tries again.` };
  return { kind: "other", message: `${name}: ${error.message.slice(0, 200)}` };
}

/**
 * Runs a signed call, and once more after learning the exchange's clock when it says ours is off
 * (Binance -1021, ccxt InvalidNonce): ccxt then signs with the measured difference.
 */
export async function withClockRetry<T>(client: Exchange, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ccxt.InvalidNonce)) throw error;
    client.options.adjustForTimeDifference = true;
    await client.loadTimeDifference();
    return call();
  }
}
