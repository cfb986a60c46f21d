import crypto from "node:crypto";
import { sql } from "kysely";
import webpush, { WebPushError, type PushSubscription } from "web-push";
import { z } from "zod";
import { displayName } from "~/lib/display-name";
import { notificationText, type NotificationKind } from "~/lib/notifications";
import type { Refusal } from "~/lib/refusal";
import { decryptSecret, encryptSecret } from "../platform/crypto.server";
import { getDb, type DB } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { enqueue } from "../platform/jobs.server";
import { log } from "../platform/log.server";

/**
 * Web Push (issue 34 point 5, DECISIONS 191). A browser subscribes through the Push API and posts its
 * subscription here; notify() queues a `push` job on the action's own transaction for the recipients
 * who chose the kind for push and have a subscribed browser; the job sends each one through the
 * `web-push` library (VAPID, aes128gcm), forgetting subscriptions the push service says are gone.
 */

type VapidKeys = { publicKey: string; privateKey: string };
let keys: Promise<VapidKeys> | undefined;

/** The VAPID pair: the environment's, or the one generated once for the cluster and kept sealed in the database. */
export function vapidKeys(): Promise<VapidKeys> {
  return (keys ??= loadKeys().catch((e) => {
    keys = undefined;
    throw e;
  }));
}

async function loadKeys(): Promise<VapidKeys> {
  const env = getEnv();
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY)
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  const db = await getDb();
  const made = webpush.generateVAPIDKeys();
  // Two processes racing both insert; the first row wins and both read it.
  await db
    .insertInto("vapid_keys")
    .values({ id: 1, public_key: made.publicKey, private_sealed: encryptSecret(made.privateKey) })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const row = await db
    .selectFrom("vapid_keys")
    .select(["public_key", "private_sealed"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  if (row.public_key === made.publicKey) log("info", "generated a VAPID key pair for Web Push");
  return { publicKey: row.public_key, privateKey: decryptSecret(row.private_sealed) };
}

/** For tests that change the environment between cases. */
export function forgetVapidKeys(): void {
  keys = undefined;
}

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url")
    .refine((v) => Buffer.from(v, "base64url").length === bytes, `must decode to ${bytes} bytes`);

/** What PushSubscription.toJSON() gives (expirationTime is ignored: the push service says when one is gone). */
export const PushSubscriptionInput = z.object({
  endpoint: z
    .string({ required_error: "endpoint is required" })
    .max(2048, "endpoint is too long")
    .url("endpoint must be a URL")
    .refine((u) => u.startsWith("https://"), "endpoint must be an https:// URL"),
  keys: z.object(
    { p256dh: base64url(65), auth: base64url(16) },
    { required_error: "keys is required", invalid_type_error: "keys must be an object" },
  ),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** A browser's subscriptions per user; past it the oldest is forgotten. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

/** Saves this browser's subscription for the user (a browser signed in as someone else moves to them). */
export async function savePushSubscription(userId: number, input: PushSubscriptionInput): Promise<{ ok: true }> {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("push_subscriptions")
      .values({ user_id: userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
      .onConflict((oc) =>
        oc.column("endpoint").doUpdateSet({
          user_id: userId,
          p256dh: input.keys.p256dh,
          auth: input.keys.auth,
          created_at: sql`now()`,
        }),
      )
      .execute();
    await sql`
      delete from push_subscriptions where user_id = ${userId} and id not in (
        select id from push_subscriptions where user_id = ${userId} order by created_at desc, id desc limit ${MAX_PUSH_SUBSCRIPTIONS})`.execute(
      trx,
    );
  });
  return { ok: true };
}

/** Forgets one of the user's subscriptions (another user's endpoint is not theirs to remove). */
export async function deletePushSubscription(userId: number, endpoint: string): Promise<{ ok: true } | Refusal<404>> {
  const db = await getDb();
  const gone = await db
    .deleteFrom("push_subscriptions")
    .where("user_id", "=", userId)
    .where("endpoint", "=", endpoint)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0)
    return { ok: false, status: 404, message: "This browser is not subscribed to your notifications." };
  return { ok: true };
}

export async function pushSubscriptionCount(userId: number): Promise<number> {
  const db = await getDb();
  const row = await db
    .selectFrom("push_subscriptions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Recipients per push job: a trader with many followers fans out over several jobs. */
const PUSH_BATCH = 200;

/**
 * Called by notify() on the action's transaction: queues the push of this notification to those of
 * `to` who chose its kind for push and have a subscribed browser (the notification rows are already
 * written, so a muted kind or a block has left no row and nothing is pushed).
 */
export async function queuePush(trx: DB, to: number[], kind: NotificationKind, subject: string): Promise<void> {
  const rows = await sql<{ user_id: number }>`
    select s.user_id from notification_settings s
    where s.user_id = any(${sql.val(to)}::int[]) and ${kind} = any(s.push)
      and exists (select 1 from push_subscriptions p where p.user_id = s.user_id)`.execute(trx);
  const users = rows.rows.map((r) => r.user_id);
  for (let i = 0; i < users.length; i += PUSH_BATCH)
    await enqueue(trx, "push", { kind, subject, userIds: users.slice(i, i + PUSH_BATCH) });
}

/** What a push carries (public/sw.js shows it). */
export type PushPayload = { title: string; body: string; url: string; tag: string };

/** The job: each recipient's unread notification of this kind and subject, to each of their browsers. */
export async function pushJob(data: { kind: NotificationKind; subject: string; userIds: number[] }): Promise<void> {
  const db = await getDb();
  const rows = await db
    .selectFrom("notifications as n")
    .innerJoin("push_subscriptions as p", "p.user_id", "n.user_id")
    .leftJoin("users as a", "a.id", "n.actor_id")
    .select([
      "n.id",
      "n.user_id",
      "n.kind",
      "n.url",
      "n.count",
      "n.data",
      "p.id as subscription_id",
      "p.endpoint",
      "p.p256dh",
      "p.auth",
      "a.username",
      "a.first_name",
      "a.last_name",
      "a.name",
    ])
    .where("n.user_id", "in", data.userIds.length ? data.userIds : [0])
    .where("n.kind", "=", data.kind)
    .where("n.subject", "=", data.subject)
    .where("n.read_at", "is", null)
    .execute();
  if (!rows.length) return;
  const { publicKey, privateKey } = await vapidKeys();
  const env = getEnv();
  const vapidDetails = { subject: env.VAPID_SUBJECT ?? `mailto:${env.SUPPORT_EMAIL}`, publicKey, privateKey };
  for (const row of rows) {
    const actor = row.username || row.first_name || row.name ? displayName(row) : null;
    const payload: PushPayload = {
      title: "Grader",
      body: notificationText({ kind: row.kind, count: Number(row.count), actor, data: row.data ?? {} }),
      url: row.url,
      // One notification per row on the device: a new message in the same conversation replaces the last.
      tag: `n${crypto.createHash("sha256").update(`${row.kind}:${data.subject}`).digest("hex").slice(0, 16)}`,
    };
    const subscription: PushSubscription = { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } };
    try {
      await webpush.sendNotification(subscription, JSON.stringify(payload), {
        vapidDetails,
        TTL: 24 * 3600,
        urgency: data.kind === "message" ? "high" : "normal",
        timeout: 10_000,
      });
      await db
        .updateTable("push_subscriptions")
        .set({ last_sent_at: sql`now()` })
        .where("id", "=", row.subscription_id)
        .execute();
    } catch (e) {
      // 404/410: the browser unsubscribed or the subscription expired; it will never work again.
      if (e instanceof WebPushError && (e.statusCode === 404 || e.statusCode === 410)) {
        await db.deleteFrom("push_subscriptions").where("id", "=", row.subscription_id).execute();
        log("info", "push subscription gone", { userId: row.user_id, status: e.statusCode });
      } else {
        // A push is a courtesy on top of the bell and the digest: one failure is logged, not retried.
        const status = e instanceof WebPushError ? e.statusCode : undefined;
        log("error", "push failed", { userId: row.user_id, status, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}
