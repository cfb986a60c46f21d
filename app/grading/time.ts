// Time helpers. Pure: no clock, no locale, no time zone of the host.

export const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of the civil date y-m-d (proleptic Gregorian, H. Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function d2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  if (a < 0 || a > 9 || b < 0 || b > 9) return NaN;
  return a * 10 + b;
}

/**
 * Parses the ISO 8601 subset the ledger accepts and returns epoch milliseconds, or NaN.
 *   YYYY-MM-DD                       (UTC midnight)
 *   YYYY-MM-DDTHH:MM[:SS[.fff…]]Z    or with an offset ±HH:MM / ±HHMM
 * A date-time without a zone is refused: its meaning would depend on the host's time zone.
 * Fractions beyond milliseconds are truncated.
 */
/** YYYY-MM-DD naming a real day (an expiry). */
export function isIsoDate(s: unknown): boolean {
  return typeof s === "string" && s.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(parseIsoMs(s));
}

export function parseIsoMs(s: string): number {
  if (typeof s !== "string") return NaN;
  const len = s.length;
  // Fast path for the common "YYYY-MM-DDTHH:MM:SS.sssZ" / "YYYY-MM-DDTHH:MM:SSZ".
  if ((len === 24 || len === 20) && s.charCodeAt(len - 1) === 90 && s.charCodeAt(10) === 84) {
    const y0 = s.charCodeAt(0) - 48,
      y1 = s.charCodeAt(1) - 48,
      y2 = s.charCodeAt(2) - 48,
      y3 = s.charCodeAt(3) - 48;
    const m0 = s.charCodeAt(5) - 48,
      m1 = s.charCodeAt(6) - 48,
      d0 = s.charCodeAt(8) - 48,
      d1 = s.charCodeAt(9) - 48;
    const h0 = s.charCodeAt(11) - 48,
      h1 = s.charCodeAt(12) - 48,
      i0 = s.charCodeAt(14) - 48,
      i1 = s.charCodeAt(15) - 48;
    const s0 = s.charCodeAt(17) - 48,
      s1 = s.charCodeAt(18) - 48;
    let f0 = 0,
      f1 = 0,
      f2 = 0;
    let sepOk = s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(13) === 58 && s.charCodeAt(16) === 58;
    if (len === 24) {
      f0 = s.charCodeAt(20) - 48;
      f1 = s.charCodeAt(21) - 48;
      f2 = s.charCodeAt(22) - 48;
      sepOk = sepOk && s.charCodeAt(19) === 46;
    }
    if (
      sepOk &&
      ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1 | h0 | h1 | i0 | i1 | s0 | s1 | f0 | f1 | f2) & ~15) === 0 &&
      y0 <= 9 &&
      y1 <= 9 &&
      y2 <= 9 &&
      y3 <= 9 &&
      m0 <= 9 &&
      m1 <= 9 &&
      d0 <= 9 &&
      d1 <= 9 &&
      h0 <= 9 &&
      h1 <= 9 &&
      i0 <= 9 &&
      i1 <= 9 &&
      s0 <= 9 &&
      s1 <= 9 &&
      f0 <= 9 &&
      f1 <= 9 &&
      f2 <= 9
    ) {
      const y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
      const mo = m0 * 10 + m1;
      const d = d0 * 10 + d1;
      const hh = h0 * 10 + h1;
      const mi = i0 * 10 + i1;
      const ss = s0 * 10 + s1;
      if (y !== cacheY || mo !== cacheM || d !== cacheD) {
        if (!(mo >= 1 && mo <= 12 && d >= 1) || d > daysInMonth(y, mo)) return NaN;
        cacheY = y;
        cacheM = mo;
        cacheD = d;
        cacheDays = daysFromCivil(y, mo, d);
      }
      if (hh > 23 || mi > 59 || ss > 59) return NaN;
      return cacheDays * 86_400_000 + ((hh * 60 + mi) * 60 + ss) * 1000 + f0 * 100 + f1 * 10 + f2;
    }
  }
  return parseIsoGeneral(s);
}

// Memo of the last calendar date seen by the fast path (a pure cache: same input, same output).
let cacheY = -1;
let cacheM = -1;
let cacheD = -1;
let cacheDays = 0;

function parseIsoGeneral(s: string): number {
  const len = s.length;
  if (len < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  const y = d2(s, 0) * 100 + d2(s, 2);
  const mo = d2(s, 5);
  const d = d2(s, 8);
  if (!(mo >= 1 && mo <= 12 && d >= 1) || d > daysInMonth(y, mo)) return NaN; // NaN-safe
  const days = daysFromCivil(y, mo, d);
  if (len === 10) return days * MS_PER_DAY;
  const t = s.charCodeAt(10);
  if ((t !== 84 && t !== 116) || len < 17 || s.charCodeAt(13) !== 58) return NaN; // 'T'/'t', ':'
  const hh = d2(s, 11);
  const mi = d2(s, 14);
  let i = 16;
  let ss = 0;
  let ms = 0;
  if (i < len && s.charCodeAt(i) === 58) {
    ss = d2(s, i + 1);
    i += 3;
    if (i < len && s.charCodeAt(i) === 46) {
      i++;
      let digits = 0;
      while (i < len) {
        const c = s.charCodeAt(i) - 48;
        if (c < 0 || c > 9) break;
        if (digits < 3) ms = ms * 10 + c;
        digits++;
        i++;
      }
      if (digits === 0) return NaN;
      if (digits === 1) ms *= 100;
      else if (digits === 2) ms *= 10;
    }
  }
  if (!(hh <= 23 && mi <= 59 && ss <= 59)) return NaN;
  if (i >= len) return NaN; // a zone is required
  const z = s.charCodeAt(i);
  let offsetMin = 0;
  if (z === 90 || z === 122) {
    if (i + 1 !== len) return NaN;
  } else if (z === 43 || z === 45) {
    const oh = d2(s, i + 1);
    let om: number;
    if (i + 6 === len && s.charCodeAt(i + 3) === 58) om = d2(s, i + 4);
    else if (i + 5 === len) om = d2(s, i + 3);
    else return NaN;
    if (!(oh <= 23 && om <= 59)) return NaN;
    offsetMin = (oh * 60 + om) * (z === 45 ? -1 : 1);
  } else return NaN;
  return days * MS_PER_DAY + ((hh * 60 + mi - offsetMin) * 60 + ss) * 1000 + ms;
}

/** The UTC day number (days since 1970-01-01) that contains ms. */
export function dayOf(ms: number): number {
  return Math.floor(ms / MS_PER_DAY);
}

/** "YYYY-MM-DD" for a UTC day number. */
export function formatIsoDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Canonical ISO string (always with milliseconds and Z). */
export function formatIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Month key (year*12 + month index) of a UTC day number. */
export function monthOfDay(day: number): number {
  const dt = new Date(day * MS_PER_DAY);
  return dt.getUTCFullYear() * 12 + dt.getUTCMonth();
}

// ---- the trader's time zone (v3.3): where a day starts ----

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormats.set(zone, f);
  }
  return f;
}

/** Whether `zone` is an IANA time zone this runtime knows ("America/New_York", "UTC"). */
export function isTimeZone(zone: unknown): boolean {
  if (typeof zone !== "string" || zone.length === 0 || zone.length > 64) return false;
  try {
    zoneFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at the instant `ms`, in ms (New York in winter: −5 h). */
export function zoneOffsetMs(zone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  let y = 0,
    mo = 0,
    d = 0,
    h = 0,
    mi = 0,
    s = 0;
  for (const p of zoneFormat(zone).formatToParts(whole)) {
    if (p.type === "year") y = Number(p.value);
    else if (p.type === "month") mo = Number(p.value);
    else if (p.type === "day") d = Number(p.value);
    else if (p.type === "hour") h = Number(p.value);
    else if (p.type === "minute") mi = Number(p.value);
    else if (p.type === "second") s = Number(p.value);
  }
  return daysFromCivil(y, mo, d) * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 - whole;
}

/** The instant the civil day `day` (days since 1970-01-01) starts in `zone`; UTC without one. */
export function dayStartMs(day: number, zone: string | undefined): number {
  const utc = day * MS_PER_DAY;
  if (zone === undefined || zone === "UTC") return utc;
  // The offset just before midnight's guess, then at the guess: exact but for a day that skips its midnight.
  const first = utc - zoneOffsetMs(zone, utc);
  return utc - zoneOffsetMs(zone, first);
}

/** The civil day (days since 1970-01-01) in `zone` that contains `ms`; the UTC day without a zone. */
export function zoneDayOf(ms: number, zone: string | undefined): number {
  if (zone === undefined || zone === "UTC" || !Number.isFinite(ms)) return dayOf(ms);
  return Math.floor((ms + zoneOffsetMs(zone, ms)) / MS_PER_DAY);
}
