import type { ClubChange } from "~/lib/live-events";
import { getDb, type DB } from "../platform/db.server";
import { enqueue } from "../platform/jobs.server";
import { raiseLive } from "../platform/live.server";

/**
 * A club page live for its members (issue 34 point 4, DECISIONS 217). The live channel is per
 * user, so "the club changed" is one `club` event to each active member (plus, for a change to
 * the people, whoever it was about: a requester, a removed member). A small club's members are told
 * in the transaction of the change, by one statement; a club past CLUB_LIVE_INLINE members is told
 * by `club-live` jobs of CLUB_LIVE_BATCH members each, so a post in a club of thousands costs its
 * request one job, not thousands of counters locked until it commits.
 */

/** Members told in the request's own transaction; above this, by jobs. */
export const CLUB_LIVE_INLINE = 200;
/** Members per `club-live` job. */
export const CLUB_LIVE_BATCH = 500;

/**
 * Tells the club's active members (and `also`: people the change was about who may not be active
 * members) that `what` changed, on the transaction of the change: nothing is raised if it rolls back.
 */
export async function raiseClubLive(trx: DB, clubId: number, what: ClubChange, also: number[] = []): Promise<void> {
  const event = { kind: "club" as const, data: { club_id: clubId, what } };
  const club = await trx.selectFrom("clubs").select("member_count").where("id", "=", clubId).executeTakeFirst();
  if (!club) return;
  if (club.member_count > CLUB_LIVE_INLINE) {
    if (also.length) await raiseLive(trx, also, event);
    await enqueue(trx, "club-live", { clubId, what, after: 0 });
    return;
  }
  const members = await activeMembers(trx, clubId, 0, CLUB_LIVE_INLINE + 1);
  await raiseLive(trx, [...members, ...also], event);
}

function activeMembers(db: DB, clubId: number, after: number, limit: number): Promise<number[]> {
  return db
    .selectFrom("club_members")
    .select("user_id")
    .where("club_id", "=", clubId)
    .where("status", "=", "active")
    .where("user_id", ">", after)
    .orderBy("user_id")
    .limit(limit)
    .execute()
    .then((rows) => rows.map((r) => r.user_id));
}

/**
 * The `club-live` job: one batch of a big club's active members after `after` (by id), told in one
 * transaction that queues the next batch, so a crash re-runs one batch at most (an extra reload).
 * Returns how many were told.
 */
export async function clubLiveJob(data: { clubId: number; what: ClubChange; after: number }): Promise<number> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const ids = await activeMembers(trx, data.clubId, data.after, CLUB_LIVE_BATCH);
    if (!ids.length) return 0;
    await raiseLive(trx, ids, { kind: "club", data: { club_id: data.clubId, what: data.what } });
    if (ids.length === CLUB_LIVE_BATCH) await enqueue(trx, "club-live", { ...data, after: ids[ids.length - 1]! });
    return ids.length;
  });
}

export const clubLiveJobHandlers = {
  "club-live": async (data: { clubId: number; what: ClubChange; after: number }) => {
    await clubLiveJob(data);
  },
};

/**
 * Tells the club's owner and moderators (and `also`) that its people changed where only they see
 * it: a request waiting, withdrawn or declined, a removed person let back.
 */
export async function raiseClubModerators(trx: DB, clubId: number, also: number[] = []): Promise<void> {
  const mods = await clubModerators(trx, clubId);
  await raiseLive(trx, [...mods, ...also], { kind: "club", data: { club_id: clubId, what: "members" } });
}

/** The club's owner and active moderators (a handful: the owner appoints them). */
export async function clubModerators(db: DB, clubId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("club_members")
    .select("user_id")
    .where("club_id", "=", clubId)
    .where("status", "=", "active")
    .where("role", "in", ["owner", "moderator"])
    .execute();
  return rows.map((r) => r.user_id);
}
