import { DEFAULT_LOCALE } from "./locale";

// The one place numbers and dates become text. Amounts and quantities are written in the trader's
// locale (DECISIONS 205: the caller passes useLocale()'s, or none for en-US); percentages, scores,
// counts and dates read the same for everyone (English grouping, UTC dates), as the card draws them.
// Intl formatters are costly to build, so each is made once here and reused on every render.

const plain = new Intl.NumberFormat(DEFAULT_LOCALE, { maximumFractionDigits: 2 });
// By locale and options. A request names its locale, so the map is emptied past a bound rather
// than growing with every tag a client invents.
const formats = new Map<string, Intl.NumberFormat | null>();
const MAX_FORMATS = 500;
function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat | null {
  let f = formats.get(key);
  if (f === undefined) {
    try {
      f = make();
    } catch {
      f = null; // a malformed currency code
    }
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, f);
  }
  return f;
}
const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** PRODUCT §5: English grouping; K from 10,000 and M from 1,000,000 (B beyond, same rule). */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return "—";
  const abs = Math.abs(value);
  const sign = value < 0 ? "-" : "";
  const scaled = (n: number, suffix: string) => `${sign}${trim(abs / n)}${suffix}`;
  if (abs >= 1_000_000_000) return scaled(1_000_000_000, "B");
  if (abs >= 1_000_000) return scaled(1_000_000, "M");
  if (abs >= 10_000) return scaled(1_000, "K");
  return plain.format(value);
}

// One decimal, floored so 999,999 shows as 999.9K rather than rounding up to "1000K".
function trim(n: number): string {
  const floored = Math.floor(n * 10) / 10;
  return floored.toFixed(1).replace(/\.0$/, "");
}

/**
 * The locale's grouping (English by default: 12,345; de-DE: 12.345), at most `digits` decimals (0
 * for counts), at least `minDigits`.
 */
export function formatNumber(value: number, digits = 2, minDigits = 0, locale = DEFAULT_LOCALE): string {
  const f = numberFormat(
    `n ${locale} ${digits} ${minDigits}`,
    () => new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: minDigits }),
  );
  return f!.format(value);
}

/** The minus sign of every figure on a page (U+2212), never a hyphen. */
export const MINUS = "\u2212";

/** A leading hyphen-minus as a true minus sign: "-5.0%" reads "−5.0%", as the card draws it. */
export function trueMinus(text: string): string {
  return text.startsWith("-") ? MINUS + text.slice(1) : text;
}

export function formatPercent(fraction: number, digits = 1): string {
  if (!Number.isFinite(fraction)) return "—";
  // −0.0 (a tiny loss rounded away) reads 0.0%.
  const body = (fraction * 100).toFixed(digits);
  return `${trueMinus(/^-0(\.0*)?$/.test(body) ? body.slice(1) : body)}%`;
}

/**
 * Figures inside a sentence (the engine's insights: "rose 8.5 % while you lost 8.1 %", "Sharpe
 * ratio of -0.71") as every figure on the page reads: "8.5%", "−0.71".
 */
export function figureText(text: string): string {
  return text.replace(/(\d) %/g, "$1%").replace(/(^|[\s(/])-(?=[\d$])/g, `$1${MINUS}`);
}

/** Dollars, as formatMoney writes them: cents, three significant digits under a cent, a true minus. */
export function formatUsd(value: number, locale = DEFAULT_LOCALE): string {
  return formatMoney(value, "USD", locale);
}

/**
 * An amount in a currency with its sign, in the locale's format and the currency's own decimals:
 * "$1,234.56", "€1,234.50", "CA$12.00", "¥1,235" in en-US; "1.234,56 €" in de-DE; "￥1,235" in
 * ja-JP. Amounts under a hundredth keep three significant digits ("$0.0000123", not "$0.00"); a
 * loss has a true minus wherever the locale puts its sign; a code Intl has no sign for follows the
 * amount ("1,234.50 XYZ"; a malformed one, which Intl refuses, "1,234.5 X1").
 */
export function formatMoney(value: number, currency = "USD", locale = DEFAULT_LOCALE): string {
  if (!Number.isFinite(value)) return "—";
  const small = value !== 0 && Math.abs(value) < 0.01;
  const f = numberFormat(`${small ? "s" : "m"} ${locale} ${currency}`, () =>
    small
      ? new Intl.NumberFormat(locale, { style: "currency", currency, maximumSignificantDigits: 3 })
      : new Intl.NumberFormat(locale, { style: "currency", currency }),
  );
  // A formatted number has no other hyphen: its sign may follow a direction mark (he-IL).
  if (f) return f.format(value).replace("-", MINUS);
  return `${formatNumber(value, 2, 0, locale).replace("-", MINUS)} ${currency}`;
}

/**
 * A score cut (not rounded) to 0.1: 89.96 is 89.9, never "90.0", so a shown score never crosses a
 * tier bound (Legend from 90). (Every one-decimal value survives × 10 exactly, so 60.1 stays 60.1.)
 * The JSON API's number; formatScore is the same value as text.
 */
export function truncateScore(score: number): number {
  return Math.trunc(score * 10) / 10;
}

/**
 * The score as every surface shows it: the report, the dashboard, the card, the badge, the share
 * page and its tags, /verify ("39.9", then "/100" beside it). One decimal because the API has
 * always given one and whole points would show the behind-market cap (39.9) as 39; cut, because
 * tier bounds are whole numbers and a cut score stays in its tier.
 */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? "—" : truncateScore(score).toFixed(1);
}

/** "MMM D, YYYY" in UTC, e.g. "Jul 1, 2025". */
export function formatDay(date: Date | string): string {
  return day.format(new Date(date));
}

/** A trade's side as a label: "Buy", "Sell", "Long", "Short" (the data says "buy"). */
export function sideLabel(side: string): string {
  return side.charAt(0).toUpperCase() + side.slice(1).toLowerCase();
}

/** The count shown on the bell: 1–99, then "99+". */
export function badgeCount(unread: number): string {
  return unread > 99 ? "99+" : String(unread);
}
