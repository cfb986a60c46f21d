// The Stats tab's analytics: pure functions of a grade's curve and its round trips
// (listRoundTrips of the ledger the grade was computed from), so every figure here is the
// grade's own. No I/O; money fields are removed by the server when amounts are hidden.
import type { CurvePoint, RoundTrip } from "~/grading";
import { ASSET_CLASS_LABELS, type AssetClass } from "~/lib/vocabulary";

/** The engine's break-even band (docs/GRADING.md §3): |P&L| within 1e-9 × entry notional. */
const BREAK_EVEN = 1e-9;
const HOUR_MS = 3_600_000;

export type Outcome = "win" | "loss" | "even";

export function outcomeOf(t: Pick<RoundTrip, "pnl" | "entryNotional">): Outcome {
  if (Math.abs(t.pnl) <= BREAK_EVEN * Math.abs(t.entryNotional)) return "even";
  return t.pnl > 0 ? "win" : "loss";
}

export type BreakdownRow = {
  key: string;
  label: string;
  trips: number;
  wins: number;
  losses: number;
  /** wins ÷ trips (as metrics.winRate). */
  winRate: number | null;
  /** Σ P&L (USD). */
  pnl: number | null;
  /**
   * pnl ÷ |Σ P&L of all trips|: the signed share of the net result; null when the net result is
   * too near zero to share out (sharesMeaningful).
   */
  pnlShare: number | null;
  /** Mean P&L per trip (USD), as metrics.expectancy. */
  expectancy: number | null;
  /** Mean return per trip (P&L ÷ entry notional), shown when amounts are hidden. */
  avgReturn: number | null;
};

export type MonthCell = { month: number; return: number | null };
export type YearRow = { year: number; months: (number | null)[]; total: number | null };
export type DayCell = { date: string; pnl: number | null; return: number | null };
export type HistogramBucket = { label: string; from: number | null; to: number | null; count: number };
export type Streaks = { longestWin: number; longestLoss: number; current: { kind: Outcome | null; length: number } };
export type TripRow = {
  /** Position in closing order, from 1 (a stable id for the journal and the CSV). */
  n: number;
  account: string;
  symbol: string;
  assetClass: RoundTrip["assetClass"];
  side: RoundTrip["side"];
  openTime: string;
  closeTime: string;
  holdingDays: number;
  entryNotional: number | null;
  pnl: number | null;
  return: number | null;
  outcome: Outcome;
};

export type Analytics = {
  timeZone: string;
  /** The calendar's days: the last twelve months up to today, inclusive ("YYYY-MM-DD"). */
  calendarFrom: string;
  calendarTo: string;
  /**
   * The trades carry a time of day (false when every one is stamped at the same clock reading, as
   * a broker that gives dates only does): without it there is no hour-of-day table.
   */
  hoursKnown: boolean;
  /** The net result is far enough from zero for the P&L share of each group to mean something. */
  sharesMeaningful: boolean;
  /**
   * The last day open positions had a price of the trader's own (a trade or a broker's mark) when
   * the curve runs past it: they are carried flat after it, so the months and days after it have
   * no return to show. null when every day of the curve is priced.
   */
  pricedThrough: string | null;
  trips: number;
  wins: number;
  losses: number;
  totalPnl: number | null;
  monthly: YearRow[];
  calendar: DayCell[];
  bySymbol: BreakdownRow[];
  byAssetClass: BreakdownRow[];
  bySide: BreakdownRow[];
  byWeekday: BreakdownRow[];
  byHour: BreakdownRow[];
  byHolding: BreakdownRow[];
  histogram: HistogramBucket[];
  best: TripRow[];
  worst: TripRow[];
  streaks: Streaks;
};

/**
 * The record's day counts as the report shows them, from one definition: the calendar (UTC) days
 * of its curve, first activity to the grade inclusive, and of those the active ones (a trade or a
 * position open at the day's start), so the active days never outnumber the days. (The engine's
 * trackRecordDays is elapsed time, 579.96 for 581 calendar days: beside 581 active days it read
 * "580 days · 581 active".)
 */
export function recordDays(curveDays: number, activeDays: number | undefined): { days: number; active: number | null } {
  return { days: curveDays, active: activeDays === undefined ? null : Math.min(activeDays, curveDays) };
}

/** Monthly and yearly returns from the flow-adjusted index: each period's end ÷ the previous end. */
export function monthlyReturns(curve: Pick<CurvePoint, "date" | "index">[]): YearRow[] {
  const ends = new Map<string, number>(); // "YYYY-MM" → index at its last day
  for (const c of curve) ends.set(c.date.slice(0, 7), c.index);
  const years = new Map<number, YearRow>();
  let prev = 1;
  let yearStart = 1;
  let year = -1;
  const ratio = (end: number, start: number) => (start > 0 ? end / start - 1 : null);
  for (const [ym, end] of ends) {
    const y = Number(ym.slice(0, 4));
    const m = Number(ym.slice(5, 7)) - 1;
    if (y !== year) {
      if (year !== -1) years.get(year)!.total = ratio(prev, yearStart);
      yearStart = prev;
      year = y;
      years.set(y, { year: y, months: Array<number | null>(12).fill(null), total: null });
    }
    years.get(y)!.months[m] = ratio(end, prev);
    prev = end;
  }
  if (year !== -1) years.get(year)!.total = ratio(prev, yearStart);
  return [...years.values()];
}

/**
 * The months wholly after `pricedThrough` have no return (null, a blank cell), rather than a flat
 * 0.0 % the carried prices would make. The year totals keep what was priced.
 */
export function unpricedMonths(years: YearRow[], pricedThrough: string | null): YearRow[] {
  if (pricedThrough === null) return years;
  const last = pricedThrough.slice(0, 7);
  return years.map((y) => {
    const months = y.months.map((r, i) => (`${y.year}-${String(i + 1).padStart(2, "0")}` > last ? null : r));
    return { ...y, months, total: months.every((m) => m === null) ? null : y.total };
  });
}

/** A curve day as analysed: its P&L is null when another trader's amounts are hidden. */
type CurveDay = Pick<CurvePoint, "date" | "index"> & { pnl: number | null };

/**
 * The calendar's window: the twelve months up to and including `today` ("YYYY-MM-DD"), from the
 * day after the same date a year before (2026-12-02 → 2025-12-03 to 2026-12-02).
 */
export function calendarWindow(today: string): { from: string; to: string } {
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const from = new Date(Date.UTC(y - 1, m - 1, d + 1)).toISOString().slice(0, 10);
  return { from, to: today };
}

/** One cell per curve day within [from, to] (all of them without a window): its P&L net of flows and its index return. */
export function dailyCalendar(curve: CurveDay[], window?: { from: string; to: string }): DayCell[] {
  let prev = 1;
  const out: DayCell[] = [];
  for (const c of curve) {
    const r = prev > 0 ? c.index / prev - 1 : null;
    prev = c.index;
    if (window && (c.date < window.from || c.date > window.to)) continue;
    out.push({ date: c.date, pnl: c.pnl, return: r === null ? null : Math.abs(r) < 1e-12 ? 0 : r });
  }
  return out;
}

/**
 * Below this |net| ÷ gross (Σ |P&L| of the trips) the net result is too near zero to share out:
 * shares of it run to hundreds of percent either way (+864 %, −1384 %) and say nothing.
 */
export const SHARE_MIN_NET_OF_GROSS = 0.2;

export function sharesMeaningful(trips: readonly Pick<RoundTrip, "pnl">[]): boolean {
  let net = 0;
  let gross = 0;
  for (const t of trips) {
    net += t.pnl;
    gross += Math.abs(t.pnl);
  }
  return gross > 0 && Math.abs(net) >= SHARE_MIN_NET_OF_GROSS * gross;
}

/**
 * Whether the trades' times say anything about the hour: false when there are none, or when every
 * opening and closing trade is at the same clock reading to the millisecond (a date-only broker
 * stamps each day alike, Plaid at 20:00 UTC), true otherwise.
 */
export function hoursKnown(trips: readonly Pick<RoundTrip, "openTime" | "closeTime">[]): boolean {
  const DAY = 86_400_000;
  let first: number | null = null;
  for (const t of trips) {
    for (const time of [t.openTime, t.closeTime]) {
      const ms = Date.parse(time);
      if (!Number.isFinite(ms)) continue;
      const clock = ((ms % DAY) + DAY) % DAY;
      if (first === null) first = clock;
      else if (clock !== first) return true;
    }
  }
  return false;
}

type Acc = { trips: number; wins: number; losses: number; pnl: number; ret: number; retN: number };
const newAcc = (): Acc => ({ trips: 0, wins: 0, losses: 0, pnl: 0, ret: 0, retN: 0 });

function add(acc: Acc, t: RoundTrip, o: Outcome) {
  acc.trips++;
  if (o === "win") acc.wins++;
  else if (o === "loss") acc.losses++;
  acc.pnl += t.pnl;
  if (t.return !== null) {
    acc.ret += t.return;
    acc.retN++;
  }
}

function rows(
  groups: Map<string, Acc>,
  label: (key: string) => string,
  totalPnl: number | null,
  keep: "all" | "nonEmpty" = "nonEmpty",
): BreakdownRow[] {
  const out: BreakdownRow[] = [];
  for (const [key, a] of groups) {
    if (keep === "nonEmpty" && a.trips === 0) continue;
    out.push({
      key,
      label: label(key),
      trips: a.trips,
      wins: a.wins,
      losses: a.losses,
      winRate: a.trips ? a.wins / a.trips : null,
      pnl: a.pnl,
      pnlShare: totalPnl === null || totalPnl === 0 ? null : a.pnl / Math.abs(totalPnl),
      expectancy: a.trips ? a.pnl / a.trips : null,
      avgReturn: a.retN ? a.ret / a.retN : null,
    });
  }
  return out;
}

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export const HOLDING_BUCKETS = [
  { key: "lt1h", label: "Under 1 hour", max: 1 / 24 },
  { key: "1h-1d", label: "1 hour to 1 day", max: 1 },
  { key: "1-7d", label: "1 to 7 days", max: 7 },
  { key: "7-30d", label: "7 to 30 days", max: 30 },
  { key: "gt30d", label: "Over 30 days", max: Infinity },
] as const;

export function holdingBucket(days: number): (typeof HOLDING_BUCKETS)[number]["key"] {
  for (const b of HOLDING_BUCKETS) if (days < b.max) return b.key;
  return "gt30d";
}

/** Return histogram edges (fractions): fixed, so two records read alike. */
export const RETURN_EDGES = [-0.5, -0.2, -0.1, -0.05, -0.02, -0.01, 0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5] as const;

const pctLabel = (v: number) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.round(Math.abs(v) * 100)}%`;

export function returnHistogram(returns: Iterable<number | null>): HistogramBucket[] {
  const buckets: HistogramBucket[] = [];
  buckets.push({ label: `below ${pctLabel(RETURN_EDGES[0])}`, from: null, to: RETURN_EDGES[0], count: 0 });
  for (let i = 0; i + 1 < RETURN_EDGES.length; i++) {
    buckets.push({
      label: `${pctLabel(RETURN_EDGES[i]!)} to ${pctLabel(RETURN_EDGES[i + 1]!)}`,
      from: RETURN_EDGES[i]!,
      to: RETURN_EDGES[i + 1]!,
      count: 0,
    });
  }
  buckets.push({
    label: `${pctLabel(RETURN_EDGES.at(-1)!)} and above`,
    from: RETURN_EDGES.at(-1)!,
    to: null,
    count: 0,
  });
  for (const r of returns) {
    if (r === null || !Number.isFinite(r)) continue;
    // Bucket i covers [edge(i−1), edge(i)); binary search over 13 edges.
    let lo = 0;
    let hi: number = RETURN_EDGES.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r >= RETURN_EDGES[mid]!) lo = mid + 1;
      else hi = mid;
    }
    buckets[lo]!.count++;
  }
  return buckets;
}

/** Longest runs of winners and losers in closing order; a break-even trip ends a run. */
export function streaksOf(outcomes: Outcome[]): Streaks {
  let longestWin = 0;
  let longestLoss = 0;
  let run = 0;
  let kind: Outcome | null = null;
  for (const o of outcomes) {
    if (o === kind) run++;
    else {
      kind = o;
      run = 1;
    }
    if (kind === "win" && run > longestWin) longestWin = run;
    if (kind === "loss" && run > longestLoss) longestLoss = run;
  }
  return { longestWin, longestLoss, current: { kind, length: run } };
}

/**
 * Local weekday (0 = Monday) and hour of an instant in `timeZone`. Intl is slow (~6 µs a call), so
 * the zone's offset is looked up once per UTC day: when the offsets at the day's start and end
 * agree (every day but the two DST changes a year) the whole day has it; otherwise per UTC hour.
 */
export function zonedClock(timeZone: string) {
  const fmt = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  const DAY_MS = 24 * HOUR_MS;
  const offsetOf = (at: number) => {
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(at)) if (part.type !== "literal") p[part.type] = Number(part.value);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - at;
  };
  const days = new Map<number, number | null>(); // UTC day → its offset, or null when it changes that day
  const hours = new Map<number, number>();
  const offsetAt = (ms: number) => {
    const d = Math.floor(ms / DAY_MS);
    let off = days.get(d);
    if (off === undefined) {
      const start = offsetOf(d * DAY_MS);
      off = start === offsetOf((d + 1) * DAY_MS - HOUR_MS) ? start : null;
      days.set(d, off);
    }
    if (off !== null) return off;
    const h = Math.floor(ms / HOUR_MS);
    let hour = hours.get(h);
    if (hour === undefined) hours.set(h, (hour = offsetOf(h * HOUR_MS)));
    return hour;
  };
  return (ms: number) => {
    const local = new Date(ms + offsetAt(ms));
    return { weekday: (local.getUTCDay() + 6) % 7, hour: local.getUTCHours() };
  };
}

/** Indexes of the `k` largest keys (ties: the earlier trip first), largest first, in one pass. */
function topK(n: number, key: (i: number) => number, k: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = key(i);
    if (top.length === k && v <= key(top[k - 1]!)) continue;
    let j = top.length < k ? top.length : k - 1;
    while (j > 0 && key(top[j - 1]!) < v) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = i;
  }
  return top;
}

export function tripRow(t: RoundTrip, n: number): TripRow {
  return {
    n,
    account: t.account,
    symbol: t.symbol,
    assetClass: t.assetClass,
    side: t.side,
    openTime: t.openTime,
    closeTime: t.closeTime,
    holdingDays: t.holdingDays,
    entryNotional: t.entryNotional,
    pnl: t.pnl,
    return: t.return,
    outcome: outcomeOf(t),
  };
}

/**
 * Every analytic of the Stats tab in one pass over the round trips (plus one over the curve).
 * `rankBy` orders the best and worst trips: by P&L, or by return when amounts are hidden (so the
 * order reveals nothing about sizes). `today` ("YYYY-MM-DD", UTC) ends the calendar (default: the
 * curve's last day).
 */
export function analyse(
  curve: CurveDay[],
  trips: RoundTrip[],
  opts: { timeZone: string; rankBy?: "pnl" | "return"; top?: number; today?: string; pricedThrough?: string | null },
): Analytics {
  const lastDay = curve.at(-1)?.date;
  const pricedThrough =
    opts.pricedThrough && lastDay !== undefined && opts.pricedThrough < lastDay ? opts.pricedThrough : null;
  const withHours = hoursKnown(trips);
  // A date-only history's days are the broker's dates: their weekday is the date's, in any zone.
  const clock = zonedClock(withHours ? opts.timeZone : "UTC");
  const shares = sharesMeaningful(trips);
  const window = calendarWindow(opts.today ?? curve.at(-1)?.date ?? new Date().toISOString().slice(0, 10));
  const bySymbol = new Map<string, Acc>();
  const byClass = new Map<string, Acc>();
  const bySide = new Map<string, Acc>([
    ["long", newAcc()],
    ["short", newAcc()],
  ]);
  const byWeekday = new Map<string, Acc>(WEEKDAYS.map((_, i) => [String(i), newAcc()]));
  const byHour = new Map<string, Acc>(Array.from({ length: 24 }, (_, h) => [String(h), newAcc()]));
  const byHolding = new Map<string, Acc>(HOLDING_BUCKETS.map((b) => [b.key, newAcc()]));
  const outcomes: Outcome[] = new Array(trips.length);
  let wins = 0;
  let losses = 0;
  let total = 0;
  for (let i = 0; i < trips.length; i++) {
    const t = trips[i]!;
    const o = outcomeOf(t);
    outcomes[i] = o;
    if (o === "win") wins++;
    else if (o === "loss") losses++;
    total += t.pnl;
    let s = bySymbol.get(t.symbol);
    if (!s) bySymbol.set(t.symbol, (s = newAcc()));
    add(s, t, o);
    let c = byClass.get(t.assetClass);
    if (!c) byClass.set(t.assetClass, (c = newAcc()));
    add(c, t, o);
    add(bySide.get(t.side)!, t, o);
    // Weekday and hour of the opening trade: when the decision to trade was taken.
    const local = clock(Date.parse(t.openTime));
    add(byWeekday.get(String(local.weekday))!, t, o);
    add(byHour.get(String(local.hour))!, t, o);
    add(byHolding.get(holdingBucket(t.holdingDays))!, t, o);
  }
  const rankBy = opts.rankBy ?? "pnl";
  const top = opts.top ?? 5;
  const key = (i: number) => (rankBy === "pnl" ? trips[i]!.pnl : (trips[i]!.return ?? 0));
  const best = topK(trips.length, key, top).filter((i) => outcomes[i] === "win");
  const worst = topK(trips.length, (i) => -key(i), top).filter((i) => outcomes[i] === "loss");
  const shareOf = shares ? total : null;
  const symbolRows = rows(bySymbol, (k) => k, shareOf).sort(
    (a, b) => b.trips - a.trips || (b.pnl ?? 0) - (a.pnl ?? 0) || a.key.localeCompare(b.key),
  );
  return {
    timeZone: opts.timeZone,
    calendarFrom: window.from,
    calendarTo: window.to,
    hoursKnown: withHours,
    sharesMeaningful: shares,
    pricedThrough,
    trips: trips.length,
    wins,
    losses,
    totalPnl: total,
    monthly: unpricedMonths(monthlyReturns(curve), pricedThrough),
    calendar: dailyCalendar(curve, window).map((d) =>
      pricedThrough !== null && d.date > pricedThrough ? { ...d, pnl: null, return: null } : d,
    ),
    bySymbol: symbolRows,
    byAssetClass: rows(byClass, (k) => ASSET_CLASS_LABELS[k as AssetClass] ?? k, shareOf),
    bySide: rows(bySide, (k) => (k === "long" ? "Long" : "Short"), shareOf),
    byWeekday: rows(byWeekday, (k) => WEEKDAYS[Number(k)]!, shareOf, "all"),
    byHour: withHours ? rows(byHour, (k) => `${k.padStart(2, "0")}:00`, shareOf, "all") : [],
    byHolding: rows(byHolding, (k) => HOLDING_BUCKETS.find((b) => b.key === k)!.label, shareOf, "all"),
    histogram: returnHistogram(trips.map((t) => t.return)),
    best: best.map((i) => tripRow(trips[i]!, i + 1)),
    worst: worst.map((i) => tripRow(trips[i]!, i + 1)),
    streaks: streaksOf(outcomes),
  };
}

/** The analytics as another trader may see them when amounts are hidden: no dollar figure. */
export function withoutAmounts(a: Analytics): Analytics {
  const row = (r: BreakdownRow): BreakdownRow => ({ ...r, pnl: null, expectancy: null });
  const trip = (t: TripRow): TripRow => ({ ...t, pnl: null, entryNotional: null });
  return {
    ...a,
    totalPnl: null,
    calendar: a.calendar.map((d) => ({ ...d, pnl: null })),
    bySymbol: a.bySymbol.map(row),
    byAssetClass: a.byAssetClass.map(row),
    bySide: a.bySide.map(row),
    byWeekday: a.byWeekday.map(row),
    byHour: a.byHour.map(row),
    byHolding: a.byHolding.map(row),
    best: a.best.map(trip),
    worst: a.worst.map(trip),
  };
}
