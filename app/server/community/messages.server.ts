import { sql } from "kysely";
import { z } from "zod";
import { formatNumber } from "~/lib/format-number";
import type { Refusal } from "~/lib/refusal";
import { getDb } from "../platform/db.server";
import { markSubjectRead, notify } from "./notifications.server";
import type { ConversationStatus } from "../platform/db/schema";
import { hitLimit } from "../http/rate-limit.server";
import { raiseLive, raiseLiveEach } from "../platform/live.server";

export const MESSAGE_MAX = 2000;
const MESSAGE_LENGTH = `Write a message of 1 to ${formatNumber(MESSAGE_MAX, 0)} characters.`;
/** A message's text: line ends made \n, trimmed, 1 to MESSAGE_MAX characters. */
const MessageText = z
  .string()
  .transform((s) => s.replace(/\r\n/g, "\n").trim())
  .pipe(z.string().min(1, MESSAGE_LENGTH).max(MESSAGE_MAX, MESSAGE_LENGTH));

const pair = (x: number, y: number) => (x < y ? { user_a: x, user_b: y } : { user_a: y, user_b: x });

export async function isBlockedEitherWay(x: number, y: number): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .selectFrom("blocks")
    .select("blocker_id")
    .where((eb) =>
      eb.or([
        eb.and([eb("blocker_id", "=", x), eb("blocked_id", "=", y)]),
        eb.and([eb("blocker_id", "=", y), eb("blocked_id", "=", x)]),
      ]),
    )
    .executeTakeFirst();
  return Boolean(row);
}

export type SendResult =
  { ok: true; conversationId: number; status: ConversationStatus } | Refusal<400 | 403 | 404 | 429>;

/**
 * Sends a message from `senderId` to `recipientId`, opening their conversation if needed. A new
 * conversation is a request unless the recipient follows the sender. Blocked (either way): refused.
 * While a conversation is a request, only its starter may add to it; once declined, the starter
 * cannot write again (the recipient still can, which accepts it).
 */
export async function sendMessage(senderId: number, recipientId: number, body: string): Promise<SendResult> {
  if (senderId === recipientId) return { ok: false, status: 400, message: "You can't message yourself." };
  const parsed = MessageText.safeParse(body);
  if (!parsed.success) return { ok: false, status: 400, message: MESSAGE_LENGTH };
  const text = parsed.data;
  const db = await getDb();
  const recipient = await db.selectFrom("users").select("id").where("id", "=", recipientId).executeTakeFirst();
  if (!recipient) return { ok: false, status: 404, message: "No such trader." };
  if (await isBlockedEitherWay(senderId, recipientId))
    return { ok: false, status: 403, message: "You can't message this trader." };
  const limited = await hitLimit("message", senderId);
  if (!limited.ok)
    return {
      ok: false,
      status: 429,
      message: `You're sending messages too fast. Try again in ${limited.retryAfter} s.`,
    };
  return db.transaction().execute(async (trx) => {
    const { user_a, user_b } = pair(senderId, recipientId);
    let conv = await trx
      .selectFrom("conversations")
      .selectAll()
      .where("user_a", "=", user_a)
      .where("user_b", "=", user_b)
      .forUpdate()
      .executeTakeFirst();
    if (!conv) {
      const follows = await trx
        .selectFrom("follows")
        .select("follower_id")
        .where("follower_id", "=", recipientId)
        .where("followee_id", "=", senderId)
        .executeTakeFirst();
      conv = await trx
        .insertInto("conversations")
        .values({ user_a, user_b, started_by: senderId, status: follows ? "accepted" : "request" })
        .onConflict((oc) => oc.columns(["user_a", "user_b"]).doUpdateSet({ user_a: sql`excluded.user_a` }))
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    let status = conv.status;
    if (status === "request" && senderId !== conv.started_by) {
      return { ok: false as const, status: 403 as const, message: "Accept the request before replying." };
    }
    if (status === "declined") {
      if (senderId === conv.started_by)
        return { ok: false as const, status: 403 as const, message: "This trader declined your message request." };
      status = "accepted";
    }
    const msg = await trx
      .insertInto("messages")
      .values({ conversation_id: conv.id, sender_id: senderId, body: text })
      .returning("id")
      .executeTakeFirstOrThrow();
    const mineRead = senderId === conv.user_a ? "a_last_read_id" : "b_last_read_id";
    await trx
      .updateTable("conversations")
      .set({ status, last_message_at: sql`now()`, [mineRead]: msg.id })
      .where("id", "=", conv.id)
      .execute();
    // While a request is pending the recipient answers it on its own page.
    const request = status === "request";
    // Live (DECISIONS 190): the recipient's open pages, and the sender's other tabs. Raised before
    // notify(), so the two users' event counters are locked in one order (raiseLive sorts).
    await raiseLiveEach(
      trx,
      "message",
      [senderId, recipientId].map((userId) => ({
        userId,
        data: { conversation_id: conv.id, message_id: String(msg.id), mine: userId === senderId, request },
      })),
    );
    await notify(trx, {
      to: recipientId,
      kind: request ? "message_request" : "message",
      actorId: senderId,
      subject: `conversation:${conv.id}`,
      url: `/messages/${conv.id}/${request ? "request" : "reply"}`,
    });
    return { ok: true as const, conversationId: conv.id, status };
  });
}

export type ConversationView = {
  id: number;
  status: ConversationStatus;
  started_by_me: boolean;
  other: {
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar: string | null;
  };
  blocked_by_me: boolean;
};

/** The conversation if `userId` is one of its two participants; null otherwise (routes answer 404). */
export async function conversationFor(userId: number, conversationId: number): Promise<ConversationView | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("conversations")
    .innerJoin("users", (j) =>
      j.on(
        sql<boolean>`users.id = case when conversations.user_a = ${userId} then conversations.user_b else conversations.user_a end`,
      ),
    )
    .select([
      "conversations.id",
      "conversations.status",
      "conversations.started_by",
      "users.id as other_id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.avatar_url",
    ])
    .where("conversations.id", "=", conversationId)
    .where((eb) => eb.or([eb("conversations.user_a", "=", userId), eb("conversations.user_b", "=", userId)]))
    .executeTakeFirst();
  if (!row) return null;
  const blocked = await db
    .selectFrom("blocks")
    .select("blocker_id")
    .where("blocker_id", "=", userId)
    .where("blocked_id", "=", row.other_id)
    .executeTakeFirst();
  return {
    id: row.id,
    status: row.status,
    started_by_me: row.started_by === userId,
    other: {
      id: row.other_id,
      username: row.username,
      first_name: row.first_name,
      last_name: row.last_name,
      name: row.name,
      avatar: row.avatar_url,
    },
    blocked_by_me: Boolean(blocked),
  };
}

export const MESSAGES_PAGE = 50;

/**
 * A page of a conversation the caller is part of (checked by the caller), oldest first: the newest
 * `limit` messages, or those before message `before`; `older` is the id to ask for the page before
 * this one, null at the start. Reading the newest page marks the conversation read.
 */
export async function conversationMessages(
  userId: number,
  conversationId: number,
  { before = null, limit = MESSAGES_PAGE }: { before?: string | null; limit?: number } = {},
) {
  const db = await getDb();
  let query = db
    .selectFrom("messages")
    .select(["id", "sender_id", "body", "created_at"])
    .where("conversation_id", "=", conversationId);
  if (before !== null) query = query.where("id", "<", before);
  const rows = await query
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const older = rows.length > limit ? String(rows[limit - 1]!.id) : null;
  const page = rows.slice(0, limit).reverse();
  const lastId = page.length ? page[page.length - 1]!.id : null;
  if (lastId !== null && before === null) {
    await db.transaction().execute(async (trx) => {
      // Only when it moves on: the other person's "Seen" is told live (DECISIONS 190).
      const moved = await trx
        .updateTable("conversations")
        .set({
          a_last_read_id: sql`case when user_a = ${userId} then greatest(a_last_read_id, ${lastId}) else a_last_read_id end`,
          b_last_read_id: sql`case when user_b = ${userId} then greatest(b_last_read_id, ${lastId}) else b_last_read_id end`,
        })
        .where("id", "=", conversationId)
        .where((eb) =>
          eb.or([
            eb.and([eb("user_a", "=", userId), eb("a_last_read_id", "<", lastId)]),
            eb.and([eb("user_b", "=", userId), eb("b_last_read_id", "<", lastId)]),
          ]),
        )
        .returning(["user_a", "user_b"])
        .executeTakeFirst();
      if (moved)
        await raiseLive(trx, moved.user_a === userId ? moved.user_b : moved.user_a, {
          kind: "read",
          data: { conversation_id: conversationId, last_read_id: String(lastId) },
        });
      await markSubjectRead(trx, userId, `conversation:${conversationId}`);
    });
  }
  // The "Seen" receipt: how far the other person has read.
  const conv = await db
    .selectFrom("conversations")
    .select(sql<string>`case when user_a = ${userId} then b_last_read_id else a_last_read_id end`.as("seen"))
    .where("id", "=", conversationId)
    .executeTakeFirst();
  return {
    seen_up_to: String(conv?.seen ?? "0"),
    messages: page.map((r) => ({
      id: String(r.id),
      mine: r.sender_id === userId,
      body: r.body,
      created_at: new Date(r.created_at).toISOString(),
    })),
    older,
  };
}

export type InboxRow = ConversationView & {
  last_message: { body: string; mine: boolean; created_at: string } | null;
  unread: number;
  incoming_request: boolean;
};

export const INBOX_PAGE = 50;

/**
 * A page (from 1) of the user's conversations, most recent first, each with its last message and
 * unread count; `more` tells whether a later page has any.
 */
export async function inbox(
  userId: number,
  page = 1,
  limit = INBOX_PAGE,
): Promise<{ conversations: InboxRow[]; more: boolean }> {
  const db = await getDb();
  const rows = await sql<{
    id: number;
    status: ConversationStatus;
    started_by: number;
    other_id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar_url: string | null;
    last_body: string | null;
    last_sender: number | null;
    last_at: Date | null;
    unread: string;
    blocked: boolean;
  }>`
    select c.id, c.status, c.started_by, u.id as other_id, u.username, u.first_name, u.last_name, u.name, u.avatar_url,
      lm.body as last_body, lm.sender_id as last_sender, lm.created_at as last_at,
      (select count(*) from messages m where m.conversation_id = c.id and m.sender_id <> ${userId}
        and m.id > case when c.user_a = ${userId} then c.a_last_read_id else c.b_last_read_id end) as unread,
      exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = u.id) as blocked
    from conversations c
    join users u on u.id = case when c.user_a = ${userId} then c.user_b else c.user_a end
    left join lateral (select body, sender_id, created_at from messages m where m.conversation_id = c.id order by m.id desc limit 1) lm on true
    where (c.user_a = ${userId} or c.user_b = ${userId})
      and not (c.status = 'declined' and c.started_by <> ${userId})
    order by c.last_message_at desc, c.id desc
    limit ${limit + 1} offset ${(page - 1) * limit}`.execute(db);
  const conversations = rows.rows.slice(0, limit).map((r) => ({
    id: r.id,
    status: r.status,
    started_by_me: r.started_by === userId,
    other: {
      id: r.other_id,
      username: r.username,
      first_name: r.first_name,
      last_name: r.last_name,
      name: r.name,
      avatar: r.avatar_url,
    },
    blocked_by_me: r.blocked,
    last_message:
      r.last_body === null
        ? null
        : { body: r.last_body, mine: r.last_sender === userId, created_at: new Date(r.last_at!).toISOString() },
    unread: Number(r.unread),
    incoming_request: r.status === "request" && r.started_by !== userId,
  }));
  return { conversations, more: rows.rows.length > limit };
}

/**
 * The recipient answers a request: accept (the conversation opens for both), decline (the starter
 * can no longer write), or block (declines and blocks the starter: no new messages or requests
 * either way). Only the recipient of a pending request may do this; anyone else gets null (404).
 */
export async function answerRequest(
  userId: number,
  conversationId: number,
  answer: "accept" | "decline" | "block",
): Promise<{ ok: true; status: ConversationStatus } | null> {
  const conv = await conversationFor(userId, conversationId);
  if (!conv || conv.started_by_me) return null;
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    if (answer === "accept") {
      if (conv.status === "request" || conv.status === "declined")
        await trx.updateTable("conversations").set({ status: "accepted" }).where("id", "=", conversationId).execute();
      return { ok: true as const, status: "accepted" as const };
    }
    await trx
      .updateTable("conversations")
      .set({ status: "declined" })
      .where("id", "=", conversationId)
      .where("status", "=", "request")
      .execute();
    if (answer === "block") {
      await trx
        .insertInto("blocks")
        .values({ blocker_id: userId, blocked_id: conv.other.id })
        .onConflict((oc) => oc.columns(["blocker_id", "blocked_id"]).doNothing())
        .execute();
    }
    const row = await trx
      .selectFrom("conversations")
      .select("status")
      .where("id", "=", conversationId)
      .executeTakeFirstOrThrow();
    return { ok: true as const, status: row.status };
  });
}

/** Block or unblock another user (from a conversation or a profile). */
export async function setBlocked(userId: number, otherId: number, blocked: boolean) {
  if (userId === otherId) return;
  const db = await getDb();
  if (blocked)
    await db
      .insertInto("blocks")
      .values({ blocker_id: userId, blocked_id: otherId })
      .onConflict((oc) => oc.columns(["blocker_id", "blocked_id"]).doNothing())
      .execute();
  else await db.deleteFrom("blocks").where("blocker_id", "=", userId).where("blocked_id", "=", otherId).execute();
}
