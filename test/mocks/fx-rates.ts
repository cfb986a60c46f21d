import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import { ECB_QUOTED_CURRENCIES } from "../../app/lib/currencies";
import { DEMO_FX_RATES_URL } from "../../app/sources/fx-rates.server";
import { simDelay } from "./sim-delay";

/**
 * A simulator of Frankfurter's v1 API (the ECB's euro reference rates) for demo mode and tests, in
 * its shapes (docs/SOURCES.md "FX rates"): a range answers only the days the ECB published
 * (no weekends, no TARGET holidays: 1 January, Good Friday, Easter Monday, 1 May, 25 and 26
 * December), its start_date and end_date being the first and last of them; a single date carries
 * the last publication on or before it forward (within 14 days) with that publication's `date`;
 * nothing found is 404 `{"message":"not found"}`; base = symbols and impossible dates are 422. A
 * publication of day D exists from 16:00 CET of D (15:00 UTC here, near enough).
 *
 * Rates are deterministic and plausible: each currency's real approximate level per euro, moved by
 * slow seeded waves (a year, a quarter, a month) and a small daily step, the same for a day whatever
 * is asked, rounded to 5 significant digits as the ECB quotes them.
 */

/** Units per 1 EUR, near their 2024–2025 levels. */
export const EUR_LEVELS: Readonly<Record<string, number>> = {
  USD: 1.09,
  GBP: 0.855,
  CAD: 1.49,
  CHF: 0.95,
  JPY: 162,
  AUD: 1.65,
  NZD: 1.8,
  SEK: 11.4,
  NOK: 11.7,
  DKK: 7.46,
  ISK: 150,
  PLN: 4.3,
  CZK: 25.1,
  HUF: 400,
  RON: 4.97,
  TRY: 36,
  ILS: 4.05,
  ZAR: 20,
  BRL: 6.1,
  MXN: 20.5,
  CNY: 7.85,
  HKD: 8.5,
  SGD: 1.46,
  KRW: 1490,
  INR: 92,
  IDR: 17500,
  MYR: 4.9,
  PHP: 63,
  THB: 38.5,
};
// The Danish krone is pegged (ERM II): it hardly moves.
const AMPLITUDE: Readonly<Record<string, number>> = { DKK: 0.001 };

const DAY_MS = 86_400_000;
const dayNum = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayStr = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

function unit(...parts: string[]): number {
  return crypto.createHash("sha256").update(parts.join("|")).digest().readUInt32BE(0) / 2 ** 32;
}

/** Easter Sunday (Gregorian, the anonymous algorithm) as a day number. */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return Math.round(Date.UTC(year, month - 1, date) / DAY_MS);
}

/** A day the ECB publishes reference rates: a weekday that is not a TARGET closing day. */
export function isEcbPublicationDay(day: string): boolean {
  const n = dayNum(day);
  const d = new Date(n * DAY_MS);
  const wd = d.getUTCDay();
  if (wd === 0 || wd === 6) return false;
  const md = day.slice(5);
  if (md === "01-01" || md === "05-01" || md === "12-25" || md === "12-26") return false;
  const e = easter(d.getUTCFullYear());
  return n !== e - 2 && n !== e + 1;
}

/** The simulated ECB rate of `currency` (units per 1 EUR) on a publication day; undefined if not quoted. */
export function simulatedEcbRate(currency: string, day: string): number | undefined {
  const level = EUR_LEVELS[currency];
  if (level === undefined) return undefined;
  const n = dayNum(day);
  const amp = AMPLITUDE[currency] ?? 0.04;
  const wave = (period: number, weight: number) =>
    weight * Math.sin((2 * Math.PI * n) / period + 2 * Math.PI * unit("phase", currency, String(period)));
  const log = amp * (wave(365, 1) + wave(91, 0.5) + wave(29, 0.25)) + amp * 0.1 * (unit("day", currency, day) - 0.5);
  return round5(level * Math.exp(log));
}

function round5(x: number): number {
  const f = 10 ** (4 - Math.floor(Math.log10(Math.abs(x))));
  return Math.round(x * f) / f;
}

/** The last day whose rates are out at `now` (a publication exists from 15:00 UTC of its day). */
function lastPublishedBy(now: number): number {
  return Math.floor((now - 15 * 3_600_000) / DAY_MS);
}

function quotes(day: string, base: string, symbols: string[] | null): Record<string, number> | null {
  const all: Record<string, number> = { EUR: 1 };
  for (const c of ECB_QUOTED_CURRENCIES) {
    const r = simulatedEcbRate(c, day);
    if (r !== undefined) all[c] = r;
  }
  const divisor = all[base];
  if (divisor === undefined) return null;
  const out: Record<string, number> = {};
  for (const c of Object.keys(all).sort()) {
    if (c === base || (symbols && !symbols.includes(c))) continue;
    out[c] = base === "EUR" ? all[c]! : round5(all[c]! / divisor);
  }
  return Object.keys(out).length ? out : null;
}

/** Requests answered, by path (tests count what the cache asked). */
export const fxRequests: string[] = [];

const notFound = () => HttpResponse.json({ message: "not found" }, { status: 404 });
const unprocessable = (message: string) => HttpResponse.json({ message }, { status: 422 });
const HEADERS = { "cache-control": "public, max-age=86400" };

function parseQuery(url: URL): { base: string; symbols: string[] | null } | string {
  const q = url.searchParams;
  const base = (q.get("from") ?? q.get("base") ?? "EUR").toUpperCase();
  const raw = q.get("to") ?? q.get("symbols");
  const symbols = raw === null ? null : raw.toUpperCase().split(",");
  if (symbols && symbols.length === 1 && symbols[0] === base) return "bad currency pair";
  return { base, symbols };
}

function validDay(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && dayStr(dayNum(s)) === s;
}

export function fxRateHandlers() {
  return [
    http.get(`${DEMO_FX_RATES_URL}/v1/:when`, async ({ request, params }) => {
      await simDelay(40 + Math.random() * 60);
      const url = new URL(request.url);
      fxRequests.push(`${url.pathname}${url.search}`);
      const when = String(params.when);
      const query = parseQuery(url);
      if (typeof query === "string") return unprocessable(query);
      const lastOut = lastPublishedBy(Date.now());
      const range = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})?$/.exec(when);
      if (range) {
        const [start, end = dayStr(Math.floor(Date.now() / DAY_MS))] = [range[1]!, range[2]];
        if (!validDay(start) || !validDay(end)) return unprocessable("invalid date");
        const rates: Record<string, Record<string, number>> = {};
        for (let n = dayNum(start); n <= Math.min(dayNum(end), lastOut); n++) {
          const day = dayStr(n);
          if (!isEcbPublicationDay(day)) continue;
          const q = quotes(day, query.base, query.symbols);
          if (q) rates[day] = q;
        }
        const days = Object.keys(rates);
        if (!days.length) return notFound();
        return HttpResponse.json(
          { amount: 1.0, base: query.base, start_date: days[0], end_date: days.at(-1), rates },
          { headers: HEADERS },
        );
      }
      const day = when === "latest" ? dayStr(lastOut) : when;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return notFound();
      if (!validDay(day)) return unprocessable("invalid date");
      // The last publication on or before the day, looking back 14 days.
      for (let n = Math.min(dayNum(day), lastOut); n > dayNum(day) - 14; n--) {
        if (!isEcbPublicationDay(dayStr(n))) continue;
        const q = quotes(dayStr(n), query.base, query.symbols);
        if (!q) return notFound();
        return HttpResponse.json({ amount: 1.0, base: query.base, date: dayStr(n), rates: q }, { headers: HEADERS });
      }
      return notFound();
    }),
  ];
}
