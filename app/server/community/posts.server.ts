import { sql, type SelectQueryBuilder } from "kysely";
import { z } from "zod";
import { getDb, type DB } from "../platform/db.server";
import { notify } from "./notifications.server";
import { raiseClubLive } from "./club-live.server";
import type { Database } from "../platform/db/schema";
import { cardPath } from "../grades/card-store.server";
import { ensureCard } from "../grades/cards.server";
import { hitLimit } from "../http/rate-limit.server";
import { formatNumber } from "~/lib/format-number";
import type { Refusal } from "~/lib/refusal";
import { mentionedUsernames } from "~/lib/rich-text";

export const POST_MAX = 1000;
export const FEED_PAGE = 20;
/** A post is hidden from everyone but its author once this many different users report it. */
export const HIDE_AFTER_REPORTS = 3;

export const PostBody = z.object({
  body: z
    .string({ required_error: "Write something first." })
    .transform((s) => s.replace(/\r\n/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(1, "Write something first.")
        .max(POST_MAX, `At most ${formatNumber(POST_MAX, 0)} characters.`),
    ),
  attach_card: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false),
});

export type PostView = {
  id: string;
  parent_id: string | null;
  root_id: string | null;
  body: string;
  created_at: string;
  like_count: number;
  reply_count: number;
  liked: boolean;
  deleted: boolean;
  hidden: boolean;
  mine: boolean;
  /** The club whose feed holds it (DECISIONS 216); null for the community's. */
  club_id: number | null;
  author: {
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar: string | null;
  };
  /** The attached grade; `image` is its card (/cards/<hash>.png) when one was drawn with the post. */
  card: { tier: string; stars: number; image: string | null } | null;
  /** username → user id for the @mentions in the body that name a real user. */
  mentions: Record<string, number>;
};

type Row = {
  id: string;
  parent_id: string | null;
  root_id: string | null;
  body: string;
  created_at: Date;
  like_count: number;
  reply_count: number;
  deleted_at: Date | null;
  hidden_at: Date | null;
  author_id: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar_url: string | null;
  tier: string | null;
  stars: string | null;
  card_hash: string | null;
  club_id: number | null;
};

function selectPosts<O>(qb: SelectQueryBuilder<Database, "posts", O>) {
  return qb
    .innerJoin("users", "users.id", "posts.author_id")
    .leftJoin("evaluations", "evaluations.id", "posts.evaluation_id")
    .select([
      "posts.id",
      "posts.parent_id",
      "posts.root_id",
      "posts.body",
      "posts.created_at",
      "posts.like_count",
      "posts.reply_count",
      "posts.deleted_at",
      "posts.hidden_at",
      "posts.author_id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.avatar_url",
      "evaluations.tier",
      "posts.card_hash",
      "posts.club_id",
      sql<string | null>`evaluations.result -> 'stars' ->> 'overall'`.as("stars"),
    ]);
}

/** Adds what depends on the viewer (liked, mine) and resolves @mentions, in two queries per page. */
async function toViews(rows: Row[], viewerId: number): Promise<PostView[]> {
  if (rows.length === 0) return [];
  const db = await getDb();
  const ids = rows.map((r) => String(r.id));
  const names = [...new Set(rows.flatMap((r) => (r.deleted_at ? [] : mentionedUsernames(r.body))))];
  const [likes, users] = await Promise.all([
    db.selectFrom("post_likes").select("post_id").where("user_id", "=", viewerId).where("post_id", "in", ids).execute(),
    names.length
      ? db.selectFrom("users").select(["id", "username"]).where("username", "in", names).execute()
      : Promise.resolve([]),
  ]);
  const liked = new Set(likes.map((l) => String(l.post_id)));
  const byName = new Map(users.map((u) => [u.username!, u.id]));
  return rows.map((r) => {
    const deleted = Boolean(r.deleted_at);
    const mentions: Record<string, number> = {};
    if (!deleted) for (const n of mentionedUsernames(r.body)) if (byName.has(n)) mentions[n] = byName.get(n)!;
    return {
      id: String(r.id),
      parent_id: r.parent_id === null ? null : String(r.parent_id),
      root_id: r.root_id === null ? null : String(r.root_id),
      body: deleted ? "" : r.body,
      created_at: new Date(r.created_at).toISOString(),
      like_count: r.like_count,
      reply_count: r.reply_count,
      liked: liked.has(String(r.id)),
      deleted,
      hidden: Boolean(r.hidden_at),
      mine: r.author_id === viewerId,
      club_id: r.club_id,
      author: {
        id: r.author_id,
        username: r.username,
        first_name: r.first_name,
        last_name: r.last_name,
        name: r.name,
        avatar: r.avatar_url,
      },
      card:
        !deleted && r.tier
          ? { tier: r.tier, stars: Number(r.stars ?? 0), image: r.card_hash ? cardPath(r.card_hash) : null }
          : null,
      mentions,
    };
  });
}

/**
 * A club's posts are for its active members only (DECISIONS 216): reading, replying, liking and
 * reporting. Everyone may act on a community post (club id null).
 */
export async function mayUseClubPost(exec: DB, clubId: number | null, userId: number): Promise<boolean> {
  if (clubId === null) return true;
  const row = await exec
    .selectFrom("club_members")
    .select("user_id")
    .where("club_id", "=", clubId)
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .executeTakeFirst();
  return Boolean(row);
}

async function isAdmin(exec: DB, userId: number): Promise<boolean> {
  const row = await exec.selectFrom("users").select("is_admin").where("id", "=", userId).executeTakeFirst();
  return Boolean(row?.is_admin);
}

const notMember = {
  ok: false as const,
  status: 403 as const,
  message: "Only the club's members can post, reply or like here.",
};

/** A post's page: a reply opens inside its thread. */
const postUrl = (id: string, rootId: string | null) => (rootId ? `/posts/${rootId}/${id}` : `/posts/${id}`);
const excerpt = (body: string) => (body.length > 80 ? `${body.slice(0, 79)}…` : body);

export type CreateResult =
  { ok: true; id: string; rootId: string } | (Refusal<400 | 403 | 404 | 429> & { retryAfter?: number });

/**
 * A post (parentId null) or a reply. Rate-limited per author; the parent's reply count moves in the
 * same transaction. `clubId` puts a top-level post in a club's feed; a reply goes where its parent
 * is. Either way a club's post needs an active member (checked in the transaction).
 */
export async function createPost(
  authorId: number,
  input: { body: string; attachCard: boolean; clubId?: number | null },
  parentId: string | null = null,
): Promise<CreateResult> {
  const body = input.body.replace(/\r\n/g, "\n").trim();
  if (!body) return { ok: false, status: 400, message: "Write something first." };
  if (body.length > POST_MAX) return { ok: false, status: 400, message: `At most ${POST_MAX} characters.` };
  const limited = await hitLimit("post", authorId);
  if (!limited.ok)
    return {
      ok: false,
      status: 429,
      message: `You're posting too fast. Try again in ${limited.retryAfter} s.`,
      retryAfter: limited.retryAfter,
    };
  // The card is drawn (or found) before the transaction: drawing is long work, and on PGlite the
  // transaction holds the only connection. It is the current grade's, which the post attaches.
  const card = input.attachCard ? await ensureCard(authorId, "link") : null;
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    let rootId: string | null = null;
    let parentAuthor: number | null = null;
    let clubId: number | null = parentId === null ? (input.clubId ?? null) : null;
    if (parentId !== null) {
      const parent = await trx
        .selectFrom("posts")
        .select(["id", "root_id", "author_id", "club_id"])
        .where("id", "=", parentId)
        .where("deleted_at", "is", null)
        .where((eb) => eb.or([eb("hidden_at", "is", null), eb("author_id", "=", authorId)]))
        .executeTakeFirst();
      if (!parent) return { ok: false as const, status: 404 as const, message: "That post is gone." };
      rootId = String(parent.root_id ?? parent.id);
      parentAuthor = parent.author_id;
      clubId = parent.club_id;
    }
    if (!(await mayUseClubPost(trx, clubId, authorId))) {
      // Someone who may not see a club's post is told it is gone, as for any post they cannot see.
      if (parentId !== null) return { ok: false as const, status: 404 as const, message: "That post is gone." };
      return notMember;
    }
    const row = await trx
      .insertInto("posts")
      .values({
        author_id: authorId,
        parent_id: parentId,
        root_id: rootId,
        body,
        evaluation_id: card?.evaluationId ?? null,
        card_hash: card?.hash ?? null,
        club_id: clubId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (parentId !== null)
      await trx
        .updateTable("posts")
        .set({ reply_count: sql`reply_count + 1` })
        .where("id", "=", parentId)
        .execute();
    const id = String(row.id);
    const url = postUrl(id, rootId);
    if (parentId !== null && parentAuthor !== null) {
      await notify(trx, {
        to: parentAuthor,
        kind: "reply",
        actorId: authorId,
        subject: `post:${parentId}`,
        url,
        data: { excerpt: excerpt(body) },
      });
    }
    // The parent's author already hears of the reply; everyone else named with @username is told once.
    const names = mentionedUsernames(body);
    const mentioned = names.length
      ? await trx.selectFrom("users").select("id").where("username", "in", names).execute()
      : [];
    const to = mentioned.map((u) => u.id).filter((uid) => uid !== parentAuthor);
    if (to.length)
      await notify(trx, {
        to,
        kind: "mention",
        actorId: authorId,
        subject: `post:${id}`,
        url,
        data: { excerpt: excerpt(body) },
      });
    // A club's open pages reload: the post in the feed, a reply in its count (DECISIONS 217).
    if (clubId !== null) await raiseClubLive(trx, clubId, "feed");
    return { ok: true as const, id, rootId: rootId ?? id };
  });
}

/** One post or reply as `viewerId` may see it: hidden ones only to their author; deleted ones as a placeholder. */
export async function getPost(id: string, viewerId: number): Promise<PostView | null> {
  const db = await getDb();
  const row = await selectPosts(db.selectFrom("posts")).where("posts.id", "=", id).executeTakeFirst();
  if (!row) return null;
  if (row.hidden_at && row.author_id !== viewerId) return null;
  // Operators read any club's post (reports reach /admin), but act on it only from /admin.
  if (!(await mayUseClubPost(db, row.club_id, viewerId)) && !(await isAdmin(db, viewerId))) return null;
  return (await toViews([row as Row], viewerId))[0]!;
}

/** Direct replies to a post or reply, oldest first, paged; hidden replies left out (except the viewer's own). */
export async function repliesTo(parentId: string, viewerId: number, page = 1, pageSize = 50) {
  const db = await getDb();
  const base = db
    .selectFrom("posts")
    .where("posts.parent_id", "=", parentId)
    .where((eb) => eb.or([eb("posts.hidden_at", "is", null), eb("posts.author_id", "=", viewerId)]));
  const [rows, total] = await Promise.all([
    selectPosts(base)
      .orderBy("posts.id", "asc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: await toViews(rows as Row[], viewerId), meta: { page, page_size: pageSize, total: Number(total.n) } };
}

export type FeedView = "latest" | "following";

/**
 * The community feed, newest first, keyset-paged by post id (`before`): top-level posts that are
 * neither hidden nor deleted; "following" keeps the viewer's own posts and those of people they follow.
 */
export async function feed(viewerId: number, view: FeedView, before: string | null, limit = FEED_PAGE) {
  const db = await getDb();
  let rows: Row[];
  if (view === "following") {
    // Per followed author, the newest posts from the (author_id, id desc) index, merged: a few index
    // probes instead of scanning everyone's posts for the few by people the viewer follows.
    const { rows: ids } = await sql<{ id: string }>`
      select p.id from (select followee_id as author_id from follows where follower_id = ${viewerId} union all select ${viewerId}) a
      cross join lateral (
        select id from posts
        where author_id = a.author_id and parent_id is null and hidden_at is null and deleted_at is null
          and club_id is null
          and (${before}::bigint is null or id < ${before}::bigint)
        order by id desc limit ${limit + 1}
      ) p
      order by p.id desc limit ${limit + 1}`.execute(db);
    rows = ids.length
      ? ((await selectPosts(db.selectFrom("posts"))
          .where(
            "posts.id",
            "in",
            ids.map((r) => String(r.id)),
          )
          .orderBy("posts.id", "desc")
          .execute()) as Row[])
      : [];
  } else {
    let q = db
      .selectFrom("posts")
      .where("posts.parent_id", "is", null)
      .where("posts.club_id", "is", null)
      .where("posts.hidden_at", "is", null)
      .where("posts.deleted_at", "is", null);
    if (before) q = q.where("posts.id", "<", before);
    rows = (await selectPosts(q)
      .orderBy("posts.id", "desc")
      .limit(limit + 1)
      .execute()) as Row[];
  }
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { data: await toViews(page, viewerId), next: more ? String(page[page.length - 1]!.id) : null };
}

/**
 * A club's feed, newest first, keyset-paged like the community's: its top-level posts that are
 * neither hidden nor deleted. The caller has checked that the viewer is an active member.
 */
export async function clubFeed(clubId: number, viewerId: number, before: string | null, limit = FEED_PAGE) {
  const db = await getDb();
  let q = db
    .selectFrom("posts")
    .where("posts.club_id", "=", clubId)
    .where("posts.parent_id", "is", null)
    .where("posts.hidden_at", "is", null)
    .where("posts.deleted_at", "is", null);
  if (before) q = q.where("posts.id", "<", before);
  const rows = (await selectPosts(q)
    .orderBy("posts.id", "desc")
    .limit(limit + 1)
    .execute()) as Row[];
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { data: await toViews(page, viewerId), next: more ? String(page[page.length - 1]!.id) : null };
}

/** A user's posts or replies (profile tabs), paged by page number, newest first; deleted and hidden ones left out for others. */
export async function postsBy(authorId: number, viewerId: number, kind: "posts" | "replies", page = 1, pageSize = 20) {
  const db = await getDb();
  // A club's posts stay in its feed: profiles show the community's.
  let base = db
    .selectFrom("posts")
    .where("posts.author_id", "=", authorId)
    .where("posts.deleted_at", "is", null)
    .where("posts.club_id", "is", null);
  base = kind === "posts" ? base.where("posts.parent_id", "is", null) : base.where("posts.parent_id", "is not", null);
  if (authorId !== viewerId) base = base.where("posts.hidden_at", "is", null);
  const [rows, total] = await Promise.all([
    selectPosts(base)
      .orderBy("posts.id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: await toViews(rows as Row[], viewerId), meta: { page, page_size: pageSize, total: Number(total.n) } };
}

/** Posts and replies the user liked, most recent like first. */
export async function likedBy(userId: number, page = 1, pageSize = 20) {
  const db = await getDb();
  const base = db
    .selectFrom("post_likes")
    .innerJoin("posts", "posts.id", "post_likes.post_id")
    .where("post_likes.user_id", "=", userId)
    .where("posts.deleted_at", "is", null)
    .where("posts.hidden_at", "is", null)
    .where("posts.club_id", "is", null);
  const [rows, total] = await Promise.all([
    selectPosts(db.selectFrom("posts"))
      .innerJoin("post_likes", "post_likes.post_id", "posts.id")
      .where("post_likes.user_id", "=", userId)
      .where("posts.deleted_at", "is", null)
      .where("posts.hidden_at", "is", null)
      .where("posts.club_id", "is", null)
      .orderBy("post_likes.created_at", "desc")
      .orderBy("posts.id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: await toViews(rows as Row[], userId), meta: { page, page_size: pageSize, total: Number(total.n) } };
}

/** One like per user and post (primary key); the counter moves only when a row is inserted or deleted. */
export async function setLike(
  userId: number,
  postId: string,
  like: boolean,
): Promise<{ ok: true; liked: boolean; like_count: number } | { ok: false; status: 404 }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const post = await trx
      .selectFrom("posts")
      .select(["id", "author_id", "root_id", "club_id"])
      .where("id", "=", postId)
      .where("deleted_at", "is", null)
      .where((eb) => eb.or([eb("hidden_at", "is", null), eb("author_id", "=", userId)]))
      .executeTakeFirst();
    if (!post || !(await mayUseClubPost(trx, post.club_id, userId)))
      return { ok: false as const, status: 404 as const };
    let changed = false;
    if (like) {
      changed = Boolean(
        await trx
          .insertInto("post_likes")
          .values({ user_id: userId, post_id: postId })
          .onConflict((oc) => oc.columns(["user_id", "post_id"]).doNothing())
          .returning("post_id")
          .executeTakeFirst(),
      );
    } else {
      changed = Boolean(
        await trx
          .deleteFrom("post_likes")
          .where("user_id", "=", userId)
          .where("post_id", "=", postId)
          .returning("post_id")
          .executeTakeFirst(),
      );
    }
    const delta = changed ? (like ? 1 : -1) : 0;
    if (changed && like)
      await notify(trx, {
        to: post.author_id,
        kind: "like",
        actorId: userId,
        subject: `post:${postId}`,
        url: postUrl(postId, post.root_id === null ? null : String(post.root_id)),
      });
    if (changed && post.club_id !== null) await raiseClubLive(trx, post.club_id, "feed");
    const row = await trx
      .updateTable("posts")
      .set({ like_count: sql`like_count + ${delta}` })
      .where("id", "=", postId)
      .returning("like_count")
      .executeTakeFirstOrThrow();
    return { ok: true as const, liked: like, like_count: row.like_count };
  });
}

/**
 * Deletes the author's own post or reply (soft: the row stays so the thread keeps its shape; the
 * body is no longer shown). Anyone else's post answers 404.
 */
export async function deletePost(
  userId: number,
  postId: string,
): Promise<{ ok: true; parentId: string | null; rootId: string | null } | { ok: false; status: 404 }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("posts")
      .set({ deleted_at: sql`now()` })
      .where("id", "=", postId)
      .where("author_id", "=", userId)
      .where("deleted_at", "is", null)
      .returning(["parent_id", "root_id", "club_id"])
      .executeTakeFirst();
    if (!row) return { ok: false as const, status: 404 as const };
    if (row.club_id !== null) await raiseClubLive(trx, row.club_id, "feed");
    if (row.parent_id !== null)
      await trx
        .updateTable("posts")
        .set({ reply_count: sql`greatest(reply_count - 1, 0)` })
        .where("id", "=", row.parent_id)
        .execute();
    return {
      ok: true as const,
      parentId: row.parent_id === null ? null : String(row.parent_id),
      rootId: row.root_id === null ? null : String(row.root_id),
    };
  });
}

export const ReportInput = z.object({
  reason: z
    .string()
    .trim()
    .min(1, "Say briefly what is wrong.")
    .max(500, "At most 500 characters.")
    .default("Reported from the page"),
});

/**
 * Stores a report (one per reporter and post). After HIDE_AFTER_REPORTS different reporters the
 * post is hidden: it leaves every feed and list and its page answers 404 to everyone but its author.
 */
export async function reportPost(
  reporterId: number,
  postId: string,
  reason: string,
): Promise<{ ok: true; hidden: boolean } | Refusal<400 | 404>> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const post = await trx
      .selectFrom("posts")
      .select(["id", "author_id", "club_id"])
      .where("id", "=", postId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!post || !(await mayUseClubPost(trx, post.club_id, reporterId)))
      return { ok: false as const, status: 404 as const, message: "That post is gone." };
    if (post.author_id === reporterId)
      return { ok: false as const, status: 400 as const, message: "You can't report your own post." };
    const inserted = await trx
      .insertInto("reports")
      .values({ reporter_id: reporterId, post_id: postId, reason })
      .onConflict((oc) => oc.columns(["reporter_id", "post_id"]).where("post_id", "is not", null).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) {
      const p = await trx.selectFrom("posts").select("hidden_at").where("id", "=", postId).executeTakeFirstOrThrow();
      return { ok: true as const, hidden: Boolean(p.hidden_at) };
    }
    const row = await trx
      .updateTable("posts")
      .set({
        report_count: sql`report_count + 1`,
        hidden_at: sql`case when hidden_at is null and report_count + 1 >= ${HIDE_AFTER_REPORTS} then now() else hidden_at end`,
      })
      .where("id", "=", postId)
      .returning("hidden_at")
      .executeTakeFirstOrThrow();
    return { ok: true as const, hidden: Boolean(row.hidden_at) };
  });
}

export async function reportUser(
  reporterId: number,
  userId: number,
  reason: string,
): Promise<{ ok: true } | Refusal<400 | 404>> {
  if (reporterId === userId) return { ok: false, status: 400, message: "You can't report yourself." };
  const db = await getDb();
  const exists = await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
  if (!exists) return { ok: false, status: 404, message: "No such trader." };
  await db
    .insertInto("reports")
    .values({ reporter_id: reporterId, user_id: userId, reason })
    .onConflict((oc) => oc.columns(["reporter_id", "user_id"]).where("user_id", "is not", null).doNothing())
    .execute();
  return { ok: true };
}

/**
 * An operator's decision (/admin/reports, inside its transaction): hide or unhide a post regardless
 * of reports. Unhiding also zeroes the report count, so it takes HIDE_AFTER_REPORTS new reporters
 * to hide it again. False when there is no such post.
 */
export async function setPostHidden(exec: DB, postId: string, hidden: boolean): Promise<boolean> {
  const row = await exec
    .updateTable("posts")
    .set(hidden ? { hidden_at: sql`coalesce(hidden_at, now())` } : { hidden_at: null, report_count: 0 })
    .where("id", "=", postId)
    .returning("id")
    .executeTakeFirst();
  return Boolean(row);
}
