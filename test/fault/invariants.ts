import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Database } from "~/server/platform/db/schema";

// What must hold after any fault, read straight from the database (never through the server that
// may have just died): each check's failure names what broke.

/** Where a fault test's servers keep their data: `{ DATABASE_URL }` or `{ DATA_DIR }` (PGlite). */
export type Storage = Record<string, string>;

/** Writes the server acknowledged (a 2xx or 3xx answer): each must be in the database. */
export type Acknowledged = {
  /** E-mails whose sign-up was answered. */
  users?: string[];
  /** Bodies of posts whose creation was answered. */
  posts?: string[];
  /** Stripe event ids a webhook answered 200. */
  stripeEvents?: string[];
  /** Checkout sessions whose pass a webhook answered as granted. */
  passGrants?: string[];
  /** Verification codes of grades an evaluation answered. */
  grades?: string[];
};

/** The free tries every test server has (FREE_TRIES' default). */
const FREE_TRIES = 3;

// Queues whose jobs do a piece of work and end; the poll and the scheduled queues (the digest, the
// compaction, mail delivery) always have one waiting for its next slot.
const WORK_QUEUES = ["import-step", "regrade", "import-failed", "engine-regrade"];

/**
 * Opens the storage the way the server does. A PGlite folder takes the server's lock first
 * (lockDataDir), so checking while a server still runs on it fails loudly instead of corrupting it.
 */
export async function openStorage(storage: Storage): Promise<{ db: Kysely<Database>; close: () => Promise<void> }> {
  if (storage.DATABASE_URL) {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: storage.DATABASE_URL, max: 2 }) }),
    });
    return { db, close: () => db.destroy() };
  }
  if (!storage.DATA_DIR || storage.DATA_DIR === "memory://")
    throw new Error("invariants need storage that outlives the server: DATABASE_URL or a DATA_DIR folder");
  const { lockDataDir } = await import("~/server/platform/db/data-lock.server");
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  const unlock = lockDataDir(path.resolve(storage.DATA_DIR));
  try {
    const pglite = await PGlite.create({ dataDir: path.resolve(storage.DATA_DIR, "pglite"), extensions: { pg_trgm } });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool(createPgConfig(pglite)) }) });
    return {
      db,
      close: async () => {
        await db.destroy();
        await pglite.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Every invariant, as a list of problems (empty when all hold), so a test's one assertion prints
 * them all: no trade stored twice, every acknowledged write present, no try or pass counted twice,
 * the grade log's chain intact (the audit `npm run verify-log` runs), no work left unfinishable.
 * On PGlite the servers must be stopped first (one process per folder).
 */
export async function invariantProblems(storage: Storage, acknowledged: Acknowledged = {}): Promise<string[]> {
  const { db, close } = await openStorage(storage);
  const problems: string[] = [];
  try {
    // No trade twice: one row per account and provider id (the constraint trades_external promises it).
    const doubled = await db
      .selectFrom("trades")
      .select(["linked_account_id", "external_id", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy(["linked_account_id", "external_id"])
      .having((eb) => eb.fn.countAll(), ">", 1)
      .execute();
    for (const d of doubled)
      problems.push(`trade ${d.external_id} of account ${d.linked_account_id} stored ${d.n} times`);

    // Every acknowledged write is there.
    const missing = async (what: string, wanted: string[] | undefined, present: () => Promise<string[]>) => {
      if (!wanted?.length) return;
      const have = new Set(await present());
      for (const w of wanted) if (!have.has(w)) problems.push(`acknowledged ${what} ${w} is missing`);
    };
    const { users, posts, stripeEvents, passGrants, grades } = acknowledged;
    await missing("sign-up", users, async () =>
      (await db.selectFrom("users").select("email").where("email", "in", users!).execute()).map((r) => r.email),
    );
    await missing("post", posts, async () =>
      (await db.selectFrom("posts").select("body").where("body", "in", posts!).execute()).map((r) => r.body),
    );
    await missing("Stripe event", stripeEvents, async () =>
      (await db.selectFrom("stripe_events").select("id").where("id", "in", stripeEvents!).execute()).map((r) => r.id),
    );
    await missing("pass grant", passGrants, async () =>
      (
        await db
          .selectFrom("pass_grants")
          .select("checkout_session_id")
          .where("checkout_session_id", "in", passGrants!)
          .execute()
      ).map((r) => r.checkout_session_id),
    );
    await missing("grade", grades, async () =>
      (
        await db
          .selectFrom("evaluations")
          .select("verification_code")
          .where("verification_code", "in", grades!)
          .execute()
      ).map((r) => r.verification_code),
    );

    // Tries and passes, per trader: the extra tries are the passes granted (each session once, by
    // its primary key); every grade is counted once, as a try (evaluation_days.count, with the try)
    // or as an automatic grade, or re-made under a newer engine (remade_from, paid by neither); no
    // more tries used than owned.
    const accounts = await db
      .selectFrom("users")
      .select([
        "users.id",
        "users.tries_used",
        "users.extra_tries",
        "users.unlimited_until",
        "users.evaluating_since",
        (eb) =>
          eb
            .selectFrom("pass_grants")
            .select(sql<string>`coalesce(sum(evaluations), 0)`.as("s"))
            .whereRef("pass_grants.user_id", "=", "users.id")
            .as("granted"),
        (eb) =>
          eb
            .selectFrom("evaluation_days")
            .select(sql<string>`coalesce(sum(count), 0)`.as("s"))
            .whereRef("evaluation_days.user_id", "=", "users.id")
            .as("asked"),
        (eb) =>
          eb
            .selectFrom("evaluation_days")
            .select(sql<string>`coalesce(sum(automatic), 0)`.as("s"))
            .whereRef("evaluation_days.user_id", "=", "users.id")
            .as("automatic"),
        (eb) =>
          eb
            .selectFrom("evaluations")
            .select(sql<string>`count(*)`.as("n"))
            .whereRef("evaluations.user_id", "=", "users.id")
            .where("evaluations.remade_from", "is", null)
            .as("graded"),
      ])
      .execute();
    for (const u of accounts) {
      const granted = Number(u.granted);
      const asked = Number(u.asked);
      const graded = Number(u.graded);
      if (u.extra_tries !== granted)
        problems.push(`user ${u.id}: ${u.extra_tries} extra tries but passes granted ${granted}`);
      if (u.tries_used > FREE_TRIES + u.extra_tries)
        problems.push(`user ${u.id}: ${u.tries_used} tries used of ${FREE_TRIES + u.extra_tries}`);
      // An unlimited pass lifts the daily count: its grades use a try but are not counted per day.
      if (!u.unlimited_until && u.tries_used !== asked)
        problems.push(`user ${u.id}: ${u.tries_used} tries used for ${asked} evaluations asked for`);
      if (!u.unlimited_until && graded !== asked + Number(u.automatic))
        problems.push(`user ${u.id}: ${graded} grades stored, ${asked} asked for and ${u.automatic} automatic`);
      // A lease left by a dead process expires by itself; one still held after the work ended is not.
      if (u.evaluating_since) problems.push(`user ${u.id}: an evaluation lease is still held`);
    }

    // The grade log's chain, the head and every stored grade against its signed record.
    const { auditGradeLog } = await import("~/server/grades/grade-log.server");
    const audit = await auditGradeLog(db);
    problems.push(...audit.problems.map((p) => `grade log: ${p}`));
    // One log entry per grade: a grade graded twice would show as two codes for one history.
    const entries = await db
      .selectFrom("grade_log")
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    const stored = await db
      .selectFrom("evaluations")
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    if (Number(entries.n) !== Number(stored.n)) problems.push(`grade log: ${entries.n} entries for ${stored.n} grades`);

    // Nothing left that never finishes: every import ended, and no job of a piece of work is still
    // waiting or marked running (a dead worker's job is taken back when it expires).
    const running = await db
      .selectFrom("imports")
      .select(["id", "state"])
      .where("state", "not in", ["done", "failed"])
      .execute();
    for (const r of running) problems.push(`import ${r.id} is still ${r.state}`);
    // A re-grade of an import that has ended is not work left: it answers at once with nothing to
    // do. One is left when a grade outlived its job's expiry and pg-boss retried it (the lease kept
    // the retry from grading twice; linking.server.ts's regrade).
    const jobs = await sql<{ name: string; state: string; n: string }>`
      select j.name, j.state::text as state, count(*) as n from pgboss.job j
      where j.name in (${sql.join(WORK_QUEUES)}) and j.state in ('created', 'retry', 'active')
        and not (j.name = 'regrade' and j.state <> 'active' and exists (
          select 1 from imports i where i.id = (j.data->>'importId')::int and i.state in ('done', 'failed')))
      group by j.name, j.state`.execute(db);
    for (const j of jobs.rows) problems.push(`${j.n} ${j.name} job(s) still ${j.state}`);
  } finally {
    await close();
  }
  return problems;
}
