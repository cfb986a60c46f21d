import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp } from "../support/http";

// Stars in-process (applications, operator review, the dashboard's figures) plus the points and
// Stars pages over HTTP against the built server.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const stars = await import("~/server/community/stars.server");
const { sql } = await import("kysely");

let seq = 0;
async function trader(tier: string | null) {
  const db = await getDb();
  const username = `star${Date.now().toString(36)}${seq++}`;
  const user = await db
    .insertInto("users")
    .values({ email: `${username}@example.com`, username, first_name: "Ada", last_name: `Star${seq}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (tier) {
    const ev = await db
      .insertInto("evaluations")
      .values({
        user_id: user.id,
        engine_version: "test",
        ledger_digest: "x",
        tier,
        score: 85,
        percentile: null,
        verification_code: `GR-S${user.id}-${seq++}`,
        result: "{}",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.updateTable("users").set({ current_evaluation_id: ev.id }).where("id", "=", user.id).execute();
  }
  return { id: user.id, username };
}

const application = {
  bio: "Swing trader for eight years, mostly large caps.",
  strategy: "Trend following with tight risk: 1% per trade, exits on a weekly close below the 20-week average.",
  markets: "US stocks, ETFs",
};

beforeAll(async () => {
  await migrateToLatest();
});

describe("Star applications and review", () => {
  it("only Gold or better may apply; others are told why", async () => {
    const none = await trader(null);
    const silver = await trader("Silver");
    expect(await stars.submitStarApplication(none.id, application)).toEqual({
      ok: false,
      reason: "not_graded",
      tier: null,
    });
    expect(await stars.submitStarApplication(silver.id, application)).toEqual({
      ok: false,
      reason: "tier_too_low",
      tier: "Silver",
    });
    for (const tier of ["Gold", "Master", "Legend"]) {
      const t = await trader(tier);
      expect(await stars.submitStarApplication(t.id, application)).toEqual({ ok: true });
      expect((await stars.starApplication(t.id))?.status).toBe("pending");
    }
  });

  it("an operator approves by username; the star is listed and has a public profile; re-applying keeps approval", async () => {
    const gold = await trader("Gold");
    await stars.submitStarApplication(gold.id, application);
    expect((await stars.listStars()).some((s) => s.id === gold.id)).toBe(false);
    expect(await stars.starByUsername(gold.username)).toBeUndefined();
    expect(await stars.reviewStarApplication(gold.username.toUpperCase(), "approved")).toBe(gold.id);
    expect((await stars.listStars()).some((s) => s.id === gold.id)).toBe(true);
    expect((await stars.starByUsername(gold.username))?.tier).toBe("Gold");
    await stars.submitStarApplication(gold.id, { ...application, markets: "Crypto" });
    expect((await stars.starApplication(gold.id))?.status).toBe("approved");
    expect(await stars.reviewStarApplication("nobody-here", "approved")).toBeNull();
  });

  it("the dashboard counts card views by source from page views, and followers by week", async () => {
    const gold = await trader("Gold");
    const db = await getDb();
    const path = `/share/open_graph/${gold.id}`;
    await db
      .insertInto("page_views")
      .values([
        { path, source: "twitter", user_id: null },
        { path, source: "twitter", user_id: null },
        { path, source: "reddit", user_id: null },
        { path, source: null, user_id: null },
        { path: `/share/open_graph/${gold.id}9`, source: "twitter", user_id: null },
      ])
      .execute();
    const fans = [await trader(null), await trader(null)];
    for (const f of fans)
      await sql`insert into follows (follower_id, followee_id) values (${f.id}, ${gold.id})`.execute(db);
    const dash = await stars.starDashboard(gold.id);
    expect(dash.cardViews).toBe(4);
    expect(dash.viewsBySource).toEqual([
      { source: "twitter", views: 2 },
      expect.objectContaining({ views: 1 }),
      expect.objectContaining({ views: 1 }),
    ]);
    expect(dash.viewsByDay.reduce((n, d) => n + d.views, 0)).toBe(4);
    expect(dash.followers?.at(-1)?.total).toBe(2);
  });
});

describe("points and Stars pages over HTTP", () => {
  it("/airdrop lists tasks and the leaderboard; the share call is idempotent and needs a grade", async () => {
    const anon = await get("/airdrop");
    expect(anon.status).toBe(200);
    expect(await anon.text()).toContain("Leaderboard");
    const { cookie } = await signUp();
    const html = await (await get("/airdrop", { cookie })).text();
    for (const task of ["first_grade", "share_card", "follow_three", "referral"])
      expect(html).toContain(`data-task="${task}"`);
    expect(html).toContain('data-testid="points-balance">0<');
    const claim = await postForm("/airdrop", { intent: "claim", task: "first_grade" }, { cookie });
    expect(claim.status).toBe(400);
    expect(await claim.text()).toContain("Finish the task first");
    const share = await fetch(`${baseUrl()}/api/airdrop/share`, {
      method: "POST",
      headers: { cookie, origin: baseUrl() },
    });
    expect(share.status).toBe(409);
  });

  it("/staking refuses a stake beyond the balance and shows positions", async () => {
    const { cookie } = await signUp();
    const page = await (await get("/staking", { cookie })).text();
    const key = /name="request_key" value="([^"]+)"/.exec(page)?.[1];
    expect(key).toBeTruthy();
    const res = await postForm(
      "/staking",
      { intent: "stake", amount: "100", lock_days: "30", request_key: key! },
      { cookie },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("You don&#x27;t have that many points.");
    // Only plain decimal digits are an amount: hex, exponents and fractions are not whole numbers typed.
    for (const amount of ["0x10", "1e2", "12.0", "+20", ""]) {
      const odd = await postForm(
        "/staking",
        { intent: "stake", amount, lock_days: "30", request_key: key! },
        { cookie },
      );
      expect(odd.status, amount).toBe(400);
      expect(await odd.text(), amount).toContain("Stake a whole number of at least 10 points");
    }
    const grouped = await postForm(
      "/staking",
      { intent: "stake", amount: " 1,000 ", lock_days: "30", request_key: key! },
      { cookie },
    );
    expect(await grouped.text()).toContain("You don&#x27;t have that many points.");
    const unstake = await postForm("/staking", { intent: "unstake", stake_id: "999999" }, { cookie });
    expect(unstake.status).toBe(404);
  });

  it("/star-apply explains why an ungraded trader cannot apply, and refuses the POST", async () => {
    const { cookie } = await signUp();
    const html = await (await get("/star-apply", { cookie })).text();
    expect(html).toContain("A Gold grade is needed first");
    const res = await postForm("/star-apply", application, { cookie });
    expect(res.status).toBe(403);
    const bad = await postForm("/star-apply", { bio: "x", strategy: "y", markets: "" }, { cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Write at least 20 characters about yourself.");
    expect((await get("/stars")).status).toBe(200);
    expect((await get("/star-profile?u=nobody-at-all")).status).toBe(404);
    expect(await (await get("/star-personal", { cookie })).text()).toContain("You are not a Star yet");
  });

  it("/signup keeps ?ref in a hidden field", async () => {
    const html = await (await get("/signup?ref=someone")).text();
    expect(html).toContain('name="ref" value="someone"');
  });
});
