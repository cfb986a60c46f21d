import { sql } from "kysely";
import { displayName } from "~/lib/display-name";
import {
  DIGEST_PERIOD_MS,
  digestText,
  notificationText,
  type DigestFrequency,
  type NotificationKind,
} from "~/lib/notifications";
import type { Paging } from "~/lib/paging";
import { getDb, type DB } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { pruneLiveEvents, raiseLiveEach } from "../platform/live.server";
import { log } from "../platform/log.server";
import { enqueueMail } from "../platform/mail.server";
import { queuePush } from "./push.server";
import { pagingSchema } from "~/lib/paging";

/**
 * Notifications (docs/DECISIONS.md 97). Services call notify() on the transaction of the action
 * itself, so a rolled-back action never notifies and a committed one always has its row. Nobody is
 * told about their own action, about kinds they turned off, or about what someone they blocked did.
 */
export type NotifyInput = {
  /** One recipient, or several (a trader's followers). */
  to: number | number[];
  kind: NotificationKind;
  actorId: number | null;
  /** What the event is about ("conversation:12", "post:40"): unread rows of one kind and subject merge. */
  subject: string;
  /** Where the notification leads, a path on this site. */
  url: string;
  data?: Record<string, unknown>;
};

export async function notify(trx: DB, input: NotifyInput): Promise<void> {
  const to = (Array.isArray(input.to) ? input.to : [input.to]).filter((id) => id !== input.actorId);
  if (to.length === 0) return;
  const told = await sql<{ user_id: number }>`
    insert into notifications (user_id, kind, actor_id, subject, url, data)
    select r.id, ${input.kind}, ${input.actorId}, ${input.subject}, ${input.url}, ${JSON.stringify(input.data ?? {})}::jsonb
    from unnest(${sql.val(to)}::int[]) as r(id)
    where not exists (select 1 from notification_settings s where s.user_id = r.id and ${input.kind} = any(s.muted))
      and not exists (select 1 from blocks b where b.blocker_id = r.id and b.blocked_id = ${input.actorId}::int)
    on conflict (user_id, kind, subject) where read_at is null
    do update set count = notifications.count + 1, actor_id = excluded.actor_id, url = excluded.url, data = excluded.data, created_at = now()
    returning user_id`.execute(trx);
  // Only those actually told (not muted, not blocked) may get a push.
  if (told.rows.length)
    await queuePush(
      trx,
      told.rows.map((r) => r.user_id),
      input.kind,
      input.subject,
    );
  await raiseUnread(
    trx,
    told.rows.map((r) => r.user_id),
  );
}

/** The live channel's "unread" event with each user's count as this transaction sees it. */
async function raiseUnread(db: DB, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const counts = await sql<{ id: number; n: string }>`
    select u.id, (select count(*) from notifications n where n.user_id = u.id and n.read_at is null) as n
    from unnest(${sql.val([...new Set(userIds)])}::int[]) as u(id)`.execute(db);
  await raiseLiveEach(
    db,
    "unread",
    counts.rows.map((r) => ({ userId: r.id, data: { notifications: Number(r.n) } })),
  );
}

export type NotificationView = {
  id: string;
  kind: NotificationKind;
  text: string;
  url: string;
  count: number;
  actor: { id: number; name: string; username: string | null; avatar: string | null } | null;
  data: Record<string, unknown>;
  created_at: string;
  read: boolean;
};

export const NOTIFICATION_SORTS = ["created_at"] as const;
/** The list is newest first, always: `order` is accepted only as desc. */
export const NOTIFICATIONS_QUERY = pagingSchema(NOTIFICATION_SORTS, { sort_by: "created_at", order: "desc" });

/** The caller's own notifications, newest first, paged; meta carries the unread count. */
export async function listNotifications(userId: number, paging: Pick<Paging<string>, "page" | "page_size">) {
  const db = await getDb();
  const [rows, counts] = await Promise.all([
    db
      .selectFrom("notifications")
      .leftJoin("users", "users.id", "notifications.actor_id")
      .select([
        "notifications.id",
        "notifications.kind",
        "notifications.url",
        "notifications.count",
        "notifications.data",
        "notifications.created_at",
        "notifications.read_at",
        "notifications.actor_id",
        "users.username",
        "users.first_name",
        "users.last_name",
        "users.name",
        "users.avatar_url",
      ])
      .where("notifications.user_id", "=", userId)
      .orderBy("notifications.created_at", "desc")
      .orderBy("notifications.id", "desc")
      .limit(paging.page_size)
      .offset((paging.page - 1) * paging.page_size)
      .execute(),
    db
      .selectFrom("notifications")
      .select((eb) => [
        eb.fn.countAll<string>().as("total"),
        sql<string>`count(*) filter (where read_at is null)`.as("unread"),
      ])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  const data: NotificationView[] = rows.map((r) => {
    const name = r.actor_id === null ? null : displayName(r) || "Trader";
    const data = (typeof r.data === "string" ? JSON.parse(r.data) : r.data) as Record<string, unknown>;
    return {
      id: String(r.id),
      kind: r.kind,
      text: notificationText({ kind: r.kind, count: r.count, actor: name, data }),
      url: r.url,
      count: r.count,
      actor: r.actor_id === null ? null : { id: r.actor_id, name: name!, username: r.username, avatar: r.avatar_url },
      data,
      created_at: new Date(r.created_at).toISOString(),
      read: r.read_at !== null,
    };
  });
  return {
    data,
    meta: {
      page: paging.page,
      page_size: paging.page_size,
      total: Number(counts.total),
      unread: Number(counts.unread),
    },
  };
}

/** Marks one of the caller's notifications read; its link, or null when it is not theirs. */
export async function markRead(userId: number, id: string): Promise<string | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("notifications")
      .set({ read_at: sql`coalesce(read_at, now())` })
      .where("id", "=", id as never)
      .where("user_id", "=", userId)
      .returning("url")
      .executeTakeFirst();
    if (row) await raiseUnread(trx, [userId]);
    return row?.url ?? null;
  });
}

export async function markAllRead(userId: number): Promise<number> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("notifications")
      .set({ read_at: sql`now()` })
      .where("user_id", "=", userId)
      .where("read_at", "is", null)
      .executeTakeFirst();
    const n = Number(result.numUpdatedRows);
    // The user's other tabs clear their bells.
    if (n) await raiseUnread(trx, [userId]);
    return n;
  });
}

/** Reading what a notification is about (an open conversation) reads the notification too. */
export async function markSubjectRead(db: DB, userId: number, subject: string): Promise<void> {
  const result = await db
    .updateTable("notifications")
    .set({ read_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("subject", "=", subject)
    .where("read_at", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows)) await raiseUnread(db, [userId]);
}

export type NotificationSettings = { muted: NotificationKind[]; push: NotificationKind[]; digest: DigestFrequency };

export async function getNotificationSettings(userId: number): Promise<NotificationSettings> {
  const db = await getDb();
  const row = await db
    .selectFrom("notification_settings")
    .select(["muted", "push", "digest"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return { muted: row?.muted ?? [], push: row?.push ?? [], digest: row?.digest ?? "off" };
}

export async function saveNotificationSettings(userId: number, settings: NotificationSettings): Promise<void> {
  const db = await getDb();
  await db
    .insertInto("notification_settings")
    .values({ user_id: userId, muted: settings.muted, push: settings.push, digest: settings.digest })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({ muted: settings.muted, push: settings.push, digest: settings.digest }),
    )
    .execute();
}

// ---- The e-mail digest -------------------------------------------------------------------------

const DIGEST_MAX_ITEMS = 20;

/**
 * Sends the digests that are due at `now`: to each verified user with a digest on, whose last
 * digest is older than its period and who has unread notifications not e-mailed yet. Each user is
 * one short transaction that claims their settings row (SKIP LOCKED), queues the mail in the outbox
 * and marks the rows e-mailed, so two processes running the job at once never send one twice.
 */
export async function sendDueDigests(now = new Date()): Promise<number> {
  const db = await getDb();
  const candidates = await db
    .selectFrom("notification_settings")
    .innerJoin("users", "users.id", "notification_settings.user_id")
    .select(["notification_settings.user_id", "notification_settings.digest"])
    .where("notification_settings.digest", "<>", "off")
    .where("users.email_verified_at", "is not", null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("notifications")
          .select("notifications.id")
          .whereRef("notifications.user_id", "=", "notification_settings.user_id")
          .where("notifications.read_at", "is", null)
          .where("notifications.emailed_at", "is", null),
      ),
    )
    .execute();
  let sent = 0;
  for (const c of candidates) {
    if (c.digest === "off") continue;
    const frequency = c.digest;
    const due = new Date(now.getTime() - DIGEST_PERIOD_MS[frequency]);
    const done = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .selectFrom("notification_settings")
        .innerJoin("users", "users.id", "notification_settings.user_id")
        .select(["users.email"])
        .where("notification_settings.user_id", "=", c.user_id)
        .where("notification_settings.digest", "=", frequency)
        .where((eb) =>
          eb.or([
            eb("notification_settings.last_digest_at", "is", null),
            eb("notification_settings.last_digest_at", "<=", due),
          ]),
        )
        .forUpdate("notification_settings")
        .skipLocked()
        .executeTakeFirst();
      if (!claimed) return false;
      const rows = await trx
        .selectFrom("notifications")
        .leftJoin("users", "users.id", "notifications.actor_id")
        .select([
          "notifications.id",
          "notifications.kind",
          "notifications.count",
          "notifications.url",
          "notifications.data",
          "notifications.actor_id",
          "users.username",
          "users.first_name",
          "users.last_name",
          "users.name",
        ])
        .where("notifications.user_id", "=", c.user_id)
        .where("notifications.read_at", "is", null)
        .where("notifications.emailed_at", "is", null)
        .orderBy("notifications.created_at", "desc")
        .limit(DIGEST_MAX_ITEMS)
        .execute();
      if (rows.length === 0) return false;
      const items = rows.map((r) => ({
        text: notificationText({
          kind: r.kind,
          count: r.count,
          actor: r.actor_id === null ? null : displayName(r) || "Trader",
          data: (typeof r.data === "string" ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
        }),
        url: r.url,
      }));
      const mail = digestText(items, getEnv().PUBLIC_URL, frequency);
      await enqueueMail({ to: claimed.email, ...mail }, trx);
      await trx
        .updateTable("notifications")
        .set({ emailed_at: now })
        .where("user_id", "=", c.user_id)
        .where("read_at", "is", null)
        .where("emailed_at", "is", null)
        .execute();
      await trx
        .updateTable("notification_settings")
        .set({ last_digest_at: now })
        .where("user_id", "=", c.user_id)
        .execute();
      return true;
    });
    if (done) sent++;
  }
  return sent;
}

/** The digest as a job, on pg-boss's clock every 15 minutes, once per cluster (jobs.server.ts). */
export async function digestJob(): Promise<void> {
  const sent = await sendDueDigests();
  if (sent) log("info", "notification digests queued", { sent });
  // The live channel's replay window ends here too: on the same clock, once per cluster.
  const pruned = await pruneLiveEvents();
  if (pruned) log("info", "live events pruned", { pruned });
}
