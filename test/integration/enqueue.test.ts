import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Work and its job are one: a job enqueued on a transaction exists only if that transaction
// commits (pg-boss's `db` option on our own connection), on PGlite and on PostgreSQL.

if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { enqueue, startJobs, stopJobs } = await import("~/server/platform/jobs.server");
const { startImport } = await import("~/server/linking/steps.server");
const { linkAccount } = await import("~/server/linking/imports.server");

class Rollback extends Error {}

async function jobsFor(importId: number): Promise<number> {
  const db = await getDb();
  const r = await sql<{ n: string }>`
    select count(*) as n from pgboss.job where name = 'import-step' and (data->>'importId')::int = ${importId}`.execute(
    db,
  );
  return Number(r.rows[0]!.n);
}

beforeAll(async () => {
  await migrateToLatest();
  // The queue is started before any transaction, as server.ts does (on PGlite a transaction holds
  // the only connection, which starting the queue would wait for); no workers in this process.
  await startJobs({});
});
afterAll(async () => {
  await stopJobs(1_000);
});

describe("enqueue on a transaction", () => {
  it("leaves no job when the transaction rolls back, and one when it commits", async () => {
    const db = await getDb();
    // Ids no import has: a worker that picks the committed one finds nothing to do.
    const rolledBack = -1 - Math.floor(Math.random() * 1e9);
    const committed = rolledBack - 1;
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueue(trx, "import-step", { importId: rolledBack, step: 0 });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    await db.transaction().execute((trx) => enqueue(trx, "import-step", { importId: committed, step: 0 }));
    expect(await jobsFor(rolledBack)).toBe(0);
    expect(await jobsFor(committed)).toBe(1);
  });

  it("a rolled-back link leaves neither the import nor its job", async () => {
    const db = await getDb();
    const userId = (
      await db
        .insertInto("users")
        .values({ email: `enq-${Date.now()}-${Math.random()}@example.com` })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    let importId = 0;
    await expect(
      db.transaction().execute(async (trx) => {
        const link = await linkAccount({ userId, kind: "evm", fingerprint: `evm:enq:${userId}`, label: "W" }, trx);
        if (!link.ok) throw new Error("link");
        importId = await startImport(trx, { userId, linkedAccountId: link.id, reason: "link" });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(importId).toBeGreaterThan(0);
    expect(await db.selectFrom("imports").select("id").where("id", "=", importId).execute()).toEqual([]);
    expect(await jobsFor(importId)).toBe(0);
  });
});
