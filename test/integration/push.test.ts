import crypto from "node:crypto";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushHandlers, type ReceivedPush } from "../mocks/push";
import { ownDatabase } from "../support/server";

// Web Push end to end in one process: a follow notifies on its transaction, which queues a push
// job for the recipient who chose "follow" for push; the job's worker sends it through web-push to
// the push service's simulator, which checks VAPID and keeps the encrypted body; the test decrypts
// it as the browser would, with the subscription's private key. Gone subscriptions are forgotten;
// muted kinds, kinds not chosen for push and blocked actors push nothing.

const own = await ownDatabase();
const dataDir = own.DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), "grader-push-"));
if (own.DATABASE_URL) process.env.DATABASE_URL = own.DATABASE_URL;
else {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir!;
}
const { closeDb, getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { startJobs, stopJobs, wake } = await import("~/server/platform/jobs.server");
const { follow } = await import("~/server/community/follows.server");
const { saveNotificationSettings } = await import("~/server/community/notifications.server");
const { pushJob, savePushSubscription, vapidKeys, MAX_PUSH_SUBSCRIPTIONS } =
  await import("~/server/community/push.server");
// http_ece is web-push's own payload codec (RFC 8188/8291): the browser's side of the encryption.
const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(body: Buffer, params: { version: string; privateKey: crypto.ECDH; authSecret: string }): Buffer;
};

const inbox: ReceivedPush[] = [];
const msw = setupServer(...pushHandlers(inbox));

type Browser = { endpoint: string; ecdh: crypto.ECDH; auth: string };

/** A browser's push subscription: its own P-256 key pair and auth secret, as PushManager makes them. */
function browser(endpoint: string): Browser {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return { endpoint, ecdh, auth: crypto.randomBytes(16).toString("base64url") };
}
const subscription = (b: Browser) => ({
  endpoint: b.endpoint,
  keys: { p256dh: b.ecdh.getPublicKey().toString("base64url"), auth: b.auth },
});

async function user(name: string): Promise<number> {
  const db = await getDb();
  return (
    await db
      .insertInto("users")
      .values({
        email: `push-${name.toLowerCase()}-${crypto.randomUUID()}@example.com`,
        first_name: name,
        last_name: "Push",
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function pushJobsQueued(): Promise<number> {
  const db = await getDb();
  const { rows } = await import("kysely").then(({ sql }) =>
    sql<{ n: string }>`select count(*) as n from pgboss.job where name = 'push'`.execute(db),
  );
  return Number(rows[0]!.n);
}

/** Waits until the inbox holds `n` pushes (the worker polls every JOB_POLL_SECONDS; wake() skips the wait). */
async function delivered(n: number): Promise<void> {
  wake("push");
  for (let i = 0; i < 200 && inbox.length < n; i++) await new Promise((r) => setTimeout(r, 50));
  expect(inbox.length).toBe(n);
}

let ann: number, bob: number, cy: number, dee: number;
let annPhone: Browser;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "error" });
  await migrateToLatest();
  [ann, bob, cy, dee] = await Promise.all([user("Ann"), user("Bob"), user("Cy"), user("Dee")]);
  annPhone = browser(`https://fcm.googleapis.com/fcm/send/ann-${crypto.randomUUID()}`);
  await savePushSubscription(ann, subscription(annPhone));
  await saveNotificationSettings(ann, { muted: ["like"], push: ["follow"], digest: "off" });
  await startJobs({ push: pushJob });
}, 120_000);

afterAll(async () => {
  await stopJobs(5_000);
  msw.close();
  await closeDb();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a notification pushed to a subscribed browser", () => {
  it("arrives encrypted for that browser alone, signed with the server's VAPID key, and reads as the bell does", async () => {
    expect((await follow(bob, ann)).ok).toBe(true);
    await delivered(1);
    const push = inbox[0]!;
    expect(push.endpoint).toBe(annPhone.endpoint);
    expect(push.vapidKey).toBe((await vapidKeys()).publicKey);
    expect(push.claims.aud).toBe("https://fcm.googleapis.com");
    expect(push.claims.sub).toMatch(/^mailto:/);
    expect(push.ttl).toBeGreaterThan(0);
    const payload = JSON.parse(
      ece.decrypt(push.body, { version: "aes128gcm", privateKey: annPhone.ecdh, authSecret: annPhone.auth }).toString(),
    );
    expect(payload).toMatchObject({ title: "Grader", body: "Bob Push started following you", url: `/u/${bob}` });
    // Another browser's key cannot read it.
    const other = browser("https://fcm.googleapis.com/fcm/send/x");
    expect(() =>
      ece.decrypt(push.body, { version: "aes128gcm", privateKey: other.ecdh, authSecret: other.auth }),
    ).toThrow();
  });

  it("pushes nothing for a kind not chosen for push, a muted kind, or an actor the recipient blocked", async () => {
    const db = await getDb();
    const before = await pushJobsQueued();
    // Ann chose push for follows only: a message request is in the bell, not pushed.
    const { notify } = await import("~/server/community/notifications.server");
    await db
      .transaction()
      .execute((trx) =>
        notify(trx, { to: ann, kind: "message_request", actorId: cy, subject: `conversation:${cy}`, url: "/messages" }),
      );
    await db
      .transaction()
      .execute((trx) => notify(trx, { to: ann, kind: "like", actorId: cy, subject: "post:1", url: "/posts/1" }));
    await db.insertInto("blocks").values({ blocker_id: ann, blocked_id: dee }).execute();
    expect((await follow(dee, ann)).ok).toBe(true);
    expect(await pushJobsQueued()).toBe(before);
    // Cy's follow is pushed: the queue still works.
    expect((await follow(cy, ann)).ok).toBe(true);
    expect(await pushJobsQueued()).toBe(before + 1);
    await delivered(2);
  });

  it("forgets a subscription the push service says is gone, and keeps the others", async () => {
    const eve = await user("Eve");
    const gone = browser(`https://updates.push.services.mozilla.com/wpush/v2/gone-${crypto.randomUUID()}`);
    const laptop = browser(`https://web.push.apple.com/eve-${crypto.randomUUID()}`);
    await savePushSubscription(eve, subscription(gone));
    await savePushSubscription(eve, subscription(laptop));
    await saveNotificationSettings(eve, { muted: [], push: ["follow"], digest: "off" });
    const n = inbox.length;
    expect((await follow(bob, eve)).ok).toBe(true);
    await delivered(n + 1);
    expect(inbox.at(-1)!.endpoint).toBe(laptop.endpoint);
    const db = await getDb();
    const left = async () =>
      (await db.selectFrom("push_subscriptions").select("endpoint").where("user_id", "=", eve).execute()).map(
        (r) => r.endpoint,
      );
    // The job may send to the laptop before it hears the 410.
    for (let i = 0; i < 100 && (await left()).length > 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await left()).toEqual([laptop.endpoint]);
  });

  it("moves a browser to whoever subscribes it last, and keeps a user's newest browsers only", async () => {
    const db = await getDb();
    await savePushSubscription(bob, subscription(annPhone));
    const owner = await db
      .selectFrom("push_subscriptions")
      .select("user_id")
      .where("endpoint", "=", annPhone.endpoint)
      .executeTakeFirstOrThrow();
    expect(owner.user_id).toBe(bob);
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_PUSH_SUBSCRIPTIONS + 2; i++) {
      const b = browser(`https://fcm.googleapis.com/fcm/send/cy-${i}-${crypto.randomUUID()}`);
      endpoints.push(b.endpoint);
      await savePushSubscription(cy, subscription(b));
    }
    const kept = await db.selectFrom("push_subscriptions").select("endpoint").where("user_id", "=", cy).execute();
    expect(kept.map((r) => r.endpoint).sort()).toEqual(endpoints.slice(-MAX_PUSH_SUBSCRIPTIONS).sort());
  });
});
