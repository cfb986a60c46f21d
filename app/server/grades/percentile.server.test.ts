import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The percentile among current grades, in process on an in-memory PGlite: always, since it counts
// every graded trader (CI's PostgreSQL is shared by the whole suite).
delete process.env.DATABASE_URL;
process.env.DATA_DIR = "memory://";

const { closeDb, getDb, migrateToLatest } = await import("../platform/db.server");
const { MIN_PERCENTILE_POPULATION, percentileAmongCurrentGrades } = await import("./evaluation.server");

type Db = Awaited<ReturnType<typeof getDb>>;
let db: Db;
const users: number[] = [];

async function gradedTrader(score: number) {
  const id = (
    await db
      .insertInto("users")
      .values({ email: `t${users.length}@example.com` })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const ev = await db
    .insertInto("evaluations")
    .values({
      user_id: id,
      engine_version: "2.0.0",
      ledger_digest: "d".repeat(64),
      tier: "Gold",
      score,
      percentile: null,
      verification_code: `GR-P${String(users.length).padStart(3, "0")}-AAA1`,
      result: "{}",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("users").set({ current_evaluation_id: ev.id }).where("id", "=", id).execute();
  users.push(id);
  return id;
}

beforeAll(async () => {
  await migrateToLatest();
  db = await getDb();
}, 60_000);

afterAll(async () => {
  await closeDb();
});

describe("percentileAmongCurrentGrades", () => {
  it("is withheld with two graded traders, and given from thirty on", async () => {
    const me = await gradedTrader(50);
    await gradedTrader(60);
    // Two graded traders: "better than 0 %" would mean nothing.
    expect(await percentileAmongCurrentGrades(me, 50)).toBeNull();
    while (users.length < MIN_PERCENTILE_POPULATION - 1) await gradedTrader(users.length % 2 ? 40 : 70);
    expect(await percentileAmongCurrentGrades(me, 50)).toBeNull();
    await gradedTrader(10);
    expect(MIN_PERCENTILE_POPULATION).toBe(30);
    // 29 others: 60 and fourteen at 70 above; thirteen at 40 and one at 10 below.
    const p = await percentileAmongCurrentGrades(me, 50);
    expect(p).toBeCloseTo(14 / 29, 10);
  });
});
