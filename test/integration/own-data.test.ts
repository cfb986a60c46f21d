import { beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";

// "Download my data" and "Delete my account": in-process against the domain module (messages,
// follows, tries), and over HTTP against the built server (forms, sessions).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const own = await import("~/server/accounts/own-data.server");
const { createUser } = await import("~/server/accounts/users.server");

let seq = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${seq++}@example.com`;

beforeAll(async () => {
  await migrateToLatest();
});

async function world() {
  const db = await getDb();
  const a = (await createUser({ email: email("a"), password: "correct horse battery" }))!.id;
  const b = (await createUser({ email: email("b"), password: "correct horse battery" }))!.id;
  const c = (await createUser({ email: email("c"), password: "correct horse battery" }))!.id;
  const pair = (x: number, y: number) => ({ user_a: Math.min(x, y), user_b: Math.max(x, y) });
  const ab = await db
    .insertInto("conversations")
    .values({ ...pair(a, b), started_by: a, status: "accepted" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const bc = await db
    .insertInto("conversations")
    .values({ ...pair(b, c), started_by: b, status: "accepted" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("messages")
    .values([
      { conversation_id: ab.id, sender_id: a, body: "hi from a" },
      { conversation_id: ab.id, sender_id: b, body: "hi back from b" },
      { conversation_id: bc.id, sender_id: b, body: "secret between b and c" },
    ])
    .execute();
  await db
    .insertInto("follows")
    .values([
      { follower_id: a, followee_id: b },
      { follower_id: c, followee_id: a },
    ])
    .execute();
  await db.updateTable("users").set({ followers_count: 1 }).where("id", "in", [a, b]).execute();
  await db.updateTable("users").set({ following_count: 1 }).where("id", "in", [a, c]).execute();
  const bPost = await db
    .insertInto("posts")
    .values({ author_id: b, body: "b's post" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("posts")
    .values({ author_id: a, body: "a's reply", parent_id: bPost.id, root_id: bPost.id })
    .execute();
  await db.updateTable("posts").set({ reply_count: 1, like_count: 1 }).where("id", "=", bPost.id).execute();
  await db.insertInto("post_likes").values({ user_id: a, post_id: bPost.id }).execute();
  await db.insertInto("posts").values({ author_id: c, body: "c's post" }).execute();
  await db
    .insertInto("notifications")
    .values([
      { user_id: a, kind: "follow", actor_id: c, subject: `follow:${c}`, url: `/u/${c}` },
      { user_id: b, kind: "follow", actor_id: a, subject: `follow:${a}`, url: `/u/${a}` },
    ])
    .execute();
  return { a, b, c, bPost: bPost.id, ab: ab.id };
}

describe("Download my data", () => {
  it("holds the user's own profile, posts, follows and the messages they sent and received, nothing of others' conversations", async () => {
    const w = await world();
    const data = await own.exportUserData(w.a);
    const text = JSON.stringify(data);
    expect(data.profile.id).toBe(w.a);
    expect(text).not.toContain("password_hash");
    expect(data.posts.map((p) => p.body)).toEqual(["a's reply"]);
    expect(data.messages.map((m) => [m.body, m.sent_by_me])).toEqual([
      ["hi from a", true],
      ["hi back from b", false],
    ]);
    expect(text).not.toContain("secret between b and c");
    expect(text).not.toContain("c's post");
    expect(data.following.map((f) => f.user_id)).toEqual([w.b]);
    expect(data.followers.map((f) => f.user_id)).toEqual([w.c]);
    expect(data.likes.map((l) => String(l.post_id))).toEqual([String(w.bPost)]);
    expect(data.notifications.map((n) => [n.kind, n.actor_id])).toEqual([["follow", w.c]]);
  });
});

describe("Delete my account", () => {
  it("refuses a wrong password and changes nothing", async () => {
    const w = await world();
    expect(await own.deleteAccount(w.a, "wrong password")).toMatchObject({ ok: false, field: "confirmation" });
    const db = await getDb();
    expect(await db.selectFrom("users").select("id").where("id", "=", w.a).executeTakeFirst()).toBeDefined();
    expect((await own.exportUserData(w.a)).messages).toHaveLength(2);
  });

  it("removes everything personal at once, corrects the others' counters, keeps the grade log and the used tries", async () => {
    const w = await world();
    const db = await getDb();
    const before = await db.selectFrom("grade_log_head").select(["seq", "hash"]).executeTakeFirstOrThrow();
    const aEmail = (await db.selectFrom("users").select("email").where("id", "=", w.a).executeTakeFirstOrThrow()).email;
    await db.updateTable("users").set({ tries_used: 2 }).where("id", "=", w.a).execute();
    await db.insertInto("outbox").values({ to_email: aEmail, subject: "s", text: "t" }).execute();
    expect(await own.deleteAccount(w.a, "correct horse battery")).toEqual({ ok: true });

    expect(await db.selectFrom("users").select("id").where("id", "=", w.a).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("posts").select("id").where("author_id", "=", w.a).execute()).toEqual([]);
    expect(await db.selectFrom("messages").select("id").where("conversation_id", "=", w.ab).execute()).toEqual([]);
    expect(
      await db
        .selectFrom("follows")
        .select("follower_id")
        .where((eb) => eb.or([eb("follower_id", "=", w.a), eb("followee_id", "=", w.a)]))
        .execute(),
    ).toEqual([]);
    expect(await db.selectFrom("outbox").select("id").where("to_email", "=", aEmail).execute()).toEqual([]);
    expect(await db.selectFrom("sessions").select("user_id").where("user_id", "=", w.a).execute()).toEqual([]);
    const b = await db.selectFrom("users").select(["followers_count"]).where("id", "=", w.b).executeTakeFirstOrThrow();
    const c = await db.selectFrom("users").select(["following_count"]).where("id", "=", w.c).executeTakeFirstOrThrow();
    expect(b.followers_count).toBe(0);
    expect(c.following_count).toBe(0);
    const bPost = await db
      .selectFrom("posts")
      .select(["like_count", "reply_count"])
      .where("id", "=", String(w.bPost))
      .executeTakeFirstOrThrow();
    expect(bPost).toEqual({ like_count: 0, reply_count: 0 });
    // The other side's conversation with b and c is untouched.
    expect((await own.exportUserData(w.b)).messages.map((m) => m.body)).toEqual(["secret between b and c"]);
    // The grade log's chain is as it was; the e-mail survives only as a keyed hash.
    expect(await db.selectFrom("grade_log_head").select(["seq", "hash"]).executeTakeFirstOrThrow()).toEqual(before);
    const retired = await db.selectFrom("retired_tries").selectAll().execute();
    expect(JSON.stringify(retired)).not.toContain(aEmail);
    // Signing up again with the same address brings the used tries back, not new ones.
    const again = (await createUser({ email: aEmail.toUpperCase(), password: "another good password" }))!.id;
    expect(
      (await db.selectFrom("users").select("tries_used").where("id", "=", again).executeTakeFirstOrThrow()).tries_used,
    ).toBe(2);
  });
});

describe("Delete my account without a password (Google or Apple only)", () => {
  it("is confirmed with the account's e-mail address", async () => {
    const db = await getDb();
    const address = email("oauth");
    const user = await db
      .insertInto("users")
      .values({ email: address, password_hash: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(await own.deletionConfirmation(user.id)).toBe("email");
    expect(await own.deleteAccount(user.id, "someone-else@example.com")).toMatchObject({
      ok: false,
      message: "Type the e-mail address of this account.",
    });
    expect(await db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeDefined();
    expect(await own.deleteAccount(user.id, ` ${address.toUpperCase()} `)).toEqual({ ok: true });
    expect(await db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("over HTTP", () => {
  it("the download is the signed-in user's own JSON file; signed out it asks to sign in", async () => {
    const me = await signUp();
    const other = await signUp();
    expect((await get("/user/settings/data.json")).status).toBe(302);
    const res = await get("/user/settings/data.json", { cookie: me.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="grader-data-\d+\.json"$/);
    const text = await res.text();
    expect(JSON.parse(text).profile.email).toBe(me.email);
    expect(text).not.toContain(other.email);
  });

  it("deleting asks for the password, then ends every session and the sign-in", async () => {
    const me = await signUp();
    const second = await postForm("/signin", { email: me.email, password: me.password });
    const otherSession = second.headers
      .getSetCookie()
      .find((c) => c.startsWith("grader_session="))!
      .split(";")[0]!;
    const wrong = await postForm("/user/settings/delete-account", { confirmation: "not it" }, { cookie: me.cookie });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That is not your password.");
    expect((await get("/user/settings", { cookie: me.cookie })).status).toBe(200);
    const gone = await postForm("/user/settings/delete-account", { confirmation: me.password }, { cookie: me.cookie });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/?account=deleted");
    expect(gone.headers.getSetCookie().some((c) => c.startsWith("grader_session=;"))).toBe(true);
    // Where the browser lands says what happened; the plain landing does not.
    const told = "Your account was deleted: its profile, linked accounts, trades, grades and cards are gone";
    expect(await (await get("/?account=deleted")).text()).toContain(told);
    expect(await (await get("/")).text()).not.toContain(told);
    for (const cookie of [me.cookie, otherSession]) expect((await get("/user/settings", { cookie })).status).toBe(302);
    expect((await postForm("/signin", { email: me.email, password: me.password })).status).not.toBe(302);
  });
});
