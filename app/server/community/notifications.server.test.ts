import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The notifications module in process, on an in-memory PGlite (or DATABASE_URL's PostgreSQL).
process.env.DATA_DIR = "memory://";

const { closeDb, getDb, migrateToLatest } = await import("../platform/db.server");
const n = await import("./notifications.server");

type Db = Awaited<ReturnType<typeof getDb>>;
let db: Db;
let seq = 0;
const tag = Date.now().toString(36);

async function user(opts: { verified?: boolean; first?: string } = {}) {
  const row = await db
    .insertInto("users")
    .values({
      email: `n${tag}${seq++}@example.com`,
      first_name: opts.first ?? null,
      email_verified_at: opts.verified ? new Date() : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const send = (input: Parameters<typeof n.notify>[1]) => db.transaction().execute((trx) => n.notify(trx, input));
const first = { page: 1, page_size: 20 };
const unread = async (userId: number) => (await n.listNotifications(userId, first)).meta.unread;

beforeAll(async () => {
  await migrateToLatest();
  db = await getDb();
}, 120_000);

afterAll(async () => {
  await closeDb();
});

describe("notify", () => {
  it("tells the recipient, with the actor's name, and never the actor", async () => {
    const [me, ann] = [await user(), await user({ first: "Ann" })];
    await send({ to: [me, ann], kind: "follow", actorId: ann, subject: `user:${ann}`, url: `/u/${ann}` });
    const mine = await n.listNotifications(me, first);
    expect(mine.data.map((x) => [x.kind, x.text, x.url, x.read, x.actor?.id])).toEqual([
      ["follow", "Ann started following you", `/u/${ann}`, false, ann],
    ]);
    expect(mine.meta).toEqual({ page: 1, page_size: 20, total: 1, unread: 1 });
    expect((await n.listNotifications(ann, first)).data).toEqual([]);
  });

  it("merges unread events on one subject, and starts a new row once read", async () => {
    const [me, bo] = [await user(), await user({ first: "Bo" })];
    for (let i = 0; i < 3; i++)
      await send({ to: me, kind: "message", actorId: bo, subject: "conversation:1", url: "/messages/1/reply" });
    let list = await n.listNotifications(me, first);
    expect(list.data.map((x) => [x.count, x.text])).toEqual([[3, "Bo sent you 3 messages"]]);
    await n.markAllRead(me);
    await send({ to: me, kind: "message", actorId: bo, subject: "conversation:1", url: "/messages/1/reply" });
    list = await n.listNotifications(me, first);
    expect(list.data.map((x) => [x.count, x.read])).toEqual([
      [1, false],
      [3, true],
    ]);
    expect(list.meta.unread).toBe(1);
  });

  it("leaves out muted kinds and actors the recipient blocked", async () => {
    const [me, cy, dee] = [await user(), await user(), await user()];
    await n.saveNotificationSettings(me, { muted: ["like"], push: [], digest: "off" });
    await db.insertInto("blocks").values({ blocker_id: me, blocked_id: dee }).execute();
    await send({ to: me, kind: "like", actorId: cy, subject: "post:1", url: "/posts/1" });
    await send({ to: me, kind: "follow", actorId: dee, subject: `user:${dee}`, url: `/u/${dee}` });
    expect(await unread(me)).toBe(0);
    await send({ to: me, kind: "follow", actorId: cy, subject: `user:${cy}`, url: `/u/${cy}` });
    expect(await unread(me)).toBe(1);
  });

  it("writes nothing when the action's transaction rolls back", async () => {
    const [me, eve] = [await user(), await user()];
    await expect(
      db.transaction().execute(async (trx) => {
        await n.notify(trx, { to: me, kind: "follow", actorId: eve, subject: `user:${eve}`, url: `/u/${eve}` });
        throw new Error("the action failed");
      }),
    ).rejects.toThrow("the action failed");
    expect(await unread(me)).toBe(0);
  });
});

describe("reading", () => {
  it("marks only the caller's own notifications read", async () => {
    const [me, other, actor] = [await user(), await user(), await user()];
    await send({ to: [me, other], kind: "follow", actorId: actor, subject: `user:${actor}`, url: `/u/${actor}` });
    const theirs = (await n.listNotifications(other, first)).data[0]!.id;
    expect(await n.markRead(me, theirs)).toBeNull();
    expect(await n.markRead(me, "not-a-number")).toBeNull();
    expect(await unread(other)).toBe(1);
    const mine = (await n.listNotifications(me, first)).data[0]!.id;
    expect(await n.markRead(me, mine)).toBe(`/u/${actor}`);
    expect(await unread(me)).toBe(0);
  });

  it("pages newest first", async () => {
    const [me, ...actors] = [await user(), await user(), await user(), await user()];
    for (const a of actors) await send({ to: me, kind: "follow", actorId: a, subject: `user:${a}`, url: `/u/${a}` });
    const p1 = await n.listNotifications(me, { page: 1, page_size: 2 });
    const p2 = await n.listNotifications(me, { page: 2, page_size: 2 });
    expect([...p1.data, ...p2.data].map((x) => x.actor?.id)).toEqual([...actors].reverse());
    expect(p2.meta).toEqual({ page: 2, page_size: 2, total: 3, unread: 3 });
  });
});

describe("the e-mail digest", () => {
  it("sends a due digest once, through the outbox, to verified users only", async () => {
    const [me, unverified, actor] = [await user({ verified: true }), await user(), await user({ first: "Fay" })];
    await n.saveNotificationSettings(me, { muted: [], push: [], digest: "daily" });
    await n.saveNotificationSettings(unverified, { muted: [], push: [], digest: "daily" });
    await send({ to: [me, unverified], kind: "follow", actorId: actor, subject: `user:${actor}`, url: `/u/${actor}` });
    const outbox = async () => {
      const emails = (await db.selectFrom("users").select("email").where("id", "in", [me, unverified]).execute()).map(
        (r) => r.email,
      );
      return db
        .selectFrom("outbox")
        .select(["to_email", "subject", "text"])
        .where("to_email", "in", emails)
        .orderBy("id")
        .execute();
    };
    const t0 = new Date();
    await n.sendDueDigests(t0);
    let mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Grader: 1 unread notification");
    expect(mails[0]!.text).toContain(`Fay started following you`);
    expect(mails[0]!.text).toContain(`/u/${actor}`);
    // Nothing new, or not yet a day later: no second mail.
    await n.sendDueDigests(t0);
    await send({ to: me, kind: "like", actorId: actor, subject: "post:9", url: "/posts/9" });
    await n.sendDueDigests(new Date(t0.getTime() + 3600_000));
    expect(await outbox()).toHaveLength(1);
    // A day later the new one (and only it) goes out.
    await n.sendDueDigests(new Date(t0.getTime() + 25 * 3600_000));
    mails = await outbox();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain("Fay liked your post");
    expect(mails[1]!.text).not.toContain("started following");
  });

  it("sends nothing with the digest off", async () => {
    const [me, actor] = [await user({ verified: true }), await user()];
    await send({ to: me, kind: "follow", actorId: actor, subject: `user:${actor}`, url: `/u/${actor}` });
    const email = (await db.selectFrom("users").select("email").where("id", "=", me).executeTakeFirstOrThrow()).email;
    await n.sendDueDigests(new Date());
    expect(await db.selectFrom("outbox").select("id").where("to_email", "=", email).execute()).toEqual([]);
  });
});
