import { beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";

// Trader clubs (issue 34 point 4, DECISIONS 216) over HTTP against the built server, with grades
// and Star approvals written in process into the same PostgreSQL (the server reads them).
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { openReportedPosts } = await import("~/server/accounts/admin.server");
const { Clubs } = await import("~/server/http/api-schemas.server");

beforeAll(async () => {
  await migrateToLatest();
});

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;

type Trader = { cookie: string; id: number; username: string };

async function trader(): Promise<Trader> {
  const { cookie } = await signUp();
  const username = `c${run}_${seq++}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: "Club", last_name: username, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id, username };
}

/** A verified current grade of `tier` (the market leaderboard's trigger picks it up). */
async function grade(userId: number, tier: string, score: number, selfReported = false) {
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
      verification_code: `GR-CLB${userId}-${seq++}`,
      result: JSON.stringify({ stars: { overall: 3 } }),
      self_reported: selfReported,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("users").set({ current_evaluation_id: e.id }).where("id", "=", userId).execute();
}

async function star(userId: number) {
  const db = await getDb();
  await db
    .insertInto("star_applications")
    .values({ user_id: userId, bio: "x".repeat(20), strategy: "y".repeat(20), markets: "US", status: "approved" })
    .execute();
}

const clubForm = (name: string, extra: Record<string, string> = {}) => ({
  name,
  description: "A club for testing the clubs feature.",
  markets: "US tech, BTC",
  min_tier: "",
  join_policy: "open",
  ...extra,
});

async function create(t: Trader, name: string, extra: Record<string, string> = {}) {
  return postForm("/clubs/new", clubForm(name, extra), { cookie: t.cookie });
}

async function createOk(t: Trader, name: string, extra: Record<string, string> = {}) {
  const res = await create(t, name, extra);
  expect(res.status, await res.clone().text()).toBe(303);
  const slug = res.headers.get("location")!.match(/^\/clubs\/([a-z0-9-]+)\?notice=created$/)![1]!;
  return slug;
}

const act = (t: Trader, slug: string, fields: Record<string, string>) =>
  postForm(`/clubs/${slug}`, fields, { cookie: t.cookie });

async function clubData(t: Trader, slug: string, tab = "feed") {
  const res = await get(`/clubs/${slug}?tab=${tab}&_data=${encodeURIComponent("routes/clubs.$slug")}`, {
    cookie: t.cookie,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    membership: { role: string; status: string } | null;
    tab: string;
    club: { member_count: number; name: string };
    feed: { data: { id: string; body: string }[] } | null;
    members: { id: number; role: string; tier: string | null }[] | null;
    leaderboard: { id: number; rank: number; tier: string | null; score: number }[] | null;
    queue: { id: number; status: string }[] | null;
    reports: { id: string; reports: number }[] | null;
  };
}

async function post(t: Trader, slug: string, body: string) {
  return act(t, slug, { intent: "post", body });
}

async function clubPostId(t: Trader, slug: string, body: string) {
  const feed = (await clubData(t, slug)).feed!.data;
  return feed.find((p) => p.body === body)!.id;
}

describe("creating a club", () => {
  it("is refused below Gold, for a self-reported Gold, and without a grade, with the reason and the form kept", async () => {
    const none = await trader();
    const silver = await trader();
    const selfGold = await trader();
    await grade(silver.id, "Silver", 50);
    await grade(selfGold.id, "Gold", 65, true);
    for (const [t, says] of [
      [none, /Get your grade first/],
      [silver, /Your verified grade is Silver/],
      [selfGold, /Get your grade first/],
    ] as const) {
      const res = await create(t, `Refused ${run} ${seq++}`);
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(html).toMatch(says);
      expect(html).toContain("A club for testing the clubs feature.");
    }
    const page = await get("/clubs/new", { cookie: silver.cookie });
    expect(await page.text()).toMatch(/takes a verified Gold grade or better, or being a Star/);
  });

  it("is allowed for a Star below Gold and for a Gold trader; names are unique whatever their case; an owner has at most 3", async () => {
    const s = await trader();
    await grade(s.id, "Silver", 50);
    await star(s.id);
    const slug = await createOk(s, `Star Club ${run}`);
    expect(slug).toBe(`star-club-${run}`);
    const again = await create(s, `STAR club ${run}`);
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/That name is taken/);

    const g = await trader();
    await grade(g.id, "Gold", 70);
    await createOk(g, `Gold One ${run}`);
    await createOk(g, `Gold Two ${run}`);
    await createOk(g, `Gold Three ${run}`);
    const fourth = await create(g, `Gold Four ${run}`);
    expect(fourth.status).toBe(409);
    expect(await fourth.text()).toMatch(/You already own 3 clubs/);

    const bad = await create(g, "x", { description: "short", join_policy: "maybe" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toMatch(/at least 3 characters/);
    expect(html).toMatch(/Choose open or by request/);
    // Hostile input is a 400 or 404, never a 5xx.
    expect((await postForm("/clubs/new", { name: "\u0000\u0000" }, { cookie: g.cookie })).status).toBe(400);
    expect([400, 404]).toContain((await get("/clubs/%00%27", { cookie: g.cookie })).status);
    expect((await act(g, `gold-one-${run}`, { intent: "drop table" })).status).toBe(400);
  });
});

describe("joining and moderating", () => {
  it("joins an open club at once, counts the member, and refuses a second join; leaving works but not for the owner", async () => {
    const owner = await trader();
    await grade(owner.id, "Master", 80);
    const slug = await createOk(owner, `Open House ${run}`);
    const joiner = await trader();
    const res = await act(joiner, slug, { intent: "join" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/clubs/${slug}?notice=joined`);
    const d = await clubData(joiner, slug);
    expect(d.membership).toEqual({ role: "member", status: "active" });
    expect(d.club.member_count).toBe(2);
    const twice = await act(joiner, slug, { intent: "join" });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toMatch(/already a member/);
    const ownerLeaves = await act(owner, slug, { intent: "leave" });
    expect(ownerLeaves.status).toBe(400);
    expect(await ownerLeaves.text()).toMatch(/You own this club/);
    expect((await act(joiner, slug, { intent: "leave" })).status).toBe(303);
    expect((await clubData(joiner, slug)).club.member_count).toBe(1);
  });

  it("by request with a minimum tier: a lower tier is refused, a request waits, another club's moderator cannot approve, the owner can", async () => {
    const owner = await trader();
    await grade(owner.id, "Gold", 70);
    const slug = await createOk(owner, `Silver Circle ${run}`, { min_tier: "Silver", join_policy: "request" });
    const other = await trader();
    await grade(other.id, "Legend", 95);
    const otherSlug = await createOk(other, `Elsewhere ${run}`);

    const bronze = await trader();
    await grade(bronze.id, "Bronze", 20);
    const low = await act(bronze, slug, { intent: "join" });
    expect(low.status).toBe(403);
    expect(await low.text()).toMatch(/verified Silver grade or better\. Yours is Bronze/);
    const ungraded = await trader();
    expect((await act(ungraded, slug, { intent: "join" })).status).toBe(403);

    const silver = await trader();
    await grade(silver.id, "Silver", 45);
    const asked = await act(silver, slug, { intent: "join" });
    expect(asked.headers.get("location")).toBe(`/clubs/${slug}?notice=requested`);
    const waiting = await clubData(silver, slug);
    expect(waiting.membership).toEqual({ role: "member", status: "pending" });
    expect(waiting.feed).toBeNull();
    expect(waiting.club.member_count).toBe(1);
    // Waiting is not membership: no posting yet.
    const early = await post(silver, slug, "Can I post yet?");
    expect(early.status).toBe(403);
    expect(await early.text()).toMatch(/Only the club's members/);

    // The other club's owner is a moderator there, not here.
    const foreign = await act(other, slug, { intent: "moderate", action: "approve", user_id: String(silver.id) });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toMatch(/Only this club's owner and moderators/);
    expect((await clubData(silver, slug)).membership!.status).toBe("pending");
    // …nor does the request show in their club.
    expect((await clubData(other, otherSlug, "manage")).queue).toEqual([]);

    const queue = (await clubData(owner, slug, "manage")).queue!;
    expect(queue.map((p) => [p.id, p.status])).toEqual([[silver.id, "pending"]]);
    const ok = await act(owner, slug, { intent: "moderate", action: "approve", user_id: String(silver.id) });
    expect(ok.status).toBe(303);
    const now = await clubData(silver, slug);
    expect(now.membership).toEqual({ role: "member", status: "active" });
    expect(now.club.member_count).toBe(2);
    expect((await post(silver, slug, "Thanks for having me")).status).toBe(303);
    // A plain member cannot moderate, and nobody sees the manage tab but moderators.
    expect((await act(silver, slug, { intent: "moderate", action: "remove", user_id: String(owner.id) })).status).toBe(
      403,
    );
    expect((await clubData(silver, slug, "manage")).tab).toBe("members");
  });

  it("appointed moderators remove members (who then cannot post, reply, like or rejoin) but not other moderators or the owner", async () => {
    const owner = await trader();
    await grade(owner.id, "Gold", 72);
    const slug = await createOk(owner, `Mod Squad ${run}`);
    const [mod, mod2, member] = [await trader(), await trader(), await trader()];
    for (const t of [mod, mod2, member]) expect((await act(t, slug, { intent: "join" })).status).toBe(303);
    expect((await act(owner, slug, { intent: "moderate", action: "appoint", user_id: String(mod.id) })).status).toBe(
      303,
    );
    // A moderator appoints too.
    expect((await act(mod, slug, { intent: "moderate", action: "appoint", user_id: String(mod2.id) })).status).toBe(
      303,
    );
    const roles = (await clubData(member, slug, "members")).members!;
    expect(Object.fromEntries(roles.map((m) => [m.id, m.role]))).toEqual({
      [owner.id]: "owner",
      [mod.id]: "moderator",
      [mod2.id]: "moderator",
      [member.id]: "member",
    });

    expect((await post(member, slug, `Before removal ${run}`)).status).toBe(303);
    const postId = await clubPostId(member, slug, `Before removal ${run}`);

    const notOnMod = await act(mod, slug, { intent: "moderate", action: "remove", user_id: String(mod2.id) });
    expect(notOnMod.status).toBe(403);
    expect(await notOnMod.text()).toMatch(/Only the club's owner can do that to a moderator/);
    const notOnOwner = await act(mod, slug, { intent: "moderate", action: "remove", user_id: String(owner.id) });
    expect(notOnOwner.status).toBe(400);

    expect((await act(mod, slug, { intent: "moderate", action: "remove", user_id: String(member.id) })).status).toBe(
      303,
    );
    const gone = await clubData(member, slug);
    expect(gone.membership).toEqual({ role: "member", status: "removed" });
    expect(gone.feed).toBeNull();
    const refused = await post(member, slug, "Still here?");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/Only the club's members/);
    expect(
      (await postForm(`/posts/${postId}`, { intent: "reply", body: "hello" }, { cookie: member.cookie })).status,
    ).toBe(404);
    expect((await postForm(`/posts/${postId}`, { intent: "like" }, { cookie: member.cookie })).status).toBe(404);
    expect((await get(`/posts/${postId}`, { cookie: member.cookie })).status).toBe(404);
    const rejoin = await act(member, slug, { intent: "join" });
    expect(rejoin.status).toBe(403);
    expect(await rejoin.text()).toMatch(/removed you from this club/);

    // The owner lets them back in; they can join again.
    expect((await act(owner, slug, { intent: "moderate", action: "readmit", user_id: String(member.id) })).status).toBe(
      303,
    );
    expect((await act(member, slug, { intent: "join" })).status).toBe(303);
    // The owner removes a moderator.
    expect((await act(owner, slug, { intent: "moderate", action: "remove", user_id: String(mod2.id) })).status).toBe(
      303,
    );
    expect((await clubData(mod2, slug)).membership!.status).toBe("removed");
  });
});

describe("the club feed, members and leaderboard", () => {
  it("keeps club posts in the club: members read, reply and like; outsiders and the community feed never see them; reports reach the club's moderators and /admin", async () => {
    const owner = await trader();
    await grade(owner.id, "Legend", 92);
    const slug = await createOk(owner, `Feed Club ${run}`);
    const [a, b, c, outsider] = [await trader(), await trader(), await trader(), await trader()];
    for (const t of [a, b, c]) await act(t, slug, { intent: "join" });
    const body = `Club only ${run}`;
    expect((await post(a, slug, body)).headers.get("location")).toBe(`/clubs/${slug}?notice=posted`);
    const id = await clubPostId(owner, slug, body);

    const community = await get(`/community?_data=routes%2Fcommunity`, { cookie: a.cookie });
    const feed = (await community.json()) as { posts: { body: string }[] };
    expect(feed.posts.map((p) => p.body)).not.toContain(body);
    expect((await get(`/posts/${id}`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await postForm(`/posts/${id}`, { intent: "report" }, { cookie: outsider.cookie })).status).toBe(404);
    expect((await clubData(outsider, slug)).feed).toBeNull();
    // An operator reads a reported club post from /admin, but cannot reply to it.
    const operator = await trader();
    await (await getDb()).updateTable("users").set({ is_admin: true }).where("id", "=", operator.id).execute();
    expect((await get(`/posts/${id}`, { cookie: operator.cookie })).status).toBe(200);
    expect((await postForm(`/posts/${id}`, { intent: "reply", body: "op" }, { cookie: operator.cookie })).status).toBe(
      404,
    );

    expect((await postForm(`/posts/${id}`, { intent: "reply", body: "Agreed" }, { cookie: b.cookie })).status).toBe(
      303,
    );
    expect((await postForm(`/posts/${id}`, { intent: "like" }, { cookie: b.cookie })).status).toBe(303);
    const thread = await get(`/posts/${id}`, { cookie: b.cookie });
    expect(thread.status).toBe(200);
    const threadHtml = await thread.text();
    expect(threadHtml).toContain("Agreed");
    // The post's page leads back to its club, not to the community.
    expect(threadHtml).toContain(`href="/clubs/${slug}"`);

    const reported = await postForm(
      `/posts/${id}`,
      { intent: "report", reason: "Off topic", redirect_to: `/clubs/${slug}` },
      { cookie: c.cookie },
    );
    expect(reported.headers.get("location")).toBe(`/clubs/${slug}?reported=1`);
    const reports = (await clubData(owner, slug, "manage")).reports!;
    expect(reports).toMatchObject([{ id, reports: 1 }]);
    // /admin lists every post with open reports, the club's among them.
    const adminIds: string[] = [];
    for (let page = 1; ; page++) {
      const r = await openReportedPosts(page);
      adminIds.push(...r.posts.map((p) => p.id));
      if (!r.more) break;
    }
    expect(adminIds).toContain(id);

    // A moderator of another club cannot decide it.
    const other = await trader();
    await grade(other.id, "Gold", 70);
    await createOk(other, `Other Feed ${run}`);
    expect((await act(other, slug, { intent: "report_decision", post_id: id, decision: "hide" })).status).toBe(403);
    expect((await act(owner, slug, { intent: "report_decision", post_id: id, decision: "hide" })).status).toBe(303);
    expect((await clubData(b, slug)).feed!.data.map((p) => p.body)).not.toContain(body);
    expect((await clubData(owner, slug, "manage")).reports).toEqual([]);
  });

  it("lists members with their verified tiers and ranks graded members by score", async () => {
    const owner = await trader();
    await grade(owner.id, "Gold", 66);
    const slug = await createOk(owner, `Board Club ${run}`);
    const [top, self, none] = [await trader(), await trader(), await trader()];
    await grade(top.id, "Master", 81);
    await grade(self.id, "Legend", 99, true);
    for (const t of [top, self, none]) await act(t, slug, { intent: "join" });
    const members = (await clubData(none, slug, "members")).members!;
    expect(Object.fromEntries(members.map((m) => [m.id, m.tier]))).toEqual({
      [owner.id]: "Gold",
      [top.id]: "Master",
      [self.id]: null,
      [none.id]: null,
    });
    const board = (await clubData(none, slug, "leaderboard")).leaderboard!;
    expect(board.map((r) => [r.rank, r.id, r.tier])).toEqual([
      [1, top.id, "Master"],
      [2, owner.id, "Gold"],
    ]);
  });
});

/** A trade of `userId` and its alert, as an import records it; `sent` as its fan-out leaves it. */
async function alertOf(userId: number, symbol: string, opts: { sent: boolean; quantity?: number }) {
  const db = await getDb();
  const account = await db
    .insertInto("linked_accounts")
    .values({ user_id: userId, kind: "evm", fingerprint: `evm:clubs-${run}-${seq++}`, label: "Wallet" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const time = new Date(Date.now() - 30 * 60_000);
  const trade = await db
    .insertInto("trades")
    .values({
      linked_account_id: account.id,
      external_id: `t-${seq++}`,
      time,
      symbol,
      asset_class: "stock",
      side: "buy",
      quantity: opts.quantity ?? 5,
      price: 100,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("trade_alerts")
    .values({
      trader_id: userId,
      linked_account_id: account.id,
      external_id: `t-${seq++}`,
      trade_id: trade.id,
      symbol,
      side: "buy",
      traded_at: time,
      deliver_at: time,
      tier: "Gold",
      share: 0.05,
      fanned_out_at: opts.sent ? new Date() : null,
    })
    .execute();
}

async function sharesLive(userId: number, hideSizes: boolean) {
  const db = await getDb();
  await db
    .insertInto("trade_alert_settings")
    .values({
      user_id: userId,
      enabled: true,
      delay: "none",
      hide_sizes: hideSizes,
      since: new Date(Date.now() - 3_600_000),
    })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ hide_sizes: hideSizes }))
    .execute();
}

describe("a club's trade alerts", () => {
  it("lists its members' sent alerts without amounts, to members only, and none from a blocked trader", async () => {
    const owner = await trader();
    await grade(owner.id, "Gold", 66);
    const slug = await createOk(owner, `Alert Club ${run}`);
    const [sharer, quiet, outsider] = [await trader(), await trader(), await trader()];
    for (const t of [sharer, quiet]) expect((await act(t, slug, { intent: "join" })).status).toBe(303);
    await sharesLive(sharer.id, true);
    await alertOf(sharer.id, "NVDA", { sent: true, quantity: 7 });
    await alertOf(sharer.id, "TSLA", { sent: false }); // not yet past its delay: never shown early
    await alertOf(quiet.id, "AMD", { sent: true }); // does not share trades live
    await sharesLive(outsider.id, false);
    await alertOf(outsider.id, "INTC", { sent: true }); // not a member

    const alertsFor = async (t: Trader) =>
      ((await clubData(t, slug, "alerts")) as unknown as { alerts: { traderId: number; text: string }[] | null })
        .alerts;
    const seen = await alertsFor(owner);
    expect(seen).toEqual([
      {
        id: expect.any(String),
        traderId: sharer.id,
        tradedAt: expect.any(String),
        text: `Club ${sharer.username} bought NVDA · 5% of the portfolio · Gold`,
      },
    ]);
    // Sizes shown now: the quantity, never a sum of money.
    await sharesLive(sharer.id, false);
    expect((await alertsFor(quiet))!.map((a) => a.text)).toEqual([
      `Club ${sharer.username} bought 7 NVDA · 5% of the portfolio · Gold`,
    ]);
    // Not a member: no alerts. A block either way hides the trader's alerts.
    expect(await alertsFor(outsider)).toBeNull();
    await (await getDb()).insertInto("blocks").values({ blocker_id: owner.id, blocked_id: sharer.id }).execute();
    expect(await alertsFor(owner)).toEqual([]);
    const page = await (await get(`/clubs/${slug}?tab=alerts`, { cookie: quiet.cookie })).text();
    expect(page).toContain(`bought 7 NVDA`);
  });
});

describe("finding clubs", () => {
  it("lists and searches clubs; the club page is public with its Open Graph tags, and its card is a PNG", async () => {
    const owner = await trader();
    await grade(owner.id, "Gold", 70);
    const slug = await createOk(owner, `Searchable Zebra ${run}`, { markets: `Wheat futures ${run}` });
    const list = await get(`/clubs?q=${encodeURIComponent(`wheat ${run}`)}`, { cookie: owner.cookie });
    const html = await list.text();
    expect(html).toContain(`Searchable Zebra ${run}`);
    const miss = await get(`/clubs?q=${encodeURIComponent(`nothing-${run}`)}`, { cookie: owner.cookie });
    expect(await miss.text()).toContain("No club matches");

    const anon = await get(`/clubs/${slug}`);
    expect(anon.status).toBe(200);
    const page = await anon.text();
    expect(page).toContain(`<meta property="og:title" content="Searchable Zebra ${run} · Clubs · Grader"`);
    expect(page).toMatch(new RegExp(`og:image" content="[^"]*/clubs/${slug}/card\\.png"`));
    expect(page).toContain("Log in to join");
    expect((await get(`/clubs/no-such-club-${run}`)).status).toBe(404);

    const card = await get(`/clubs/${slug}/card.png`);
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await card.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    // 1200 × 630, from the IHDR chunk.
    const view = new DataView(bytes.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([1200, 630]);
    expect((await get(`/clubs/no-such-club-${run}/card.png`)).status).toBe(404);
  });

  it("GET /api/portal/clubs lists and searches clubs with the caller's place, as documented", async () => {
    const owner = await trader();
    await grade(owner.id, "Gold", 70);
    const slug = await createOk(owner, `Api Club ${run}`, { join_policy: "request", min_tier: "Bronze" });
    const asker = await trader();
    await grade(asker.id, "Bronze", 25);
    await act(asker, slug, { intent: "join" });
    const res = await get(`/api/portal/clubs?q=${encodeURIComponent(`api club ${run}`)}`, { cookie: asker.cookie });
    expect(res.status).toBe(200);
    const raw = (await res.json()) as { meta: unknown };
    const body = Clubs.parse(raw);
    expect(raw.meta).toEqual({ page: 1, page_size: 20, total: 1 });
    expect(body.data[0]).toMatchObject({
      slug,
      name: `Api Club ${run}`,
      join_policy: "request",
      min_tier: "Bronze",
      member_count: 1,
      owner: { id: owner.id, username: owner.username },
      membership: { role: "member", status: "pending" },
    });
    const theirs = Clubs.parse(
      await (
        await get(`/api/portal/clubs?q=${encodeURIComponent(`api club ${run}`)}`, { cookie: owner.cookie })
      ).json(),
    );
    expect(theirs.data[0]!.membership).toEqual({ role: "owner", status: "active" });
    const bad = await get("/api/portal/clubs?page=0", { cookie: asker.cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/page/);
    expect((await get("/api/portal/clubs")).status).toBe(401);
  });
});
