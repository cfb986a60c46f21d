import { sql } from "kysely";
import type { Paging } from "~/lib/paging";
import type { Refusal } from "~/lib/refusal";
import { getDb } from "../platform/db.server";
import { notify } from "./notifications.server";

export const FOLLOW_SORTS = ["followed_at", "username"] as const;

export type FollowResult = { ok: true; following: boolean } | Refusal<400 | 404>;

/**
 * Follow: one row per pair (primary key), never oneself (CHECK). The counters on users change in
 * the same transaction and only when a row was really inserted or deleted, so repeating a follow
 * or an unfollow changes nothing and the counts always equal the rows.
 */
export async function follow(followerId: number, followeeId: number): Promise<FollowResult> {
  if (followerId === followeeId) return { ok: false, status: 400, message: "You can't follow yourself." };
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const exists = await trx.selectFrom("users").select("id").where("id", "=", followeeId).executeTakeFirst();
    if (!exists) return { ok: false as const, status: 404 as const, message: "No such trader." };
    const inserted = await trx
      .insertInto("follows")
      .values({ follower_id: followerId, followee_id: followeeId })
      .onConflict((oc) => oc.columns(["follower_id", "followee_id"]).doNothing())
      .returning("followee_id")
      .executeTakeFirst();
    if (inserted) {
      await trx
        .updateTable("users")
        .set({ following_count: sql`following_count + 1` })
        .where("id", "=", followerId)
        .execute();
      await trx
        .updateTable("users")
        .set({ followers_count: sql`followers_count + 1` })
        .where("id", "=", followeeId)
        .execute();
      await notify(trx, {
        to: followeeId,
        kind: "follow",
        actorId: followerId,
        subject: `user:${followerId}`,
        url: `/u/${followerId}`,
      });
    }
    return { ok: true as const, following: true };
  });
}

export async function unfollow(followerId: number, followeeId: number): Promise<FollowResult> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom("follows")
      .where("follower_id", "=", followerId)
      .where("followee_id", "=", followeeId)
      .returning("followee_id")
      .executeTakeFirst();
    if (deleted) {
      await trx
        .updateTable("users")
        .set({ following_count: sql`following_count - 1` })
        .where("id", "=", followerId)
        .execute();
      await trx
        .updateTable("users")
        .set({ followers_count: sql`followers_count - 1` })
        .where("id", "=", followeeId)
        .execute();
    }
    return { ok: true as const, following: false };
  });
}

export async function isFollowing(followerId: number, followeeId: number): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .selectFrom("follows")
    .select("follower_id")
    .where("follower_id", "=", followerId)
    .where("followee_id", "=", followeeId)
    .executeTakeFirst();
  return Boolean(row);
}

export async function followCounts(userId: number) {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .select(["followers_count", "following_count"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return { followers: row?.followers_count ?? 0, following: row?.following_count ?? 0 };
}

export type FollowListRow = {
  id: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar: string | null;
  followed_at: string;
};

/** Who `userId` follows (direction "following") or who follows them ("followers"), paged. */
export async function followList(
  userId: number,
  direction: "following" | "followers",
  paging: Paging<(typeof FOLLOW_SORTS)[number]>,
) {
  const db = await getDb();
  const mine = direction === "following" ? "follows.follower_id" : "follows.followee_id";
  const other = direction === "following" ? "follows.followee_id" : "follows.follower_id";
  const base = db.selectFrom("follows").innerJoin("users", "users.id", other).where(mine, "=", userId);
  const [rows, total] = await Promise.all([
    base
      .select([
        "users.id",
        "users.username",
        "users.first_name",
        "users.last_name",
        "users.name",
        "users.avatar_url",
        "follows.created_at",
      ])
      .orderBy(paging.sort_by === "username" ? "users.username" : "follows.created_at", paging.order)
      .orderBy("users.id", paging.order)
      .limit(paging.page_size)
      .offset((paging.page - 1) * paging.page_size)
      .execute(),
    db
      .selectFrom("users")
      .select(direction === "following" ? "following_count" : "followers_count")
      .where("id", "=", userId)
      .executeTakeFirst(),
  ]);
  const data: FollowListRow[] = rows.map((r) => ({
    id: r.id,
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    name: r.name,
    avatar: r.avatar_url,
    followed_at: new Date(r.created_at).toISOString(),
  }));
  const count = total
    ? Number((total as Record<string, number>)[direction === "following" ? "following_count" : "followers_count"])
    : 0;
  return { data, meta: { page: paging.page, page_size: paging.page_size, total: count } };
}
