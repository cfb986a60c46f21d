// The one place numbers and dates become text (English grouping, UTC dates). Intl formatters are
// costly to build, so each is made once here and reused on every render.

const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const byDigits = new Map<string, Intl.NumberFormat>();
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 2 });
// Sub-cent prices (tokens): three significant digits, so 0.00001234 reads $0.0000123, not $0.00.
const usdSmall = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumSignificantDigits: 3 });
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

/** English grouping, at most `digits` decimals (0 for counts: 12,345), at least `minDigits`. */
export function formatNumber(value: number, digits = 2, minDigits = 0): string {
  const key = `${digits}:${minDigits}`;
  let f = byDigits.get(key);
  if (!f)
    byDigits.set(
      key,
      (f = new Intl.NumberFormat("en-US", { maximumFractionDigits: digits, minimumFractionDigits: minDigits })),
    );
  return f.format(value);
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

/** Dollars with cents; amounts under a cent keep three significant digits. A loss has a true minus. */
export function formatUsd(value: number): string {
  if (!Number.isFinite(value)) return "—";
  return trueMinus(value !== 0 && Math.abs(value) < 0.01 ? usdSmall.format(value) : usd.format(value));
}

// Formatters of other currencies, made on first use (a page shows one or two).
const moneyFormats = new Map<string, [Intl.NumberFormat, Intl.NumberFormat] | null>();

/**
 * An amount in a currency with its sign ("€1,234.50", "CA$12.00", "¥1,200"): formatUsd for the
 * dollar; a code Intl does not know as "1,234.50 XYZ".
 */
export function formatMoney(value: number, currency = "USD"): string {
  if (currency === "USD") return formatUsd(value);
  if (!Number.isFinite(value)) return "—";
  let f = moneyFormats.get(currency);
  if (f === undefined) {
    try {
      f = [
        new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 2 }),
        new Intl.NumberFormat("en-US", { style: "currency", currency, maximumSignificantDigits: 3 }),
      ];
    } catch {
      f = null;
    }
    moneyFormats.set(currency, f);
  }
  if (f === null) return `${trueMinus(formatNumber(value, 2))} ${currency}`;
  return trueMinus(value !== 0 && Math.abs(value) < 0.01 ? f[1].format(value) : f[0].format(value));
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
