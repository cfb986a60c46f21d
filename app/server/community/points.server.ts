import { sql } from "kysely";
import { WALLET_KINDS } from "~/lib/account-kinds";
import { getDb, type DB } from "../platform/db.server";
import { log } from "../platform/log.server";

/**
 * $GRADER points: off-chain, never negative. Every change is one row of the append-only ledger
 * (points_ledger) with a unique idempotency key, and users.points_balance changes in the same
 * transaction (a CHECK keeps it ≥ 0; debits are conditional UPDATEs). So a task claimed twice, a
 * stake submitted twice or an unstake clicked twice changes the balance once, even concurrently.
 */

export type TaskId = "first_grade" | "share_card" | "follow_three" | "referral";

export const TASKS: Record<TaskId, { title: string; points: number; description: string }> = {
  first_grade: {
    title: "Get your first grade",
    points: 100,
    description: "Link a broker or wallet and get graded once.",
  },
  share_card: { title: "Share your card", points: 50, description: "Share your performance card from the share menu." },
  follow_three: {
    title: "Follow three traders",
    points: 50,
    description: "Follow three other traders in the community.",
  },
  referral: {
    title: "Invite a friend",
    points: 200,
    description: "A friend signs up with your referral link and gets graded (each friend once, up to 10).",
  },
};
export const MAX_REFERRALS = 10;

export const STAKE_LOCKS = { 30: 1.1, 90: 1.25, 180: 1.5 } as const;
export type LockDays = keyof typeof STAKE_LOCKS;
export const MIN_STAKE = 10;

export class InsufficientPointsError extends Error {
  constructor() {
    super("Not enough points.");
  }
}

/**
 * Adds (amount > 0) or removes (amount < 0) points once per key, inside the caller's transaction.
 * Returns false when the key was used before (nothing changes). A debit beyond the balance throws
 * InsufficientPointsError, which rolls the caller's transaction back.
 */
export async function applyPoints(
  trx: DB,
  userId: number,
  amount: number,
  reason: string,
  key: string,
): Promise<boolean> {
  if (!Number.isSafeInteger(amount) || amount === 0) throw new Error("points amount must be a non-zero integer");
  const entry = await trx
    .insertInto("points_ledger")
    .values({ user_id: userId, amount, reason, idempotency_key: key })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!entry) return false;
  const updated = await trx
    .updateTable("users")
    .set({ points_balance: sql`points_balance + ${amount}` })
    .where("id", "=", userId)
    .$if(amount < 0, (q) => q.where(sql<boolean>`points_balance >= ${-amount}`))
    .returning("points_balance")
    .executeTakeFirst();
  if (!updated) throw new InsufficientPointsError();
  return true;
}

export async function pointsBalance(userId: number): Promise<number> {
  const db = await getDb();
  const row = await db.selectFrom("users").select("points_balance").where("id", "=", userId).executeTakeFirst();
  return Number(row?.points_balance ?? 0);
}

/** The balance recomputed from the ledger (the source of truth; tests compare both). */
export async function ledgerSum(userId: number): Promise<number> {
  const db = await getDb();
  const row = await db
    .selectFrom("points_ledger")
    .select(sql<string>`coalesce(sum(amount), 0)`.as("s"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(row?.s ?? 0);
}

async function followsTableExists(): Promise<boolean> {
  const db = await getDb();
  const row = await sql<{ ok: boolean }>`select to_regclass('public.follows') is not null as ok`.execute(db);
  return Boolean(row.rows[0]?.ok);
}

/** Traders the user follows now (other users only), or null while the community feature is absent. */
async function followingCount(userId: number): Promise<number | null> {
  if (!(await followsTableExists())) return null;
  const db = await getDb();
  const row = await sql<{
    n: string;
  }>`select count(distinct followee_id) as n from follows where follower_id = ${userId} and followee_id <> ${userId}`.execute(
    db,
  );
  return Number(row.rows[0]?.n ?? 0);
}

/** Friends who signed up with the user's link, verified their email and got graded. */
async function qualifiedReferrals(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("users")
    .select("id")
    .where("referred_by", "=", userId)
    .where("id", "!=", userId)
    .where("email_verified_at", "is not", null)
    .where("current_evaluation_id", "is not", null)
    .orderBy("id")
    .execute();
}

/** The ledger key that pays a one-off task to a user once (the referral task is keyed by the friend). */
const taskKey = (task: Exclude<TaskId, "referral">, userId: number) => `task:${task}:${userId}`;

export type TaskState = {
  id: TaskId;
  title: string;
  description: string;
  points: number;
  state: "claimed" | "claimable" | "todo" | "coming_soon";
  progress?: string;
};

export async function taskStates(userId: number): Promise<TaskState[]> {
  const db = await getDb();
  const claimed = new Set(
    (
      await db
        .selectFrom("points_ledger")
        .select("idempotency_key")
        .where("user_id", "=", userId)
        .where("reason", "like", "task:%")
        .execute()
    ).map((r) => r.idempotency_key),
  );
  const user = await db
    .selectFrom("users")
    .select(["current_evaluation_id"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const graded =
    user.current_evaluation_id !== null ||
    Boolean(await db.selectFrom("evaluations").select("id").where("user_id", "=", userId).limit(1).executeTakeFirst());
  const following = await followingCount(userId);
  const friends = await qualifiedReferrals(userId);
  const referralKeys = friends.map((f) => `task:referral:${f.id}`);
  const referralClaimed = referralKeys.filter((k) => claimed.has(k)).length;
  const referralLedger = await db
    .selectFrom("points_ledger")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("reason", "=", "task:referral")
    .executeTakeFirst();
  const referralsPaid = Number(referralLedger?.n ?? 0);
  const one = (id: Exclude<TaskId, "referral">, done: boolean, progress?: string): TaskState => ({
    id,
    ...TASKS[id],
    state: claimed.has(taskKey(id, userId)) ? "claimed" : done ? "claimable" : "todo",
    ...(progress ? { progress } : {}),
  });
  return [
    one("first_grade", graded),
    // Sharing is claimed by the share itself (POST /api/airdrop/share): it is never "claimable" here.
    { ...one("share_card", false), state: claimed.has(taskKey("share_card", userId)) ? "claimed" : "todo" },
    following === null
      ? { id: "follow_three", ...TASKS.follow_three, state: "coming_soon" }
      : one("follow_three", following >= 3, `${Math.min(following, 3)} of 3`),
    {
      id: "referral",
      ...TASKS.referral,
      state:
        referralsPaid >= MAX_REFERRALS
          ? "claimed"
          : friends.length > referralClaimed && referralsPaid < MAX_REFERRALS
            ? "claimable"
            : "todo",
      progress: `${referralsPaid} of ${MAX_REFERRALS} friends credited`,
    },
  ];
}

export type ClaimResult =
  { ok: true; credited: number } | { ok: false; reason: "not_eligible" | "already_claimed" | "coming_soon" };

/** Claims a task's points once (the idempotency key is per task and user, or per friend). */
export async function claimTask(userId: number, task: TaskId): Promise<ClaimResult> {
  const db = await getDb();
  if (task === "referral") {
    const friends = await qualifiedReferrals(userId);
    let credited = 0;
    await db.transaction().execute(async (trx) => {
      // Serialise this user's referral claims so the cap holds under concurrency.
      await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
      const paid = await trx
        .selectFrom("points_ledger")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("user_id", "=", userId)
        .where("reason", "=", "task:referral")
        .executeTakeFirst();
      let room = MAX_REFERRALS - Number(paid?.n ?? 0);
      for (const friend of friends) {
        if (room <= 0) break;
        // Keyed by the friend: a friend is credited once, to one referrer, ever.
        if (await applyPoints(trx, userId, TASKS.referral.points, "task:referral", `task:referral:${friend.id}`)) {
          credited += TASKS.referral.points;
          room--;
        }
      }
    });
    if (credited > 0) return { ok: true, credited };
    return friends.length ? { ok: false, reason: "already_claimed" } : { ok: false, reason: "not_eligible" };
  }
  if (task === "share_card") return recordShare(userId);
  if (task === "follow_three") {
    const following = await followingCount(userId);
    if (following === null) return { ok: false, reason: "coming_soon" };
    if (following < 3) return { ok: false, reason: "not_eligible" };
  }
  if (task === "first_grade") {
    const graded = await db
      .selectFrom("evaluations")
      .select("id")
      .where("user_id", "=", userId)
      .limit(1)
      .executeTakeFirst();
    if (!graded) return { ok: false, reason: "not_eligible" };
  }
  const points = TASKS[task].points;
  const credited = await db
    .transaction()
    .execute((trx) => applyPoints(trx, userId, points, `task:${task}`, taskKey(task, userId)));
  return credited ? { ok: true, credited: points } : { ok: false, reason: "already_claimed" };
}

/** Whether the user has shared their card from the share modal (the airdrop task records it). */
export async function hasSharedCard(userId: number): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .selectFrom("points_ledger")
    .select("id")
    .where("user_id", "=", userId)
    .where("idempotency_key", "=", taskKey("share_card", userId))
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The share modal calls this after a share (the product's pending-airdrop-share flag). Only a graded user
 * has a card to share; the points come once per user however often they share.
 */
export async function recordShare(userId: number): Promise<ClaimResult> {
  const db = await getDb();
  const user = await db.selectFrom("users").select("current_evaluation_id").where("id", "=", userId).executeTakeFirst();
  if (!user?.current_evaluation_id) return { ok: false, reason: "not_eligible" };
  const points = TASKS.share_card.points;
  const credited = await db
    .transaction()
    .execute((trx) => applyPoints(trx, userId, points, "task:share_card", taskKey("share_card", userId)));
  return credited ? { ok: true, credited: points } : { ok: false, reason: "already_claimed" };
}

// ---- staking -----------------------------------------------------------------------------------

export type StakeResult =
  { ok: true; stakeId: number; created: boolean } | { ok: false; reason: "insufficient" | "invalid" };

/**
 * Locks `amount` points for 30, 90 or 180 days. `requestKey` comes from the form (one per page
 * render), so a double submit stakes once: the ledger debit is keyed by it and the stake row is
 * written in the same transaction.
 */
export async function stakePoints(
  userId: number,
  amount: number,
  lockDays: number,
  requestKey: string,
): Promise<StakeResult> {
  if (
    !Number.isSafeInteger(amount) ||
    amount < MIN_STAKE ||
    !(lockDays in STAKE_LOCKS) ||
    !/^[A-Za-z0-9_-]{8,64}$/.test(requestKey)
  )
    return { ok: false, reason: "invalid" };
  const days = lockDays as LockDays;
  const key = `stake:${userId}:${requestKey}`;
  const db = await getDb();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("stakes")
        .values({
          user_id: userId,
          amount,
          lock_days: days,
          multiplier: STAKE_LOCKS[days],
          unlocks_at: sql<Date>`now() + make_interval(days => ${days})`,
          request_key: key,
        })
        .onConflict((oc) => oc.column("request_key").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) {
        const prior = await trx
          .selectFrom("stakes")
          .select("id")
          .where("request_key", "=", key)
          .executeTakeFirstOrThrow();
        return { ok: true as const, stakeId: prior.id, created: false };
      }
      // Throws InsufficientPointsError (rolling the stake row back) when the balance is short.
      await applyPoints(trx, userId, -amount, "stake", key);
      return { ok: true as const, stakeId: row.id, created: true };
    });
  } catch (error) {
    if (error instanceof InsufficientPointsError) return { ok: false, reason: "insufficient" };
    throw error;
  }
}

export type UnstakeResult =
  { ok: true; returned: number } | { ok: false; reason: "locked" | "not_found" | "already_unstaked" };

/** Returns a stake's points after its lock, once: a conditional UPDATE claims it, the credit is keyed by the stake. */
export async function unstakePoints(userId: number, stakeId: number, now = new Date()): Promise<UnstakeResult> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("stakes")
      .set({ unstaked_at: sql`now()` })
      .where("id", "=", stakeId)
      .where("user_id", "=", userId)
      .where("unstaked_at", "is", null)
      .where("unlocks_at", "<=", now)
      .returning(["amount"])
      .executeTakeFirst();
    if (!row) {
      const stake = await trx
        .selectFrom("stakes")
        .select(["unstaked_at", "unlocks_at"])
        .where("id", "=", stakeId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!stake) return { ok: false as const, reason: "not_found" as const };
      return { ok: false as const, reason: stake.unstaked_at ? ("already_unstaked" as const) : ("locked" as const) };
    }
    const amount = Number(row.amount);
    await applyPoints(trx, userId, amount, "unstake", `unstake:${stakeId}`);
    log("info", "unstaked", { userId, stakeId, amount });
    return { ok: true as const, returned: amount };
  });
}

export async function stakesOf(userId: number) {
  const db = await getDb();
  const rows = await db.selectFrom("stakes").selectAll().where("user_id", "=", userId).orderBy("id", "desc").execute();
  return rows.map((r) => ({
    id: r.id,
    amount: Number(r.amount),
    lockDays: r.lock_days,
    multiplier: r.multiplier,
    startedAt: new Date(r.started_at).toISOString(),
    unlocksAt: new Date(r.unlocks_at).toISOString(),
    unstakedAt: r.unstaked_at ? new Date(r.unstaked_at).toISOString() : null,
  }));
}

/** Leaderboard score: free balance plus staked points, times their multiplier while still locked. */
export async function pointsLeaderboard(limit = 20) {
  const db = await getDb();
  const rows = await sql<{
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    balance: string;
    staked: string;
    score: string;
  }>`
    select u.id, u.username, u.first_name, u.last_name, u.name, u.points_balance as balance,
           coalesce(s.staked, 0) as staked,
           floor(u.points_balance + coalesce(s.weighted, 0)) as score
    from users u
    left join (
      select user_id, sum(amount) as staked, sum(amount * case when unlocks_at > now() then multiplier else 1 end) as weighted
      from stakes where unstaked_at is null group by user_id
    ) s on s.user_id = u.id
    where u.points_balance > 0 or s.staked > 0
    order by score desc, u.id asc
    limit ${limit}`.execute(db);
  return rows.rows.map((r, i) => ({
    rank: i + 1,
    id: r.id,
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    name: r.name,
    balance: Number(r.balance),
    staked: Number(r.staked),
    score: Number(r.score),
  }));
}

export async function pointsHistory(userId: number, limit = 20) {
  const db = await getDb();
  const rows = await db
    .selectFrom("points_ledger")
    .select(["id", "amount", "reason", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    amount: Number(r.amount),
    reason: r.reason,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

// ---- referrals and wallet ----------------------------------------------------------------------

/** At sign-up with ?ref=<username>: remembers who invited the new user (never themselves, never twice). */
export async function recordReferral(newUserId: number, ref: string | null | undefined) {
  const username = (ref ?? "").trim();
  if (!/^[A-Za-z0-9_.-]{1,40}$/.test(username)) return;
  const db = await getDb();
  const referrer = await db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
  if (!referrer || referrer.id === newUserId) return;
  await db
    .updateTable("users")
    .set({ referred_by: referrer.id })
    .where("id", "=", newUserId)
    .where("referred_by", "is", null)
    .execute();
}

export async function provedWallets(userId: number) {
  const db = await getDb();
  const rows = await db
    .selectFrom("linked_accounts")
    .select(["id", "kind", "fingerprint", "label"])
    .where("user_id", "=", userId)
    .where("kind", "in", WALLET_KINDS)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    chain: r.kind as "evm" | "solana",
    address: r.fingerprint.slice(r.fingerprint.indexOf(":") + 1),
    label: r.label,
  }));
}

export async function registeredWallet(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("wallet_registrations")
    .select(["chain", "address", "registered_at"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** Registers one of the user's proved wallets (linked by a signed message) for a future on-chain claim. */
export async function registerClaimWallet(
  userId: number,
  linkedAccountId: number,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const wallet = (await provedWallets(userId)).find((w) => w.id === linkedAccountId);
  if (!wallet)
    return {
      ok: false,
      reason:
        "Pick one of your linked wallets. Link a MetaMask or Phantom wallet first (it proves ownership by a signature).",
    };
  const db = await getDb();
  await db
    .insertInto("wallet_registrations")
    .values({ user_id: userId, linked_account_id: wallet.id, chain: wallet.chain, address: wallet.address })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        linked_account_id: wallet.id,
        chain: wallet.chain,
        address: wallet.address,
        registered_at: sql`now()`,
      }),
    )
    .execute();
  return { ok: true };
}
