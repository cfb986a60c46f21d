import { sql } from "kysely";
import type { Refusal } from "~/lib/refusal";
import {
  dueSeasons,
  isSeasonMonth,
  rankSeason,
  seasonBounds,
  seasonLabel,
  seasonOf,
  seasonScore,
  seasonWinners,
  shiftSeason,
  SEASON_POINTS,
  type SeasonCurvePoint,
} from "~/lib/seasons";
import { getDb, getReadDb, type DB } from "../platform/db.server";
import { log } from "../platform/log.server";
import { notify } from "./notifications.server";
import { applyPoints } from "./points.server";

/**
 * Leaderboard seasons (issue 34 point 6; docs/GRADING.md "Seasons"). A season is a
 * UTC month; its standings are computed on read from each trader's latest verified grade made in
 * the month (not demo, not self-reported; a provisional one leaves the trader unranked), scored by
 * the pure seasonScore. Closing a past season (the `season-close` job, monthly, once per cluster)
 * ranks it once more on the primary, stores the winners, pays their points and notifies them, in
 * one transaction that a second close finds already done.
 */

export type SeasonStanding = {
  rank: number;
  userId: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar: string | null;
  tier: string | null;
  score: number;
  activeDays: number;
  return: number;
};

type Candidate = Omit<SeasonStanding, "rank" | "score" | "activeDays" | "return"> & {
  provisional: boolean;
  curve: SeasonCurvePoint[];
};

/** Each trader's latest verified grade made in the season, with only the curve points it needs. */
async function candidates(db: DB, month: string): Promise<Candidate[]> {
  const { start, end } = seasonBounds(month);
  // The day before the season: its index is the first day's base.
  const before = new Date(start.getTime() - 86_400_000).toISOString().slice(0, 10);
  const after = end.toISOString().slice(0, 10);
  const rows = await sql<{
    user_id: number;
    tier: string | null;
    provisional: boolean;
    curve: unknown;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar_url: string | null;
  }>`
    with latest as (
      select distinct on (e.user_id) e.id
      from evaluations e
      where e.created_at >= ${start} and e.created_at < ${end}
        and not e.demo and not e.self_reported and e.score is not null
      order by e.user_id, e.created_at desc, e.id desc)
    select e.user_id, e.tier,
      coalesce(e.result -> 'provisional' = 'true'::jsonb, false) as provisional,
      (select coalesce(jsonb_agg(jsonb_build_object('date', p ->> 'date', 'index', p -> 'index')), '[]'::jsonb)
         from jsonb_array_elements(
           case when jsonb_typeof(e.result -> 'curve') = 'array' then e.result -> 'curve' else '[]'::jsonb end) p
         where p ->> 'date' >= ${before} and p ->> 'date' < ${after}) as curve,
      u.username, u.first_name, u.last_name, u.name, u.avatar_url
    from latest
    join evaluations e on e.id = latest.id
    join users u on u.id = e.user_id`.execute(db);
  return rows.rows.map((r) => {
    const curve = (typeof r.curve === "string" ? JSON.parse(r.curve) : r.curve) as { date: string; index: unknown }[];
    return {
      userId: r.user_id,
      username: r.username,
      first_name: r.first_name,
      last_name: r.last_name,
      name: r.name,
      avatar: r.avatar_url,
      tier: r.tier,
      provisional: Boolean(r.provisional),
      curve: curve.map((p) => ({ date: p.date, index: Number(p.index) })),
    };
  });
}

/** The season's ranked traders, best first (every trader with a score, not only the top). */
export async function computeStandings(db: DB, month: string): Promise<SeasonStanding[]> {
  const scored = (await candidates(db, month)).flatMap(({ provisional, curve, ...trader }) => {
    if (provisional) return [];
    const s = seasonScore(curve, month);
    return s ? [{ ...trader, score: s.score, activeDays: s.activeDays, return: s.return }] : [];
  });
  return rankSeason(scored);
}

// The running season's standings, computed on read and kept until a grade is made (the newest
// evaluation id moves) or a minute passes (a trader deleted).
const CACHE_MS = 60_000;
let cached: { month: string; newest: number; at: number; standings: SeasonStanding[] } | undefined;

export async function liveStandings(month: string): Promise<SeasonStanding[]> {
  const db = await getReadDb();
  const newest = Number(
    (
      await db
        .selectFrom("evaluations")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst()
    )?.id ?? 0,
  );
  if (cached && cached.month === month && cached.newest === newest && Date.now() - cached.at < CACHE_MS)
    return cached.standings;
  const standings = await computeStandings(db, month);
  cached = { month, newest, at: Date.now(), standings };
  return standings;
}

export type CloseResult = { ok: true; closed: boolean; winners: number } | Refusal<400 | 409>;

/**
 * Closes a past season once: marks it closed, stores its winners (the top ten with a positive
 * score), pays each their points (ledger key `season:{month}:{user}`) and notifies them, all in one
 * transaction. A season already closed changes nothing (closed: false); concurrent closes queue on
 * the season's row and the second finds it closed.
 */
export async function closeSeason(month: string, now = new Date()): Promise<CloseResult> {
  if (!isSeasonMonth(month)) return { ok: false, status: 400, message: "A season is a month: YYYY-MM." };
  if (month >= seasonOf(now)) return { ok: false, status: 409, message: "A season closes after its month ends." };
  const db = await getDb();
  const result = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("seasons")
      .values({ month })
      .onConflict((oc) => oc.column("month").doNothing())
      .execute();
    const claimed = await trx
      .updateTable("seasons")
      .set({ closed_at: sql`now()` })
      .where("month", "=", month)
      .where("closed_at", "is", null)
      .returning("month")
      .executeTakeFirst();
    if (!claimed) return { closed: false, winners: 0 };
    const winners = seasonWinners(await computeStandings(trx, month));
    const label = seasonLabel(month);
    for (const w of winners) {
      await trx
        .insertInto("season_winners")
        .values({
          month,
          user_id: w.userId,
          rank: w.rank,
          score: w.score,
          active_days: w.activeDays,
          season_return: w.return,
          tier: w.tier,
          points: w.points,
        })
        .execute();
      await applyPoints(trx, w.userId, w.points, `season:${month}`, `season:${month}:${w.userId}`);
      await notify(trx, {
        to: w.userId,
        kind: "season_win",
        actorId: null,
        subject: `season:${month}`,
        url: `/seasons#season-${month}`,
        data: { month, label, rank: w.rank, points: w.points },
      });
    }
    return { closed: true, winners: winners.length };
  });
  if (result.closed) log("info", "season closed", { month, winners: result.winners });
  return { ok: true, ...result };
}

/**
 * The scheduled close (first of the month, 00:05 UTC): every past season still open, oldest first,
 * each in its own transaction; then the running season's row, so the next close starts from it.
 */
export async function closeDueSeasons(now = new Date()): Promise<string[]> {
  const db = await getDb();
  const known = await db.selectFrom("seasons").select(["month", "closed_at"]).execute();
  const done: string[] = [];
  for (const month of dueSeasons(
    known.map((s) => ({ month: s.month, closed: s.closed_at !== null })),
    now,
  )) {
    const r = await closeSeason(month, now);
    if (r.ok && r.closed) done.push(month);
  }
  await db
    .insertInto("seasons")
    .values({ month: seasonOf(now) })
    .onConflict((oc) => oc.column("month").doNothing())
    .execute();
  return done;
}

export async function seasonCloseJob(): Promise<void> {
  await closeDueSeasons();
}

export type PastSeason = {
  month: string;
  label: string;
  closedAt: string;
  winners: (Omit<SeasonStanding, "activeDays" | "return"> & { points: number })[];
};

/** The latest closed seasons with their winners, newest first. */
export async function pastSeasons(limit = 12): Promise<PastSeason[]> {
  const db = await getReadDb();
  const seasons = await db
    .selectFrom("seasons")
    .select(["month", "closed_at"])
    .where("closed_at", "is not", null)
    .orderBy("month", "desc")
    .limit(limit)
    .execute();
  if (seasons.length === 0) return [];
  const winners = await db
    .selectFrom("season_winners as w")
    .innerJoin("users as u", "u.id", "w.user_id")
    .select([
      "w.month",
      "w.rank",
      "w.score",
      "w.tier",
      "w.points",
      "u.id",
      "u.username",
      "u.first_name",
      "u.last_name",
      "u.name",
      "u.avatar_url",
    ])
    .where(
      "w.month",
      "in",
      seasons.map((s) => s.month),
    )
    .orderBy("w.month", "desc")
    .orderBy("w.rank")
    .execute();
  return seasons.map((s) => ({
    month: s.month,
    label: seasonLabel(s.month),
    closedAt: new Date(s.closed_at!).toISOString(),
    winners: winners
      .filter((w) => w.month === s.month)
      .map((w) => ({
        rank: w.rank,
        userId: w.id,
        username: w.username,
        first_name: w.first_name,
        last_name: w.last_name,
        name: w.name,
        avatar: w.avatar_url,
        tier: w.tier,
        score: w.score,
        points: w.points,
      })),
  }));
}

/** How many of the standings a page shows. */
export const STANDINGS_SHOWN = 50;

/** The seasons page and its API: the running season (top standings, the viewer's own place) and the past winners. */
export async function seasonsOverview(viewerId: number, now = new Date()) {
  const month = seasonOf(now);
  const { end } = seasonBounds(month);
  const [standings, past] = await Promise.all([liveStandings(month), pastSeasons()]);
  const prize = (s: SeasonStanding) => (s.score > 0 ? (SEASON_POINTS[s.rank - 1] ?? 0) : 0);
  const mine = standings.find((s) => s.userId === viewerId);
  return {
    season: {
      month,
      label: seasonLabel(month),
      endsAt: end.toISOString(),
      daysLeft: Math.max(0, Math.ceil((end.getTime() - now.getTime()) / 86_400_000)),
      ranked: standings.length,
      next: shiftSeason(month, 1),
    },
    standings: standings.slice(0, STANDINGS_SHOWN).map((s) => ({ ...s, prize: prize(s) })),
    me: mine ? { ...mine, prize: prize(mine) } : null,
    past,
  };
}
