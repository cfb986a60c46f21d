import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TIERS } from "~/lib/vocabulary";

// market_leaderboard (migration 0015) on an in-memory PGlite: after grades, re-grades, follows,
// a deleted grade and a deleted trader it still says what joining users to their current
// evaluation says, the leaderboard pages follow it, and percentiles are percentileOf's.
// Trader search past the prefixes (a typo; an inner word matching more than the 200 ranked) too.
// Always PGlite: the expectations count every graded trader, so they need a population of their own
// (CI's PostgreSQL is shared by the whole suite).
delete process.env.DATABASE_URL;
process.env.DATA_DIR = "memory://";

const { sql } = await import("kysely");
const { closeDb, getDb, migrateToLatest } = await import("../platform/db.server");
const { compactLeaderboardCounts, leaderboard, LEADERBOARD_SORTS } = await import("./market.server");
const { MIN_PERCENTILE_POPULATION, percentileAmongCurrentGrades } = await import("../grades/evaluation.server");
const { searchTraders } = await import("./search.server");
const { percentileOf } = await import("~/grading/score");

type Db = Awaited<ReturnType<typeof getDb>>;
let db: Db;
const ids: number[] = [];
let seq = 0;

async function grade(userId: number, score: number | null, tier: string, result: unknown) {
  const row = await db
    .insertInto("evaluations")
    .values({
      user_id: userId,
      engine_version: "test",
      ledger_digest: "x",
      tier,
      score,
      percentile: null,
      verification_code: `GR-M${userId}-${seq++}`,
      result: JSON.stringify(result),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // As evaluateUser stores a grade: the new evaluation becomes the trader's current one.
  await db.updateTable("users").set({ current_evaluation_id: row.id }).where("id", "=", userId).execute();
  return row.id;
}

// What the board must say: users joined to their current evaluation (the query 0015 replaced).
async function joined() {
  const { rows } = await sql<{
    user_id: number;
    evaluation_id: number;
    tier: string | null;
    score: number;
    twr: number | null;
    max_drawdown: number | null;
    stars: number | null;
    followers_count: number;
  }>`
    select u.id as user_id, e.id as evaluation_id, e.tier, e.score, (e.result -> 'metrics' ->> 'twr')::float8 as twr,
      (e.result -> 'metrics' ->> 'maxDrawdown')::float8 as max_drawdown, (e.result -> 'stars' ->> 'overall')::float8 as stars, u.followers_count
    from users u join evaluations e on e.id = u.current_evaluation_id where e.score is not null order by u.id`.execute(
    db,
  );
  return rows;
}
const board = () => db.selectFrom("market_leaderboard").selectAll().orderBy("user_id").execute();
// The kept totals (0031) beside a count of the board, per tier.
async function totals() {
  const { rows } = await sql<{ tier: string | null; kept: number; counted: number }>`
    select tier, coalesce(sum(kept), 0)::int as kept, coalesce(sum(counted), 0)::int as counted from (
      select tier, n as kept, 0 as counted from market_leaderboard_counts
      union all select tier, 0, 1 from market_leaderboard) x
    group by tier order by tier`.execute(db);
  return rows;
}

beforeAll(async () => {
  await migrateToLatest();
  db = await getDb();
  const names = [
    ["michael", "Michael", "Smith"],
    ["mike_s", "Mike", "Stone"],
    ["jennifer", "Jennifer", "Brown"],
    ["jenny_b", "Jenny", "Black"],
    ["ada", "Ada", "Lovelace"],
    ["grace", "Grace", "Hopper"],
  ];
  for (let i = 0; i < 30; i++) {
    const [username, first, last] = names[i % names.length]!;
    ids.push(
      (
        await db
          .insertInto("users")
          .values({ email: `m${i}@example.com`, username: `${username}_${i}`, first_name: first, last_name: last })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  for (const [i, id] of ids.entries()) {
    if (i % 5 === 4) continue; // ungraded
    const score = i % 7 === 0 ? 50 : 20 + ((i * 37) % 70) + 0.5; // ties on 50
    await grade(id, score, TIERS[i % TIERS.length]!, {
      stars: { overall: 1 + (i % 5) },
      metrics: i % 6 === 0 ? {} : { twr: ((i * 13) % 40) / 100 - 0.1, maxDrawdown: ((i * 7) % 30) / 100 },
    });
  }
}, 60_000);

afterAll(async () => {
  await closeDb();
});

describe("market_leaderboard", () => {
  it("follows grades, re-grades, follows, deleted grades and deleted traders in their own transactions", async () => {
    expect(await board()).toEqual(await joined());
    expect((await board()).length).toBe(24);
    // A re-grade replaces the row; a grade without a score takes the trader off the board.
    await grade(ids[0]!, 99.5, "Legend", { stars: { overall: 5 }, metrics: { twr: 0.5, maxDrawdown: 0.01 } });
    await grade(ids[1]!, null, "Bronze", {});
    // Follows change the counter the followers sort reads.
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("follows").values({ follower_id: ids[2]!, followee_id: ids[3]! }).execute();
      await trx
        .updateTable("users")
        .set({ followers_count: sql`followers_count + 1` })
        .where("id", "=", ids[3]!)
        .execute();
    });
    // A rolled-back grade leaves no trace.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable("users").set({ current_evaluation_id: null }).where("id", "=", ids[2]!).execute();
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    // Deleting a trader's current grade (FK set null) or the trader (cascade).
    const current = await db
      .selectFrom("users")
      .select("current_evaluation_id")
      .where("id", "=", ids[5]!)
      .executeTakeFirstOrThrow();
    await db.deleteFrom("evaluations").where("id", "=", current.current_evaluation_id!).execute();
    await db.deleteFrom("users").where("id", "=", ids[6]!).execute();
    const rows = await board();
    expect(rows).toEqual(await joined());
    expect(rows.find((r) => r.user_id === ids[0])).toMatchObject({
      score: 99.5,
      tier: "Legend",
      twr: 0.5,
      max_drawdown: 0.01,
      stars: 5,
    });
    expect(rows.find((r) => r.user_id === ids[3])?.followers_count).toBe(1);
    expect(rows.map((r) => r.user_id)).not.toContain(ids[1]);
    expect(rows.map((r) => r.user_id)).not.toContain(ids[5]);
    expect(rows.map((r) => r.user_id)).toContain(ids[2]);
    expect(rows.length).toBe(21);
    // The kept totals said the same all along, and still do once folded into a row per tier.
    const before = await totals();
    expect(before.map((t) => t.kept)).toEqual(before.map((t) => t.counted));
    expect(before.reduce((n, t) => n + t.counted, 0)).toBe(21);
    const deltas = await db.selectFrom("market_leaderboard_counts").select("n").execute();
    expect(deltas.length).toBeGreaterThan(20);
    await compactLeaderboardCounts();
    expect(await totals()).toEqual(before);
    const folded = await db.selectFrom("market_leaderboard_counts").select(["tier", "n"]).execute();
    expect(folded.length).toBe(before.length);
    // A few changes later, under the threshold, it leaves them be.
    await grade(ids[0]!, 10.5, "Bronze", { stars: { overall: 1 }, metrics: {} });
    await compactLeaderboardCounts();
    expect((await db.selectFrom("market_leaderboard_counts").select("n").execute()).length).toBe(before.length + 2);
    expect((await totals()).every((t) => t.kept === t.counted)).toBe(true);
  });

  it("pages every sort, order and tier as the join ordered them (ties by trader id)", async () => {
    const all = await joined();
    const key = { score: "score", return: "twr", drawdown: "max_drawdown", followers: "followers_count" } as const;
    for (const sort_by of LEADERBOARD_SORTS) {
      for (const order of ["asc", "desc"] as const) {
        for (const tier of [undefined, "Gold"] as const) {
          const k = key[sort_by];
          const expected = all
            .filter((r) => !tier || r.tier === tier)
            .sort((a, b) => {
              const [x, y] = [a[k], b[k]];
              if (x === null || y === null) return x === y ? a.user_id - b.user_id : x === null ? 1 : -1; // nulls last
              return (order === "asc" ? x - y : y - x) || a.user_id - b.user_id;
            });
          const pages = [];
          for (let page = 1; page <= 3; page++)
            pages.push(...(await leaderboard({ page, page_size: 8, sort_by, order }, tier ? { tier } : {})).data);
          expect(
            pages.map((r) => r.id),
            `${sort_by} ${order} ${tier}`,
          ).toEqual(expected.map((r) => r.user_id));
          expect(pages.map((r) => r.rank)).toEqual(expected.map((_, i) => i + 1));
          const first = await leaderboard({ page: 1, page_size: 8, sort_by, order }, tier ? { tier } : {});
          expect(first.meta.total).toBe(expected.length);
          // Past the last page: no rows, the same total.
          const past = await leaderboard({ page: 99, page_size: 8, sort_by, order }, tier ? { tier } : {});
          expect([past.data.length, past.meta.total]).toEqual([0, expected.length]);
          if (expected[0]) {
            expect(first.data[0]).toMatchObject({
              score: expected[0].score,
              return: expected[0].twr,
              drawdown: expected[0].max_drawdown,
              stars: expected[0].stars ?? 0,
              tier: expected[0].tier,
            });
          }
        }
      }
    }
  });

  it("answers percentileOf over the other traders' current scores, from thirty graded traders on", async () => {
    // Enough graded traders that a percentile is given (fewer: null, checked below and in percentile.server.test.ts).
    for (let i = 0; i < 12; i++) {
      const id = (
        await db
          .insertInto("users")
          .values({ email: `filler${i}@example.com`, username: `filler_${i}` })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      await grade(id, 10 + i * 7.25, "Silver", { stars: { overall: 2 }, metrics: {} });
    }
    const all = await joined();
    expect(all.length).toBeGreaterThanOrEqual(MIN_PERCENTILE_POPULATION);
    for (const userId of [ids[0]!, ids[4]!, ids[2]!]) {
      const others = all.filter((r) => r.user_id !== userId).map((r) => r.score);
      for (const score of [0, 20.5, 50, 50.000001, 57.5, 99.5, 100]) {
        expect(await percentileAmongCurrentGrades(userId, score)).toBe(percentileOf(score, others));
      }
    }
    await db.updateTable("users").set({ current_evaluation_id: null }).execute();
    expect(await percentileAmongCurrentGrades(ids[0]!, 50)).toBeNull();
  });
});

describe("trader search beyond prefixes", () => {
  it("finds a typo and an inner word by similarity, and fills a page with prefixes", async () => {
    // A typo: no prefix matches, a few trigram matches.
    expect((await searchTraders("jennifre")).map((r) => r.first_name)).toContain("Jennifer");
    // More than 200 matches of an inner word: 220 more "…_lovelace" traders.
    await db
      .insertInto("users")
      .values(Array.from({ length: 220 }, (_, i) => ({ email: `l${i}@example.com`, username: `x${i}_lovelace` })))
      .execute();
    const inner = await searchTraders("ovelace");
    expect(inner.length).toBe(20);
    expect(inner.every((r) => /lovelace/i.test(`${r.username} ${r.last_name}`))).toBe(true);
    // Username prefixes fill a page ahead of similar names, in index order, ranked.
    // The dictionary follows renames (a trigger on users): the new name's typo finds the trader,
    // the old one's no longer does.
    const renamed = await db
      .insertInto("users")
      .values({ email: "renamed@example.com", username: "rn_someone", first_name: "Quirinus" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await searchTraders("quirinuss")).map((r) => r.id)).toContain(renamed.id);
    await db.updateTable("users").set({ first_name: "Zebedeus" }).where("id", "=", renamed.id).execute();
    expect((await searchTraders("zebedeuss")).map((r) => r.id)).toContain(renamed.id);
    expect((await searchTraders("quirinuss")).map((r) => r.id)).not.toContain(renamed.id);
    const prefix = await searchTraders("x10");
    expect(prefix.slice(0, 11).map((r) => r.username)).toEqual([
      "x10_lovelace",
      ...Array.from({ length: 10 }, (_, i) => `x10${i}_lovelace`),
    ]);
  });
});
