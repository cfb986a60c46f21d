import { beforeAll, describe, expect, it } from "vitest";
import { get, signUp } from "../support/http";

// Leaderboard seasons (issue 34 point 6): closing a season in process (points once, verified grades
// only, winners told), and the /seasons page over HTTP against the built server, which reads the
// same database (on PGlite there is none to share, so the page's data part needs PostgreSQL).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const seasons = await import("~/server/community/seasons.server");
const points = await import("~/server/community/points.server");
const { seasonOf, shiftSeason } = await import("~/lib/seasons");
const { Seasons } = await import("~/server/http/api-schemas.server");

beforeAll(async () => {
  await migrateToLatest();
});

let seq = 0;
const tag = `${Date.now().toString(36)}${process.pid}`;

async function trader(last: string) {
  const db = await getDb();
  const row = await db
    .insertInto("users")
    .values({ email: `season-${tag}-${seq++}@example.com`, first_name: "Season", last_name: `${last}${tag}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A stored curve for a month: the day before at index 1, then one point per day. */
function curve(month: string, returns: number[]) {
  let index = 1;
  const points = [{ date: `${shiftSeason(month, -1)}-28`, equity: 1, index, drawdown: 0 }];
  returns.forEach((r, i) => {
    index *= 1 + r;
    points.push({ date: `${month}-${String(i + 1).padStart(2, "0")}`, equity: index, index, drawdown: 0 });
  });
  return points;
}

async function grade(
  userId: number,
  createdAt: Date,
  returns: number[],
  opts: { demo?: boolean; self_reported?: boolean; provisional?: boolean; tier?: string } = {},
) {
  const db = await getDb();
  const month = seasonOf(createdAt);
  await db
    .insertInto("evaluations")
    .values({
      user_id: userId,
      engine_version: "test",
      ledger_digest: "x",
      tier: opts.tier ?? "Gold",
      score: 70,
      percentile: null,
      verification_code: `GR-SEA${userId}-${seq++}`,
      result: JSON.stringify({ provisional: opts.provisional ?? false, curve: curve(month, returns) }),
      demo: opts.demo ?? false,
      self_reported: opts.self_reported ?? false,
      created_at: createdAt,
    })
    .execute();
}

// Steady: +0.6 %, +0.4 % alternating; choppy: the same sign pattern, wider; losing: mostly down.
const steady = Array.from({ length: 20 }, (_, i) => (i % 2 ? 0.004 : 0.006));
const choppy = Array.from({ length: 20 }, (_, i) => (i % 3 === 2 ? -0.02 : 0.025));
const losing = Array.from({ length: 20 }, (_, i) => (i % 2 ? -0.01 : 0.002));
const brilliant = Array.from({ length: 20 }, (_, i) => (i % 2 ? 0.0101 : 0.0099));

async function seasonWins(userIds: number[]) {
  const db = await getDb();
  return db
    .selectFrom("notifications")
    .select(["user_id", "kind", "url", "data"])
    .where("user_id", "in", userIds)
    .where("kind", "=", "season_win")
    .execute();
}

// A past month of its own (no other test grades in it): some month of the 1970s–1990s.
const month = `19${70 + Math.floor(Math.random() * 29)}-${String(1 + Math.floor(Math.random() * 12)).padStart(2, "0")}`;
const mid = new Date(`${month}-15T12:00:00Z`);

describe("closing a season", () => {
  it("pays the top verified traders once, leaves out demo, self-reported and provisional grades, and tells the winners", async () => {
    const first = await trader("Steady");
    const second = await trader("Choppy");
    const selfReported = await trader("Statement");
    const demo = await trader("Demo");
    const provisional = await trader("Provisional");
    const loser = await trader("Losing");
    const few = await trader("Few");
    await grade(first, new Date(mid.getTime() - 86_400_000), losing);
    // The latest verified grade made in the month is the one that counts…
    await grade(first, mid, steady, { tier: "Master" });
    // …a self-reported one made after it does not replace it, and one made next month is not this season's.
    await grade(first, new Date(mid.getTime() + 3_600_000), losing, { self_reported: true });
    await grade(first, new Date(`${shiftSeason(month, 1)}-02T00:00:00Z`), losing);
    await grade(second, mid, choppy);
    await grade(selfReported, mid, brilliant, { self_reported: true });
    await grade(demo, mid, brilliant, { demo: true });
    await grade(provisional, mid, brilliant, { provisional: true });
    await grade(loser, mid, losing);
    await grade(few, mid, brilliant.slice(0, 9));

    const standings = await seasons.computeStandings(await getDb(), month);
    expect(standings.map((s) => s.userId)).toEqual([first, second, loser]);
    expect(standings[0]).toMatchObject({ rank: 1, tier: "Master", activeDays: 20 });
    expect(standings[2]!.score).toBeLessThan(0);

    const all = [first, second, selfReported, demo, provisional, loser, few];
    const before = await Promise.all(all.map((id) => points.pointsBalance(id)));
    expect(await seasons.closeSeason(month)).toEqual({ ok: true, closed: true, winners: 2 });
    const after = await Promise.all(all.map((id) => points.pointsBalance(id)));
    expect(after.map((b, i) => b - before[i]!)).toEqual([1000, 750, 0, 0, 0, 0, 0]);
    for (const id of [first, second]) expect(await points.ledgerSum(id)).toBe(await points.pointsBalance(id));
    // The points history says what paid them.
    expect((await points.pointsHistory(first))[0]).toMatchObject({ amount: 1000, reason: `season:${month}` });

    const told = await seasonWins(all);
    expect(told.map((n) => n.user_id).sort((a, b) => a - b)).toEqual([first, second].sort((a, b) => a - b));
    expect(told.find((n) => n.user_id === second)).toMatchObject({
      url: `/seasons#season-${month}`,
      data: { month, rank: 2, points: 750 },
    });

    // Again, twice at once and once more: nothing changes.
    const again = await Promise.all([seasons.closeSeason(month), seasons.closeSeason(month)]);
    expect(again).toEqual([
      { ok: true, closed: false, winners: 0 },
      { ok: true, closed: false, winners: 0 },
    ]);
    expect(await seasons.closeSeason(month)).toMatchObject({ closed: false });
    expect(await Promise.all(all.map((id) => points.pointsBalance(id)))).toEqual(after);
    expect(await seasonWins(all)).toHaveLength(2);
    const db = await getDb();
    const winners = await db
      .selectFrom("season_winners")
      .select(["user_id", "rank", "points", "tier"])
      .where("month", "=", month)
      .orderBy("rank")
      .execute();
    expect(winners).toEqual([
      { user_id: first, rank: 1, points: 1000, tier: "Master" },
      { user_id: second, rank: 2, points: 750, tier: "Gold" },
    ]);

    const past = await seasons.pastSeasons(100);
    expect(past.find((p) => p.month === month)?.winners.map((w) => w.userId)).toEqual([first, second]);
  });

  it("refuses the running season and a malformed month", async () => {
    expect(await seasons.closeSeason(seasonOf(new Date()))).toMatchObject({ ok: false, status: 409 });
    expect(await seasons.closeSeason("2026-13")).toMatchObject({ ok: false, status: 400 });
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the seasons page", () => {
  it("shows the running season's standings, its end and the past winners, without JavaScript", async () => {
    const leader = await trader("Leader");
    const runnerUp = await trader("Runner");
    await grade(leader, new Date(), steady, { tier: "Legend" });
    await grade(runnerUp, new Date(), choppy);
    const past = `${1940 + Math.floor(Math.random() * 29)}-06`;
    const champion = await trader("Champion");
    await grade(champion, new Date(`${past}-10T00:00:00Z`), steady);
    expect(await seasons.closeSeason(past)).toMatchObject({ ok: true, closed: true, winners: 1 });

    const { cookie } = await signUp();
    const res = await get("/seasons", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Seasons<\/h1>/);
    const table = html.slice(html.indexOf('data-testid="season-standings"'));
    const at = (name: string) => table.indexOf(`${name}${tag}`);
    expect(at("Leader")).toBeGreaterThan(0);
    expect(at("Runner")).toBeGreaterThan(at("Leader"));
    expect(table).toContain("Legend");
    expect(html).toMatch(/Ends <time[^>]*>\d{1,2} [A-Z][a-z]+ \d{4}, 00:00 UTC<\/time> \(\d+ days? left\)/);
    expect(html).toMatch(/\d+ traders? ranked so far/);
    expect(html).toContain("You are not ranked yet");
    const section = html.slice(html.indexOf(`id="season-${past}"`));
    expect(section).toContain(`Champion${tag}`);
    expect(section).toContain("1,000");
    // The market leaderboard links here.
    expect(await (await get("/market/traders", { cookie })).text()).toContain('href="/seasons"');
    // Members only, as the market.
    expect((await get("/seasons")).status).toBe(302);

    // The same in the JSON API, in the shape its schema documents.
    const api = await get("/api/portal/seasons", { cookie });
    expect(api.status).toBe(200);
    const body = Seasons.parse(await api.json());
    const names = body.data.standings.map((s) => s.last_name);
    expect(names.indexOf(`Leader${tag}`)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(`Runner${tag}`)).toBeGreaterThan(names.indexOf(`Leader${tag}`));
    expect(body.data.me).toBeNull();
    expect(body.data.past.find((p) => p.month === past)?.winners).toMatchObject([
      { rank: 1, id: champion, points: 1000 },
    ]);
    expect((await get("/api/portal/seasons")).status).toBe(401);
  });
});
