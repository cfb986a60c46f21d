import { beforeAll, describe, expect, it } from "vitest";

// In-process against PGlite (or DATABASE_URL's PostgreSQL in CI): money and points under
// concurrency. Every operation here is hit at once by many callers and must change state once.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { fulfilCheckoutSession } = await import("~/server/billing/fulfilment.server");
const { consumeAllowance, triesLeft } = await import("~/server/grades/evaluation.server");
const points = await import("~/server/community/points.server");
const { sql } = await import("kysely");

let seq = 0;
async function newUser(fields: Record<string, unknown> = {}) {
  const db = await getDb();
  const row = await db
    .insertInto("users")
    .values({ email: `points-${Date.now()}-${seq++}-${Math.random()}@example.com`, ...fields } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function giveEvaluation(userId: number) {
  const db = await getDb();
  const ev = await db
    .insertInto("evaluations")
    .values({
      user_id: userId,
      engine_version: "test",
      ledger_digest: "x",
      tier: "Gold",
      score: 80,
      percentile: null,
      verification_code: `GR-T${userId}-${seq++}`,
      result: "{}",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .updateTable("users")
    .set({ current_evaluation_id: ev.id, email_verified_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

async function grant(userId: number, amount: number) {
  const db = await getDb();
  await db
    .transaction()
    .execute((trx) => points.applyPoints(trx, userId, amount, "test:grant", `test:grant:${userId}:${seq++}`));
}

async function expectConsistent(userId: number) {
  const balance = await points.pointsBalance(userId);
  expect(balance).toBeGreaterThanOrEqual(0);
  // balance == ledger sum: stakes are debits in the ledger, unstakes credits.
  expect(await points.ledgerSum(userId)).toBe(balance);
}

beforeAll(async () => {
  await migrateToLatest();
});

describe("pass fulfilment", () => {
  it("20 concurrent fulfilments of one paid session grant the pass once", async () => {
    const userId = await newUser();
    const db = await getDb();
    const id = `cs_test_concurrent_${Date.now()}`;
    await db
      .insertInto("checkout_sessions")
      .values({
        id,
        user_id: userId,
        pass_id: "starter",
        price_id: "price_demo_starter",
        amount_cents: 499,
        currency: "usd",
        ui_mode: "hosted",
      })
      .execute();
    const before = await triesLeft(userId);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        fulfilCheckoutSession({ id, status: "complete", paymentStatus: "paid", amountTotal: 499, currency: "usd" }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.granted)).toHaveLength(1);
    expect(await triesLeft(userId)).toBe(before + 10);
    const grants = await db.selectFrom("pass_grants").selectAll().where("checkout_session_id", "=", id).execute();
    expect(grants).toHaveLength(1);
  });

  it("refuses unpaid, unknown and wrong-amount sessions", async () => {
    const userId = await newUser();
    const db = await getDb();
    const id = `cs_test_checks_${Date.now()}`;
    await db
      .insertInto("checkout_sessions")
      .values({
        id,
        user_id: userId,
        pass_id: "pro",
        price_id: "price_demo_pro",
        amount_cents: 1499,
        currency: "usd",
        ui_mode: "embedded",
      })
      .execute();
    expect(
      await fulfilCheckoutSession({
        id,
        status: "complete",
        paymentStatus: "unpaid",
        amountTotal: 1499,
        currency: "usd",
      }),
    ).toEqual({ ok: false, reason: "not_paid" });
    expect(
      await fulfilCheckoutSession({
        id: "cs_test_unknown",
        status: "complete",
        paymentStatus: "paid",
        amountTotal: 1499,
        currency: "usd",
      }),
    ).toEqual({ ok: false, reason: "unknown_session" });
    expect(
      await fulfilCheckoutSession({ id, status: "complete", paymentStatus: "paid", amountTotal: 100, currency: "usd" }),
    ).toEqual({ ok: false, reason: "amount_mismatch" });
    expect(await triesLeft(userId)).toBe(3);
  });

  it("the unlimited pass lifts the daily limit until it ends, and extends from its current end", async () => {
    const userId = await newUser();
    const db = await getDb();
    const ids = [`cs_test_unl_a_${Date.now()}`, `cs_test_unl_b_${Date.now()}`];
    for (const id of ids) {
      await db
        .insertInto("checkout_sessions")
        .values({
          id,
          user_id: userId,
          pass_id: "unlimited",
          price_id: "price_demo_unlimited",
          amount_cents: 2999,
          currency: "usd",
          ui_mode: "hosted",
        })
        .execute();
      await fulfilCheckoutSession({
        id,
        status: "complete",
        paymentStatus: "paid",
        amountTotal: 2999,
        currency: "usd",
      });
    }
    const user = await db
      .selectFrom("users")
      .select(["unlimited_until", "extra_tries"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(user.extra_tries).toBe(200);
    const days = (new Date(user.unlimited_until!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59.9);
    expect(days).toBeLessThan(60.1);
    // More than DAILY_EVALUATIONS (5) in one day: all allowed while unlimited.
    for (let i = 0; i < 8; i++) {
      const ok = await db.transaction().execute((trx) => consumeAllowance(trx, userId));
      expect(ok).toEqual({ ok: true });
    }
    // After the period the daily limit is back (today already has nothing counted: the 6th of a fresh day is refused).
    await db
      .updateTable("users")
      .set({ unlimited_until: new Date(Date.now() - 1000) })
      .where("id", "=", userId)
      .execute();
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await db.transaction().execute((trx) => consumeAllowance(trx, userId)));
    expect(outcomes.slice(0, 5).every((o) => o.ok)).toBe(true);
    expect(outcomes[5]).toEqual({ ok: false, code: 402 });
  });
});

describe("points ledger", () => {
  it("a balance can never go negative, not even by a direct UPDATE (CHECK)", async () => {
    const userId = await newUser();
    const db = await getDb();
    await expect(
      db.updateTable("users").set({ points_balance: -1 }).where("id", "=", userId).execute(),
    ).rejects.toThrow();
    await expect(
      db.transaction().execute((trx) => points.applyPoints(trx, userId, -5, "test", `neg:${userId}`)),
    ).rejects.toBeInstanceOf(points.InsufficientPointsError);
    expect(await points.pointsBalance(userId)).toBe(0);
    expect(await points.ledgerSum(userId)).toBe(0);
  });

  it("concurrent double claims of a task credit once", async () => {
    const userId = await newUser();
    await giveEvaluation(userId);
    const results = await Promise.all(Array.from({ length: 10 }, () => points.claimTask(userId, "first_grade")));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "already_claimed")).toHaveLength(9);
    expect(await points.pointsBalance(userId)).toBe(100);
    await expectConsistent(userId);
    const states = await points.taskStates(userId);
    expect(states.find((t) => t.id === "first_grade")?.state).toBe("claimed");
  });

  it("a task is not claimable before it is done", async () => {
    const userId = await newUser();
    expect(await points.claimTask(userId, "first_grade")).toEqual({ ok: false, reason: "not_eligible" });
    expect(await points.recordShare(userId)).toEqual({ ok: false, reason: "not_eligible" });
    expect(await points.claimTask(userId, "referral")).toEqual({ ok: false, reason: "not_eligible" });
    expect(await points.pointsBalance(userId)).toBe(0);
  });

  it("re-sharing never earns twice, even concurrently", async () => {
    const userId = await newUser();
    await giveEvaluation(userId);
    const results = await Promise.all(Array.from({ length: 8 }, () => points.recordShare(userId)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await points.recordShare(userId)).toEqual({ ok: false, reason: "already_claimed" });
    expect(await points.pointsBalance(userId)).toBe(50);
  });

  it("referrals: never yourself, only verified and graded friends, each friend once, concurrently", async () => {
    const db = await getDb();
    const referrer = await newUser({ username: `ref${Date.now()}${seq++}` });
    const refName = (
      await db.selectFrom("users").select("username").where("id", "=", referrer).executeTakeFirstOrThrow()
    ).username!;
    // Self-referral: the link of your own username does nothing.
    await points.recordReferral(referrer, refName);
    expect(
      (await db.selectFrom("users").select("referred_by").where("id", "=", referrer).executeTakeFirstOrThrow())
        .referred_by,
    ).toBeNull();
    const friend = await newUser();
    await points.recordReferral(friend, refName.toUpperCase());
    expect(
      (await db.selectFrom("users").select("referred_by").where("id", "=", friend).executeTakeFirstOrThrow())
        .referred_by,
    ).toBe(referrer);
    // Not graded yet: nothing to claim.
    expect(await points.claimTask(referrer, "referral")).toEqual({ ok: false, reason: "not_eligible" });
    await giveEvaluation(friend);
    const results = await Promise.all(Array.from({ length: 6 }, () => points.claimTask(referrer, "referral")));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await points.pointsBalance(referrer)).toBe(200);
    // The referrer cannot be changed afterwards.
    const other = await newUser({ username: `other${Date.now()}${seq++}` });
    const otherName = (
      await db.selectFrom("users").select("username").where("id", "=", other).executeTakeFirstOrThrow()
    ).username!;
    await points.recordReferral(friend, otherName);
    expect(
      (await db.selectFrom("users").select("referred_by").where("id", "=", friend).executeTakeFirstOrThrow())
        .referred_by,
    ).toBe(referrer);
    await expectConsistent(referrer);
  });
});

describe("staking", () => {
  it("stakes once per form key, concurrently, and never beyond the balance", async () => {
    const userId = await newUser();
    await grant(userId, 100);
    const same = await Promise.all(
      Array.from({ length: 10 }, () => points.stakePoints(userId, 60, 30, "form-key-aaaa")),
    );
    expect(same.every((r) => r.ok)).toBe(true);
    expect(same.filter((r) => r.ok && r.created)).toHaveLength(1);
    expect(await points.pointsBalance(userId)).toBe(40);
    // Two different stakes of 40 at once with 40 left: exactly one succeeds.
    const two = await Promise.all([
      points.stakePoints(userId, 40, 90, "form-key-bbbb"),
      points.stakePoints(userId, 40, 180, "form-key-cccc"),
    ]);
    expect(two.filter((r) => r.ok)).toHaveLength(1);
    expect(two.filter((r) => !r.ok && r.reason === "insufficient")).toHaveLength(1);
    expect(await points.pointsBalance(userId)).toBe(0);
    expect(await points.stakesOf(userId)).toHaveLength(2);
    await expectConsistent(userId);
    expect(await points.stakePoints(userId, 5, 30, "form-key-dddd")).toEqual({ ok: false, reason: "invalid" });
    expect(await points.stakePoints(userId, 10, 45, "form-key-eeee")).toEqual({ ok: false, reason: "invalid" });
  });

  it("unstakes only after the lock, once, even with concurrent double unstakes", async () => {
    const userId = await newUser();
    await grant(userId, 500);
    const staked = await points.stakePoints(userId, 300, 90, "form-key-unstake");
    if (!staked.ok) throw new Error("stake failed");
    const stake = (await points.stakesOf(userId))[0]!;
    expect(stake.multiplier).toBe(1.25);
    expect(new Date(stake.unlocksAt).getTime() - new Date(stake.startedAt).getTime()).toBe(90 * 86_400_000);
    expect(await points.unstakePoints(userId, staked.stakeId)).toEqual({ ok: false, reason: "locked" });
    const otherUser = await newUser();
    expect(await points.unstakePoints(otherUser, staked.stakeId)).toEqual({ ok: false, reason: "not_found" });
    // Time passes: the lock ends.
    const db = await getDb();
    await db
      .updateTable("stakes")
      .set({ unlocks_at: sql<Date>`now() - interval '1 minute'` })
      .where("id", "=", staked.stakeId)
      .execute();
    const results = await Promise.all(Array.from({ length: 10 }, () => points.unstakePoints(userId, staked.stakeId)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "already_unstaked")).toHaveLength(9);
    expect(await points.pointsBalance(userId)).toBe(500);
    await expectConsistent(userId);
  });

  it("the leaderboard counts active stakes with their multiplier", async () => {
    const userId = await newUser({ username: `lb${Date.now()}${seq++}` });
    await grant(userId, 1_000_000);
    await points.stakePoints(userId, 500_000, 180, "form-key-leader");
    const board = await points.pointsLeaderboard(5);
    const me = board.find((r) => r.id === userId);
    expect(me?.score).toBe(500_000 + 750_000);
    expect(me?.rank).toBe(1);
  });
});
