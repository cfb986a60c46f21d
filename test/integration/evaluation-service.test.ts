import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINE_VERSION } from "~/grading/version";

// In-process against PGlite (or DATABASE_URL's PostgreSQL in CI), with hand-made imports: the
// limits, codes and idempotence of the evaluation flow, whatever provider fed the ledger.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
// Seven automatic grades a day, so the test below can reach the bound.
process.env.AUTO_GRADES_PER_DAY = "7";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const {
  consumeAllowance,
  evaluateUser,
  currentEvaluation,
  triesLeft,
  StillImporting,
  EVALUATION_LEASE_MS,
  MIN_PERCENTILE_POPULATION,
} = await import("~/server/grades/evaluation.server");
const { isSimulated } = await import("~/server/platform/demo.server");
const { saveImport, linkAccount } = await import("~/server/linking/imports.server");
// The benchmark series comes from the price source; its simulator answers at the network edge.
await (await import("../mocks")).startProviderMocks({ prices: true });

const noReimport = async () => {};
let seq = 0;

async function newUser(extraTries = 0) {
  const db = await getDb();
  const row = await db
    .insertInto("users")
    .values({ email: `eval-${Date.now()}-${seq++}-${Math.random()}@example.com` })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (extraTries) await db.updateTable("users").set({ extra_tries: extraTries }).where("id", "=", row.id).execute();
  return row.id;
}

async function linkWithHistory(userId: number, trades = 4) {
  const link = await linkAccount({
    userId,
    kind: "plaid",
    fingerprint: `plaid:test:${userId}:${Math.random()}`,
    label: "Test brokerage",
  });
  if (!link.ok) throw new Error("link failed");
  const t0 = Date.UTC(2025, 0, 2);
  await saveImport(link.id, {
    trades: Array.from({ length: trades }, (_, i) => ({
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

async function addTrade(accountId: number, n: number) {
  await saveImport(accountId, {
    trades: [
      {
        externalId: `extra-${n}`,
        time: new Date(Date.UTC(2025, 5, 1) + n * 3_600_000),
        symbol: "MSFT",
        assetClass: "stock",
        side: n % 2 ? "sell" : "buy",
        quantity: 1,
        price: 300,
        fee: 0,
      },
    ],
    cashFlows: [],
    marks: [],
    payloads: [],
  });
}

beforeAll(async () => {
  await migrateToLatest();
});

describe("evaluateUser", () => {
  it("answers 403 without a linked account", async () => {
    const userId = await newUser();
    expect(await evaluateUser(userId, "all", noReimport)).toMatchObject({
      code: 403,
      message: "Link your Robinhood or Metamask account first, then give it another go.",
    });
    expect(await evaluateUser(userId, "evm", noReimport)).toMatchObject({ code: 403 });
  });

  it("grades, stores the evaluation as the current grade, and uses one try", async () => {
    const userId = await newUser();
    await linkWithHistory(userId);
    const out = await evaluateUser(userId, "plaid", noReimport);
    expect(out.code).toBe(200);
    const current = await currentEvaluation(userId);
    expect(current?.result.metrics.roundTrips).toBe(2);
    // Engine v3, measured against the S&P 500 over the same time (an all-stock record).
    expect(current?.engineVersion).toBe(ENGINE_VERSION);
    const benchmark = current!.result.metrics.benchmark!;
    expect(benchmark.symbol).toBe("SPY");
    expect(benchmark.excess).toBeCloseTo(current!.result.metrics.twr! - benchmark.return, 12);
    expect(current!.result.curve.every((p) => typeof p.benchmark === "number")).toBe(true);
    expect(current?.verificationCode).toMatch(/^GR-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    expect(current?.ledgerDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(await triesLeft(userId)).toBe(2);
  });

  it("answers 2002 without using a try when nothing is new, and grades again when something is", async () => {
    const userId = await newUser();
    const account = await linkWithHistory(userId);
    const first = await evaluateUser(userId, "all", noReimport);
    const again = await evaluateUser(userId, "all", noReimport);
    expect(again.code).toBe(2002);
    if (first.code === 200 && again.code === 2002) expect(again.evaluationId).toBe(first.evaluationId);
    expect(await triesLeft(userId)).toBe(2);
    await addTrade(account, 1);
    const third = await evaluateUser(userId, "all", noReimport);
    expect(third.code).toBe(200);
    expect(await triesLeft(userId)).toBe(1);
    const db = await getDb();
    const history = await db.selectFrom("evaluations").select("id").where("user_id", "=", userId).execute();
    expect(history).toHaveLength(2);
  });

  it("answers 401 when the free tries are used up", async () => {
    const userId = await newUser();
    const account = await linkWithHistory(userId);
    for (let i = 0; i < 3; i++) {
      await addTrade(account, i);
      expect((await evaluateUser(userId, "all", noReimport)).code).toBe(200);
    }
    await addTrade(account, 99);
    expect(await evaluateUser(userId, "all", noReimport)).toMatchObject({
      code: 401,
      message: "Your free tries are all used up! Buy a pass to keep going.",
    });
  });

  it("answers 402 at the daily limit, and gives the try back", async () => {
    const userId = await newUser(10);
    const account = await linkWithHistory(userId);
    for (let i = 0; i < 5; i++) {
      await addTrade(account, i);
      expect((await evaluateUser(userId, "all", noReimport)).code).toBe(200);
    }
    await addTrade(account, 50);
    const before = await triesLeft(userId);
    expect(await evaluateUser(userId, "all", noReimport)).toMatchObject({
      code: 402,
      message: "You've hit today's limit for evaluations—try again tomorrow!",
    });
    expect(await triesLeft(userId)).toBe(before);
  });

  it("uses no try and keeps the grade when the provider fails", async () => {
    const userId = await newUser();
    await linkWithHistory(userId);
    const out = await evaluateUser(userId, "all", async () => {
      throw new Error("provider down");
    });
    expect(out).toMatchObject({ code: 502, message: "Evaluation is failed!" });
    expect(await triesLeft(userId)).toBe(3);
    expect(await currentEvaluation(userId)).toBeNull();
  });

  it("answers 425 while the trades are importing, using no try", async () => {
    const userId = await newUser();
    await linkWithHistory(userId);
    const out = await evaluateUser(userId, "all", async () => {
      throw new StillImporting();
    });
    expect(out).toEqual({ code: 425, message: "Your trades are still importing. Try again when the import is done." });
    expect(await triesLeft(userId)).toBe(3);
    expect(await currentEvaluation(userId)).toBeNull();
  });

  it("an automatic re-grade uses no try and does not count toward the daily limit, but has a bound of its own", async () => {
    const userId = await newUser();
    const account = await linkWithHistory(userId);
    const db = await getDb();
    for (let i = 0; i < 7; i++) {
      await addTrade(account, 200 + i);
      expect((await evaluateUser(userId, "all", noReimport, { automatic: true })).code).toBe(200);
    }
    expect(await triesLeft(userId)).toBe(3);
    expect(
      await db
        .selectFrom("evaluation_days")
        .select(["count", "automatic"])
        .where("user_id", "=", userId)
        .executeTakeFirst(),
    ).toEqual({ count: 0, automatic: 7 });
    expect(await db.selectFrom("evaluations").select("id").where("user_id", "=", userId).execute()).toHaveLength(7);
    // AUTO_GRADES_PER_DAY (7 here) reached: the next is refused, and nothing reaches the public log.
    const logged = async () =>
      (
        await db
          .selectFrom("grade_log")
          .innerJoin("evaluations", "evaluations.verification_code", "grade_log.code")
          .select("grade_log.seq")
          .where("evaluations.user_id", "=", userId)
          .execute()
      ).length;
    expect(await logged()).toBe(7);
    await addTrade(account, 250);
    expect(await evaluateUser(userId, "all", noReimport, { automatic: true })).toEqual({
      code: 402,
      message: "You've hit today's limit for evaluations—try again tomorrow!",
    });
    expect(await db.selectFrom("evaluations").select("id").where("user_id", "=", userId).execute()).toHaveLength(7);
    expect(await logged()).toBe(7);
    // The trader's own request still uses a try.
    await addTrade(account, 300);
    expect((await evaluateUser(userId, "all", noReimport)).code).toBe(200);
    expect(await triesLeft(userId)).toBe(2);
  });

  it("runs one evaluation per user at a time", async () => {
    const userId = await newUser();
    await linkWithHistory(userId);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = evaluateUser(userId, "all", () => gate);
    await new Promise((r) => setTimeout(r, 50));
    expect(await evaluateUser(userId, "all", noReimport)).toMatchObject({ code: 409 });
    release();
    expect((await slow).code).toBe(200);
  });

  it("frees the slot of a process that died within seconds (a lease, not a 5-minute lock)", async () => {
    const db = await getDb();
    const userId = await newUser();
    await linkWithHistory(userId);
    // A holder that renewed 5 s ago is alive: the slot is taken.
    await db
      .updateTable("users")
      .set({ evaluating_since: sql`now() - interval '5 seconds'` })
      .where("id", "=", userId)
      .execute();
    expect(await evaluateUser(userId, "all", noReimport)).toMatchObject({ code: 409 });
    // One silent for longer than the lease (killed with -9 mid-evaluation) no longer holds it.
    await db
      .updateTable("users")
      .set({ evaluating_since: sql`now() - make_interval(secs => ${EVALUATION_LEASE_MS / 1000 + 1})` })
      .where("id", "=", userId)
      .execute();
    expect((await evaluateUser(userId, "all", noReimport)).code).toBe(200);
    const after = await db
      .selectFrom("users")
      .select("evaluating_since")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(after.evaluating_since).toBeNull();
  });

  it("marks a grade from simulated provider histories as demo data", async () => {
    const db = await getDb();
    const userId = await newUser();
    await linkWithHistory(userId);
    const out = await evaluateUser(userId, "all", noReimport);
    expect(out.code).toBe(200);
    const row = await db
      .selectFrom("evaluations")
      .select("demo")
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    // No PLAID_CLIENT_ID/PLAID_SECRET in the test environment: Plaid is simulated.
    expect(row.demo).toBe(isSimulated("plaid"));
    expect(row.demo).toBe(true);
  });

  it("reports a percentile among current grades from the database", async () => {
    // A percentile needs MIN_PERCENTILE_POPULATION graded traders: this file may run alone on an
    // empty database, so it grades enough others itself (scores 0–29, stored as the seed does).
    const db = await getDb();
    for (let i = 0; i < MIN_PERCENTILE_POPULATION; i++) {
      const other = await newUser();
      const { id } = await db
        .insertInto("evaluations")
        .values({
          user_id: other,
          engine_version: "test",
          ledger_digest: "test",
          tier: "Bronze",
          score: i,
          verification_code: `PCT-${other}`,
          result: JSON.stringify({ tier: "Bronze", score: i }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.updateTable("users").set({ current_evaluation_id: id }).where("id", "=", other).execute();
    }
    const userId = await newUser();
    await linkWithHistory(userId, 6);
    await evaluateUser(userId, "all", noReimport);
    const current = await currentEvaluation(userId);
    expect(current?.result.percentile).toBeGreaterThanOrEqual(0);
    expect(current?.result.percentile).toBeLessThanOrEqual(1);
  });
});

describe("consumeAllowance under concurrency", () => {
  it("lets exactly 3 of 50 concurrent evaluations through against 3 remaining tries", async () => {
    const userId = await newUser();
    const db = await getDb();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        db
          .transaction()
          .execute((trx) => consumeAllowance(trx, userId))
          .catch(() => ({ ok: false as const, code: 0 })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(await triesLeft(userId)).toBe(0);
  });
});
