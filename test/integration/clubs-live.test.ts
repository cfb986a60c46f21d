import { beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";

// Clubs live for their members, told of join requests, handed over and deleted (issue 34 point 4,
// DECISIONS 217), over HTTP against the built server; the live events and notifications it writes
// are read in process from the same PostgreSQL.
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { getClub } = await import("~/server/community/clubs.server");
const { openReportedPosts } = await import("~/server/accounts/admin.server");
const { clubLiveJob } = await import("~/server/community/club-live.server");
const { enqueue } = await import("~/server/platform/jobs.server");

beforeAll(async () => {
  await migrateToLatest();
  // pg-boss's schema and queues exist once the queue has opened (no workers: the test runs the job).
  await enqueue(null, "trade-alert-sync", {});
});

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;

type Trader = { cookie: string; id: number; username: string };

async function trader(): Promise<Trader> {
  const { cookie } = await signUp();
  const username = `l${run}_${seq++}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: "Live", last_name: username, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id, username };
}

async function grade(userId: number, tier: string, score: number) {
  const db = await getDb();
  const e = await db
    .insertInto("evaluations")
    .values({
      user_id: userId,
      engine_version: "test",
      ledger_digest: "x",
      tier,
      score,
      percentile: null,
      verification_code: `GR-CLL${userId}-${seq++}`,
      result: JSON.stringify({ stars: { overall: 3 } }),
      self_reported: false,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("users").set({ current_evaluation_id: e.id }).where("id", "=", userId).execute();
}

async function createOk(t: Trader, name: string, extra: Record<string, string> = {}) {
  const res = await postForm(
    "/clubs/new",
    {
      name,
      description: "A club for testing live clubs.",
      markets: "US",
      min_tier: "",
      join_policy: "open",
      ...extra,
    },
    { cookie: t.cookie },
  );
  expect(res.status, await res.clone().text()).toBe(303);
  return res.headers.get("location")!.match(/^\/clubs\/([a-z0-9-]+)\?notice=created$/)![1]!;
}

const act = (t: Trader, slug: string, fields: Record<string, string>) =>
  postForm(`/clubs/${slug}`, fields, { cookie: t.cookie });

/** Each user's latest live event number now. */
async function marks(users: Trader[]): Promise<Map<number, number>> {
  const db = await getDb();
  const rows = await db
    .selectFrom("live_seqs")
    .select(["user_id", "seq"])
    .where(
      "user_id",
      "in",
      users.map((u) => u.id),
    )
    .execute();
  return new Map(users.map((u) => [u.id, Number(rows.find((r) => r.user_id === u.id)?.seq ?? 0)]));
}

/** The `club` events each user got after their mark, as [club_id, what]. */
async function clubEvents(users: Trader[], since: Map<number, number>) {
  const db = await getDb();
  const out: Record<string, [number, string][]> = {};
  for (const u of users) {
    const rows = await db
      .selectFrom("live_events")
      .select(["data"])
      .where("user_id", "=", u.id)
      .where("kind", "=", "club")
      .where("seq", ">", String(since.get(u.id) ?? 0))
      .orderBy("seq")
      .execute();
    out[u.username] = rows.map((r) => {
      const d = r.data as { club_id: number; what: string };
      return [d.club_id, d.what];
    });
  }
  return out;
}

async function setUp(policy: "open" | "request" = "open") {
  const owner = await trader();
  await grade(owner.id, "Gold", 70);
  const slug = await createOk(owner, `Live ${policy} ${run} ${seq++}`, { join_policy: policy });
  const club = (await getClub(slug))!;
  return { owner, slug, club };
}

describe("a club page live for its members", () => {
  it("a post, a reply and a like raise a `club` feed event to every active member, none to outsiders or removed members", async () => {
    const { owner, slug, club } = await setUp();
    const [member, removed, outsider] = [await trader(), await trader(), await trader()];
    for (const t of [member, removed]) expect((await act(t, slug, { intent: "join" })).status).toBe(303);
    expect((await act(owner, slug, { intent: "moderate", action: "remove", user_id: String(removed.id) })).status).toBe(
      303,
    );
    const everyone = [owner, member, removed, outsider];

    let since = await marks(everyone);
    expect((await act(member, slug, { intent: "post", body: `Live post ${run}` })).status).toBe(303);
    expect(await clubEvents(everyone, since)).toEqual({
      [owner.username]: [[club.id, "feed"]],
      [member.username]: [[club.id, "feed"]],
      [removed.username]: [],
      [outsider.username]: [],
    });

    const db = await getDb();
    const postId = String(
      (
        await db
          .selectFrom("posts")
          .select("id")
          .where("club_id", "=", club.id)
          .where("body", "=", `Live post ${run}`)
          .executeTakeFirstOrThrow()
      ).id,
    );
    since = await marks(everyone);
    expect((await postForm(`/posts/${postId}`, { intent: "like" }, { cookie: owner.cookie })).status).toBeLessThan(400);
    expect(
      (await postForm(`/posts/${postId}`, { intent: "reply", body: "A live reply" }, { cookie: owner.cookie })).status,
    ).toBeLessThan(400);
    const after = await clubEvents(everyone, since);
    expect(after[member.username]).toEqual([
      [club.id, "feed"],
      [club.id, "feed"],
    ]);
    expect(after[removed.username]).toEqual([]);
    expect(after[outsider.username]).toEqual([]);
  });

  it("a join tells the members; a request tells only the owner and moderators (and the one asking)", async () => {
    const open = await setUp();
    const member = await trader();
    let since = await marks([open.owner, member]);
    expect((await act(member, open.slug, { intent: "join" })).status).toBe(303);
    expect(await clubEvents([open.owner, member], since)).toEqual({
      [open.owner.username]: [[open.club.id, "members"]],
      [member.username]: [[open.club.id, "members"]],
    });

    const byRequest = await setUp("request");
    const [mod, plain, asker] = [await trader(), await trader(), await trader()];
    const db = await getDb();
    // Members let in directly (the test's shortcut past approval).
    await db
      .insertInto("club_members")
      .values([
        { club_id: byRequest.club.id, user_id: mod.id, role: "moderator", status: "active" },
        { club_id: byRequest.club.id, user_id: plain.id, role: "member", status: "active" },
      ])
      .execute();
    await db.updateTable("clubs").set({ member_count: 3 }).where("id", "=", byRequest.club.id).execute();
    since = await marks([byRequest.owner, mod, plain, asker]);
    expect((await act(asker, byRequest.slug, { intent: "join" })).status).toBe(303);
    expect(await clubEvents([byRequest.owner, mod, plain, asker], since)).toEqual({
      [byRequest.owner.username]: [[byRequest.club.id, "members"]],
      [mod.username]: [[byRequest.club.id, "members"]],
      [plain.username]: [],
      [asker.username]: [[byRequest.club.id, "members"]],
    });
  });

  it("the `club-live` job tells a big club's active members in batches, never a removed one", async () => {
    const { owner, slug, club } = await setUp();
    const [member, removed] = [await trader(), await trader()];
    for (const t of [member, removed]) expect((await act(t, slug, { intent: "join" })).status).toBe(303);
    expect((await act(owner, slug, { intent: "moderate", action: "remove", user_id: String(removed.id) })).status).toBe(
      303,
    );
    const since = await marks([owner, member, removed]);
    expect(await clubLiveJob({ clubId: club.id, what: "alerts", after: 0 })).toBe(2);
    expect(await clubEvents([owner, member, removed], since)).toEqual({
      [owner.username]: [[club.id, "alerts"]],
      [member.username]: [[club.id, "alerts"]],
      [removed.username]: [],
    });
    // A batch after the last member tells nobody.
    expect(await clubLiveJob({ clubId: club.id, what: "alerts", after: Math.max(owner.id, member.id) })).toBe(0);
  });
});

async function bell(userId: number, kind: "club_request" | "club_joined") {
  const db = await getDb();
  return db
    .selectFrom("notifications")
    .select(["actor_id", "url", "data", "count"])
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .execute();
}

describe("a club's join requests in the bell", () => {
  it("tells the owner and moderators of a request (as their settings say), and the requester when approved", async () => {
    const { owner, slug, club } = await setUp("request");
    const [mod, plain, muting] = [await trader(), await trader(), await trader()];
    const db = await getDb();
    await db
      .insertInto("club_members")
      .values([
        { club_id: club.id, user_id: mod.id, role: "moderator", status: "active" },
        { club_id: club.id, user_id: plain.id, role: "member", status: "active" },
        { club_id: club.id, user_id: muting.id, role: "moderator", status: "active" },
      ])
      .execute();
    await db.updateTable("clubs").set({ member_count: 4 }).where("id", "=", club.id).execute();
    // One moderator turned the kind off on the settings page.
    const kinds = ["message", "follow", "club_joined"];
    const saved = await postForm("/user/settings/notifications", { kinds, digest: "off" }, { cookie: muting.cookie });
    expect(saved.status).toBeLessThan(400);

    const [asker, second] = [await trader(), await trader()];
    expect((await act(asker, slug, { intent: "join" })).status).toBe(303);
    for (const t of [owner, mod])
      expect(await bell(t.id, "club_request")).toEqual([
        { actor_id: asker.id, url: `/clubs/${slug}?tab=manage`, data: { club: club.name }, count: 1 },
      ]);
    expect(await bell(plain.id, "club_request")).toEqual([]);
    expect(await bell(muting.id, "club_request")).toEqual([]);
    // A second request gathers on the same unread row ("… and 1 other asked to join").
    expect((await act(second, slug, { intent: "join" })).status).toBe(303);
    expect(await bell(owner.id, "club_request")).toMatchObject([{ actor_id: second.id, count: 2 }]);
    const list = await (await get("/notifications", { cookie: owner.cookie })).text();
    expect(list).toContain(`and 1 other asked to join ${club.name}`);

    expect(await bell(asker.id, "club_joined")).toEqual([]);
    expect((await act(mod, slug, { intent: "moderate", action: "approve", user_id: String(asker.id) })).status).toBe(
      303,
    );
    expect(await bell(asker.id, "club_joined")).toEqual([
      { actor_id: mod.id, url: `/clubs/${slug}`, data: { club: club.name }, count: 1 },
    ]);
    // Declined: no "approved" notification.
    expect((await act(owner, slug, { intent: "moderate", action: "decline", user_id: String(second.id) })).status).toBe(
      303,
    );
    expect(await bell(second.id, "club_joined")).toEqual([]);
    // The settings page offers both kinds.
    const settings = await (await get("/user/settings/notifications", { cookie: owner.cookie })).text();
    expect(settings).toContain('value="club_request"');
    expect(settings).toContain("Requests to join a club you run");
    expect(settings).toContain('value="club_joined"');
  });
});

describe("handing a club over and deleting it", () => {
  it("only the owner hands it over, to an active member owning fewer than 3 clubs, after a confirm step", async () => {
    const { owner, slug, club } = await setUp();
    const [mod, member, outsider, busy] = [await trader(), await trader(), await trader(), await trader()];
    for (const t of [mod, member, busy]) expect((await act(t, slug, { intent: "join" })).status).toBe(303);
    expect((await act(owner, slug, { intent: "moderate", action: "appoint", user_id: String(mod.id) })).status).toBe(
      303,
    );
    // Nobody but the owner: a moderator, a member, an outsider.
    for (const t of [mod, member, outsider]) {
      const res = await act(t, slug, { intent: "transfer", user_id: String(member.id), confirm: "yes" });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Only the club's owner can do that.");
    }
    // Not to someone outside the club.
    const stranger = await act(owner, slug, { intent: "transfer", user_id: String(outsider.id), confirm: "yes" });
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain("Only a member of the club can become its owner.");
    // Not to someone who owns 3 clubs already, named in the sentence.
    await grade(busy.id, "Gold", 70);
    for (let i = 0; i < 3; i++) await createOk(busy, `Busy ${run} ${i}`);
    const full = await act(owner, slug, { intent: "transfer", user_id: String(busy.id), confirm: "yes" });
    expect(full.status).toBe(409);
    expect(await full.text()).toContain(`Live ${busy.username} already owns 3 clubs, the most one person can.`);

    // The first step asks, naming the member, and changes nothing.
    const ask = await act(owner, slug, { intent: "transfer", user_id: String(member.id) });
    expect(ask.status).toBe(200);
    const page = await ask.text();
    expect(page).toContain(`Make Live ${member.username} the owner of ${club.name}?`);
    const db = await getDb();
    const ownerOf = async () =>
      (await db.selectFrom("clubs").select("owner_id").where("id", "=", club.id).executeTakeFirstOrThrow()).owner_id;
    expect(await ownerOf()).toBe(owner.id);

    const done = await act(owner, slug, { intent: "transfer", user_id: String(member.id), confirm: "yes" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`/clubs/${slug}?tab=members&notice=transferred`);
    expect(await ownerOf()).toBe(member.id);
    const roles = await db
      .selectFrom("club_members")
      .select(["user_id", "role"])
      .where("club_id", "=", club.id)
      .where("user_id", "in", [owner.id, member.id])
      .execute();
    expect(Object.fromEntries(roles.map((r) => [r.user_id, r.role]))).toEqual({
      [owner.id]: "moderator",
      [member.id]: "owner",
    });
    // The old owner is a moderator now: may leave, may not hand it over again.
    expect((await act(owner, slug, { intent: "transfer", user_id: String(mod.id), confirm: "yes" })).status).toBe(403);
    expect((await act(member, slug, { intent: "leave" })).status).toBe(400);
    expect((await act(owner, slug, { intent: "leave" })).status).toBe(303);
  });

  it("only the owner deletes it, typing its name; its posts and their reports go, and /admin still answers", async () => {
    const { owner, slug, club } = await setUp();
    const [mod, member] = [await trader(), await trader()];
    for (const t of [mod, member]) expect((await act(t, slug, { intent: "join" })).status).toBe(303);
    expect((await act(owner, slug, { intent: "moderate", action: "appoint", user_id: String(mod.id) })).status).toBe(
      303,
    );
    expect((await act(member, slug, { intent: "post", body: `Doomed post ${run}` })).status).toBe(303);
    const db = await getDb();
    const post = await db.selectFrom("posts").select("id").where("club_id", "=", club.id).executeTakeFirstOrThrow();
    const reported = await postForm(
      `/posts/${post.id}`,
      { intent: "report", reason: "Spam", redirect_to: `/clubs/${slug}` },
      { cookie: mod.cookie },
    );
    expect(reported.status).toBe(303);

    for (const t of [mod, member]) {
      const res = await act(t, slug, { intent: "delete", confirm_name: club.name });
      expect(res.status).toBe(403);
    }
    // Sent from the tab the form is on (a form posts to its page's URL, search included).
    const wrong = await postForm(
      `/clubs/${slug}?tab=manage`,
      { intent: "delete", confirm_name: "Not the name" },
      { cookie: owner.cookie },
    );
    expect(wrong.status).toBe(400);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain(`Type the club's name, ${club.name}, to delete it.`);
    // What was typed is kept.
    expect(wrongPage).toContain('value="Not the name"');
    expect(await getClub(slug)).not.toBeNull();

    const since = await marks([owner, mod, member]);
    const gone = await act(owner, slug, { intent: "delete", confirm_name: club.name.toUpperCase() });
    expect(gone.status).toBe(303);
    expect(gone.headers.get("location")).toBe("/clubs?notice=deleted");
    expect(await (await get("/clubs?notice=deleted", { cookie: owner.cookie })).text()).toContain(
      "The club was deleted, with its posts.",
    );
    expect(await getClub(slug)).toBeNull();
    expect((await get(`/clubs/${slug}`, { cookie: member.cookie })).status).toBe(404);
    expect(await db.selectFrom("posts").select("id").where("id", "=", post.id).executeTakeFirst()).toBeUndefined();
    expect(
      await db.selectFrom("reports").select("id").where("post_id", "=", post.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await get(`/posts/${post.id}`, { cookie: member.cookie })).status).toBe(404);
    // The members' open pages were told (and reload to the 404).
    expect((await clubEvents([member], since))[member.username]).toEqual([[club.id, "members"]]);
    // /admin's list of reported posts reads without it (its reports went with it).
    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const r = await openReportedPosts(page);
      listed.push(...r.posts.map((p) => String(p.id)));
      if (!r.more) break;
    }
    expect(listed).not.toContain(String(post.id));
  });
});
