// Leaderboard seasons (issue 34 point 6, docs/GRADING.md "Seasons"): the pure part, shared by the
// service, the page and the tests. A season is a UTC calendar month, named "YYYY-MM".

/** Season days with the index moving that a trader needs to be ranked. */
export const MIN_SEASON_ACTIVE_DAYS = 10;

/** Points by rank when a season closes (1st … 10th); only a positive season score wins. */
export const SEASON_POINTS = [1000, 750, 500, 400, 300, 250, 200, 150, 100, 50] as const;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isSeasonMonth(month: string): boolean {
  return MONTH.test(month);
}

/** The season (month) an instant falls in, in UTC. */
export function seasonOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The month after (or before, with -1) a season. */
export function shiftSeason(month: string, by: number): string {
  const m = MONTH.exec(month);
  if (!m) throw new Error(`not a season: ${month}`);
  return seasonOf(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1 + by, 1)));
}

/** A season's first instant and the first instant after it (UTC). */
export function seasonBounds(month: string): { start: Date; end: Date } {
  return { start: new Date(`${month}-01T00:00:00.000Z`), end: new Date(`${shiftSeason(month, 1)}-01T00:00:00.000Z`) };
}

/** "December 2026". */
export function seasonLabel(month: string): string {
  return seasonBounds(month).start.toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
}

/** The seasons from `first` to `last`, both included, in order (none when first is after last). */
export function seasonsBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let m = first; m <= last; m = shiftSeason(m, 1)) out.push(m);
  return out;
}

/** A point of a stored grade's daily curve: its date (YYYY-MM-DD) and time-weighted index. */
export type SeasonCurvePoint = { date: string; index: number };

export type SeasonScore = {
  /** Annualised Sharpe ratio of the season's active days, rounded to 1e-6. */
  score: number;
  activeDays: number;
  /** The time-weighted return over the season's days (a fraction). */
  return: number;
};

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * A trader's season score from one grade's daily curve (docs/GRADING.md "Seasons"): the daily
 * returns r_d = index(d) ÷ index(d−1) − 1 of the season's days (the first day against the day
 * before, or against 1 when the curve starts that day, as in §6; |r| < 1e-12 is 0). A day whose
 * index moved is active. Score = mean(r) ÷ std(r) × √365 over the active days (sample std, n − 1;
 * no risk-free series: the curve carries none). Null (unranked) with fewer than
 * MIN_SEASON_ACTIVE_DAYS active days or a std of 0.
 */
export function seasonScore(curve: readonly SeasonCurvePoint[], month: string): SeasonScore | null {
  const first = `${month}-01`;
  const after = `${shiftSeason(month, 1)}-01`;
  const points = [...curve]
    .filter((p) => typeof p.date === "string" && Number.isFinite(p.index))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const returns: number[] = [];
  let growth = 1;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (p.date < first || p.date >= after) continue;
    const prev = i === 0 ? 1 : points[i - 1]!.index;
    if (!(prev > 0)) continue;
    let r = p.index / prev - 1;
    if (Math.abs(r) < 1e-12) r = 0;
    growth *= 1 + r;
    if (r !== 0) returns.push(r);
  }
  const n = returns.length;
  if (n < MIN_SEASON_ACTIVE_DAYS) return null;
  const mean = returns.reduce((s, r) => s + r, 0) / n;
  const std = Math.sqrt(returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (n - 1));
  if (!(std > 0)) return null;
  return { score: round6((mean / std) * Math.sqrt(365)), activeDays: n, return: round6(growth - 1) };
}

export type Ranked<T> = T & { rank: number };

/** Ranks scored traders: score desc, then more active days, then the lower user id (deterministic). */
export function rankSeason<T extends { userId: number; score: number; activeDays: number }>(rows: T[]): Ranked<T>[] {
  return [...rows]
    .sort((a, b) => b.score - a.score || b.activeDays - a.activeDays || a.userId - b.userId)
    .map((r, i) => ({ ...r, rank: i + 1 }));
}

/** The winners of a closed season: the top ranks with a positive score, and their points. */
export function seasonWinners<T extends { score: number; rank: number }>(ranked: T[]): (T & { points: number })[] {
  return ranked
    .filter((r) => r.score > 0 && r.rank <= SEASON_POINTS.length)
    .map((r) => ({ ...r, points: SEASON_POINTS[r.rank - 1]! }));
}

/**
 * The seasons a close at `now` must close, oldest first: every past month from the earliest season
 * still open (or, with none open, the month after the latest known) to last month. A month closed
 * by hand out of order never widens the catch-up; the months before seasons existed are never paid.
 */
export function dueSeasons(known: { month: string; closed: boolean }[], now: Date): string[] {
  const current = seasonOf(now);
  const closed = new Set(known.filter((s) => s.closed).map((s) => s.month));
  const open = known
    .filter((s) => !s.closed)
    .map((s) => s.month)
    .sort();
  const latest = known
    .map((s) => s.month)
    .sort()
    .at(-1);
  const start = open[0] ?? (latest ? shiftSeason(latest, 1) : current);
  return seasonsBetween(start, shiftSeason(current, -1)).filter((m) => !closed.has(m));
}
