import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";

// Grades re-made under a new engine (DECISIONS 168), in process on an in-memory PGlite (or
// DATABASE_URL's PostgreSQL): the batch, what it skips, what it logs, and a broken history among
// good ones. test/integration/engine-regrade.test.ts runs the job in a restarted server.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
// On PostgreSQL a database of its own: the grade log it appends to is one chain, and another file's
// test (grade-log.server.test.ts) counts that chain's entries.
else Object.assign(process.env, await (await import("../../../test/support/server")).ownDatabase());

const { getDb, migrateToLatest } = await import("../platform/db.server");
const { ENGINE_VERSION } = await import("~/grading");
const { evaluateUser, gradeSeededDemoTrader, remakeGrade } = await import("./evaluation.server");
const { engineRegradeJob, engineRegradeStats } = await import("./engine-regrade.server");
const { auditGradeLog } = await import("./grade-log.server");
const { saveImport, linkAccount } = await import("../linking/imports.server");
await (await import("../../../test/mocks")).startProviderMocks({ prices: true });

const OLDER = "1.0.0";
let seq = 0;

async function newUser() {
  const db = await getDb();
  const row = await db
    .insertInto("users")
    .values({ email: `regrade-${Date.now()}-${seq++}-${Math.random()}@example.com` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function linkWithHistory(userId: number) {
  const link = await linkAccount({
    userId,
    kind: "plaid",
    fingerprint: `plaid:test:${userId}:${Math.random()}`,
    label: "Test brokerage",
  });
  if (!link.ok) throw new Error("link failed");
  const t0 = Date.UTC(2025, 0, 2);
  await saveImport(link.id, {
    trades: Array.from({ length: 6 }, (_, i) => ({
      externalId: `t${i}`,
      time: new Date(t0 + i * 86_400_000 * 10),
      symbol: "AAPL",
      assetClass: "stock" as const,
      side: i % 2 === 0 ? ("buy" as const) : ("sell" as const),
      quantity: 10,
      price: 100 + i * 3,
      fee: 1,
    })),
    cashFlows: [{ externalId: "d1", time: new Date(t0 - 86_400_000), amount: 10_000 }],
    marks: [],
    payloads: [],
  });
  return link.id;
}

/** A trader graded (a try used) whose current grade then reads as an older engine's. */
async function gradedUnderOlder(tier?: string) {
  const userId = await newUser();
  const account = await linkWithHistory(userId);
  const outcome = await evaluateUser(userId, "all", async () => {});
  if (outcome.code !== 200) throw new Error(`not graded: ${outcome.code}`);
  const db = await getDb();
  await db
    .updateTable("evaluations")
    .set({ engine_version: OLDER, ...(tier ? { tier } : {}) })
    .where("id", "=", outcome.evaluationId)
    .execute();
  return { userId, account, evaluationId: outcome.evaluationId, code: outcome.verificationCode };
}

async function state(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "users.tries_used",
      "evaluations.id",
      "evaluations.engine_version",
      "evaluations.remade_from",
      "evaluations.tier",
      "evaluations.score",
      "evaluations.demo",
      "evaluations.verification_code",
      (eb) =>
        eb
          .selectFrom("grade_log")
          .select(sql<number>`count(*)::int`.as("n"))
          .whereRef("grade_log.code", "=", "evaluations.verification_code")
          .as("logged"),
      (eb) =>
        eb
          .selectFrom("evaluation_days")
          .select(sql<string>`coalesce(sum(count), 0) || '/' || coalesce(sum(automatic), 0)`.as("d"))
          .whereRef("evaluation_days.user_id", "=", "users.id")
          .as("days"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirstOrThrow();
}

async function recomputed(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("notifications")
    .select(["url", "data"])
    .where("user_id", "=", userId)
    .where("kind", "=", "grade_recomputed")
    .execute();
}

beforeAll(async () => {
  await migrateToLatest();
}, 120_000);

describe("re-making grades under a new engine", () => {
  it("re-makes each older grade once, logged, free, tells the trader and skips what is already current", async () => {
    const moved = await gradedUnderOlder("Legend");
    const held = await gradedUnderOlder();
    const broken = await gradedUnderOlder();
    // Graded again by the trader before the job came: already under this engine.
    const meanwhile = await gradedUnderOlder();
    const again = await evaluateUser(meanwhile.userId, "all", async () => {});
    expect(again.code).toBe(200);
    // A history nobody can read: a cash flow at no time.
    const db = await getDb();
    await db
      .insertInto("cash_flows")
      .values({ linked_account_id: broken.account, external_id: "broken", time: "-infinity", amount: 1 })
      .execute();
    const before = await Promise.all([moved, held, broken, meanwhile].map((t) => state(t.userId)));
    const failedBefore = engineRegradeStats.failed;

    await engineRegradeJob({ version: ENGINE_VERSION, after: 0 });

    for (const [i, t] of [moved, held].entries()) {
      const now = await state(t.userId);
      expect(now).toMatchObject({ engine_version: ENGINE_VERSION, remade_from: t.evaluationId, logged: 1 });
      // No try, no evaluation of the day, no automatic grade.
      expect(now.tries_used).toBe(before[i]!.tries_used);
      expect(now.days).toBe(before[i]!.days);
      const [note, ...more] = await recomputed(t.userId);
      expect(more).toEqual([]);
      expect(note!.url).toBe(`/glossary#engine-v${ENGINE_VERSION}`);
      expect(note!.data).toMatchObject({
        version: ENGINE_VERSION,
        previousVersion: OLDER,
        from: i === 0 ? "Legend" : before[i]!.tier,
        to: now.tier,
        toScore: now.score,
      });
    }
    // The broken one failed alone, counted, and kept their grade.
    expect(engineRegradeStats.failed).toBe(failedBefore + 1);
    expect((await state(broken.userId)).id).toBe(broken.evaluationId);
    expect(await recomputed(broken.userId)).toEqual([]);
    // The trader who graded meanwhile is not graded twice.
    expect((await state(meanwhile.userId)).id).toBe(before[3]!.id);
    expect(await recomputed(meanwhile.userId)).toEqual([]);

    // Again: nothing more.
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("evaluations")
            .select(sql<string>`count(*)`.as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    await engineRegradeJob({ version: ENGINE_VERSION, after: 0 });
    expect(await count()).toBe(n);
    // A batch sent by a process of another version does nothing.
    await db
      .updateTable("evaluations")
      .set({ engine_version: OLDER })
      .where("id", "=", (await state(held.userId)).id)
      .execute();
    await engineRegradeJob({ version: "0.0.1", after: 0 });
    expect(await count()).toBe(n);
  }, 120_000);

  it("re-makes a trader once when two try at the same moment", async () => {
    const t = await gradedUnderOlder();
    const outcomes = await Promise.all([remakeGrade(t.userId), remakeGrade(t.userId)]);
    expect(outcomes.filter((o) => o === "remade")).toHaveLength(1);
    const db = await getDb();
    const rows = await db.selectFrom("evaluations").select("id").where("user_id", "=", t.userId).execute();
    expect(rows).toHaveLength(2);
    expect(await recomputed(t.userId)).toHaveLength(1);
  }, 60_000);

  it("re-makes a demo community grade as a demo grade, outside the public log", async () => {
    const userId = await newUser();
    await linkWithHistory(userId);
    const seeded = await gradeSeededDemoTrader(userId);
    const db = await getDb();
    await db.updateTable("evaluations").set({ engine_version: OLDER }).where("id", "=", seeded!.evaluationId).execute();
    expect(await remakeGrade(userId)).toBe("remade");
    const now = await state(userId);
    expect(now).toMatchObject({
      engine_version: ENGINE_VERSION,
      remade_from: seeded!.evaluationId,
      logged: 0,
      demo: true,
    });
    // The audit knows it was never to be logged.
    expect((await auditGradeLog()).problems.filter((p) => p.includes(now.verification_code))).toEqual([]);
  }, 60_000);
});
