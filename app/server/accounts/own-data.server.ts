import { sql } from "kysely";
import { forgetCards } from "../grades/card-store.server";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { checkPassword } from "./password.server";
import { retireTries } from "./retired-tries.server";
import { normalizeEmail } from "./users.server";

/**
 * "Download my data": everything the account holds about its owner, and nothing about anyone
 * else beyond ids (a conversation names the other side by user id, as its messages do).
 */
export async function exportUserData(userId: number) {
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .select([
      "id",
      "email",
      "username",
      "first_name",
      "last_name",
      "name",
      "avatar_url",
      "email_verified_at",
      "markets",
      "experience",
      "show_amounts",
      "share_trades",
      "time_zone",
      "tries_used",
      "extra_tries",
      "unlimited_until",
      "points_balance",
      "created_at",
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const accounts = await db
    .selectFrom("linked_accounts")
    .select(["id", "kind", "label", "institution_name", "status", "last_imported_at", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  const accountIds = accounts.map((a) => a.id);
  const ofAccounts = <T>(rows: () => Promise<T[]>) => (accountIds.length ? rows() : Promise.resolve([] as T[]));
  const conversations = await db
    .selectFrom("conversations")
    .select(["id", "user_a", "user_b", "started_by", "status", "created_at"])
    .where((eb) => eb.or([eb("user_a", "=", userId), eb("user_b", "=", userId)]))
    .orderBy("id")
    .execute();
  const conversationIds = conversations.map((c) => c.id);
  const [
    trades,
    cashFlows,
    ledgerEvents,
    grades,
    posts,
    likes,
    following,
    followers,
    messages,
    star,
    points,
    notifications,
    notificationSettings,
    alertSettings,
    alertSubscriptions,
  ] = await Promise.all([
    ofAccounts(() =>
      db
        .selectFrom("trades")
        .select(["linked_account_id", "time", "symbol", "asset_class", "side", "quantity", "price", "fee", "currency"])
        .where("linked_account_id", "in", accountIds)
        .orderBy("time")
        .execute(),
    ),
    ofAccounts(() =>
      db
        .selectFrom("cash_flows")
        .select(["linked_account_id", "time", "amount", "currency"])
        .where("linked_account_id", "in", accountIds)
        .orderBy("time")
        .execute(),
    ),
    ofAccounts(() =>
      db
        .selectFrom("ledger_events")
        .select(["linked_account_id", "time", "kind", "symbol", "data", "currency"])
        .where("linked_account_id", "in", accountIds)
        .orderBy("time")
        .execute(),
    ),
    db
      .selectFrom("evaluations")
      .select([
        "id",
        "created_at",
        "engine_version",
        "tier",
        "score",
        "percentile",
        "verification_code",
        "demo",
        "result",
      ])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("posts")
      .select([
        "id",
        "parent_id",
        "body",
        "evaluation_id",
        "like_count",
        "reply_count",
        "hidden_at",
        "deleted_at",
        "created_at",
      ])
      .where("author_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("post_likes")
      .select(["post_id", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("follows")
      .select(["followee_id as user_id", "created_at"])
      .where("follower_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("follows")
      .select(["follower_id as user_id", "created_at"])
      .where("followee_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    conversationIds.length
      ? db
          .selectFrom("messages")
          .select(["conversation_id", "sender_id", "body", "created_at"])
          .where("conversation_id", "in", conversationIds)
          .orderBy("id")
          .execute()
      : Promise.resolve([]),
    db
      .selectFrom("star_applications")
      .select(["bio", "strategy", "markets", "status", "created_at", "reviewed_at"])
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("points_ledger")
      .select(["amount", "reason", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("notifications")
      .select(["kind", "actor_id", "subject", "url", "data", "count", "created_at", "read_at", "emailed_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db.selectFrom("notification_settings").select(["muted", "digest"]).where("user_id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("trade_alert_settings")
      .select(["enabled", "delay", "hide_sizes", "since"])
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("trade_alert_subscriptions")
      .select(["trader_id", "created_at"])
      .where("subscriber_id", "=", userId)
      .orderBy("created_at")
      .execute(),
  ]);
  return {
    exported_at: new Date().toISOString(),
    profile: user,
    linked_accounts: accounts,
    ledger: { trades, cash_flows: cashFlows, events: ledgerEvents },
    grades,
    posts,
    likes,
    following,
    followers,
    conversations: conversations.map((c) => ({
      id: c.id,
      with_user_id: c.user_a === userId ? c.user_b : c.user_a,
      started_by_me: c.started_by === userId,
      status: c.status,
      created_at: c.created_at,
    })),
    messages: messages.map((m) => ({
      conversation_id: m.conversation_id,
      sent_by_me: m.sender_id === userId,
      body: m.body,
      created_at: m.created_at,
    })),
    star_application: star ?? null,
    points,
    notifications,
    notification_settings: notificationSettings ?? null,
    // Live trade alerts: sharing one's own trades, and the traders one gets alerts of.
    trade_alerts: { settings: alertSettings ?? null, subscriptions: alertSubscriptions },
  };
}

/** What confirms a deletion: the password, or the e-mail address for accounts without one (Google/Apple only). */
export async function deletionConfirmation(userId: number): Promise<"password" | "email"> {
  const db = await getDb();
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.password_hash ? "password" : "email";
}

/**
 * Deletes the account in one transaction after checking the confirmation. The free tries it used
 * survive only as an HMAC of the e-mail (retired_tries), so signing up again gives none back. The
 * user row's delete cascades to everything personal (sessions, identities, accounts and their
 * histories, grades, cards, posts, likes, follows, conversations, reports, billing, points);
 * what other tables keep without a key is removed or loses the user id. Other users' counters are
 * corrected first. The public grade log is untouched: its entries name a pseudonym, never the
 * user, so the hash chain stays whole. The account's cards leave this process's memory when the
 * transaction commits, and other processes' within CARD_RECHECK_MS (card-store.server.ts).
 */
export async function deleteAccount(
  userId: number,
  confirmation: string,
): Promise<{ ok: true } | { ok: false; field: "confirmation"; message: string }> {
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .select(["email", "password_hash", "tries_used"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const confirmed = user.password_hash
    ? (await checkPassword(user.password_hash, confirmation)).ok
    : normalizeEmail(confirmation) === user.email;
  if (!confirmed) {
    return {
      ok: false,
      field: "confirmation",
      message: user.password_hash ? "That is not your password." : "Type the e-mail address of this account.",
    };
  }
  const usedFree = Math.min(user.tries_used, getEnv().FREE_TRIES);
  const cards = await db.transaction().execute(async (trx) => {
    await retireTries(trx, user.email, usedFree);
    await trx
      .updateTable("users")
      .set({ followers_count: sql`greatest(followers_count - 1, 0)` })
      .where("id", "in", trx.selectFrom("follows").select("followee_id").where("follower_id", "=", userId))
      .execute();
    await trx
      .updateTable("users")
      .set({ following_count: sql`greatest(following_count - 1, 0)` })
      .where("id", "in", trx.selectFrom("follows").select("follower_id").where("followee_id", "=", userId))
      .execute();
    await trx
      .updateTable("posts")
      .set({ like_count: sql`greatest(like_count - 1, 0)` })
      .where("id", "in", trx.selectFrom("post_likes").select("post_id").where("user_id", "=", userId))
      .where("author_id", "!=", userId)
      .execute();
    await trx
      .updateTable("posts")
      .set({ reply_count: sql`greatest(reply_count - 1, 0)` })
      .where(
        "id",
        "in",
        trx
          .selectFrom("posts as r")
          .select("r.parent_id")
          .where("r.author_id", "=", userId)
          .where("r.deleted_at", "is", null)
          .where("r.parent_id", "is not", null),
      )
      .where("author_id", "!=", userId)
      .execute();
    await trx.deleteFrom("outbox").where("to_email", "=", user.email).execute();
    await trx
      .deleteFrom("contact_messages")
      .where((eb) => eb.or([eb("user_id", "=", userId), eb("email", "=", user.email)]))
      .execute();
    await trx.deleteFrom("pass_grants").where("user_id", "=", userId).execute();
    // page_views and referrals keep their rows without the user (ON DELETE SET NULL).
    const cards = await trx.selectFrom("cards").select("hash").where("user_id", "=", userId).execute();
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    return cards;
  });
  forgetCards(cards.map((c) => c.hash));
  return { ok: true };
}
