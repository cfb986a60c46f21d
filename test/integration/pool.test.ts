import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// In-process: a request that finds no free database connection within DATABASE_POOL_WAIT_MS is
// answered 503 with Retry-After instead of waiting (PGlite has one connection, which makes the
// wait easy to provoke; PostgreSQL's pool takes the same path).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
// On PostgreSQL the limit also bounds opening a connection: a little more room there, and a small pool.
process.env.DATABASE_POOL_WAIT_MS = process.env.DATABASE_URL ? "1000" : "100";
if (process.env.DATABASE_URL) process.env.DATABASE_POOL_SIZE = "3";
const { getDb, closeDb, poolStats, DatabaseUnavailableError } = await import("~/server/platform/db.server");
const { withRequestContext } = await import("~/server/platform/request-context.server");

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  await closeDb();
});

/** Holds every connection of the pool in an open transaction until the returned release is called. */
async function holdEveryConnection() {
  const db = await getDb();
  const size = Number(process.env.DATABASE_URL ? (process.env.DATABASE_POOL_SIZE ?? 10) : 1);
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const holders = Array.from({ length: size }, () =>
    db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await gate;
    }),
  );
  await new Promise((r) => setTimeout(r, 50));
  return async () => {
    open();
    await Promise.all(holders);
  };
}

describe("the pool wait limit", () => {
  it("is an ordinary error outside a request (a job retries it), never a Response", async () => {
    const db = await getDb();
    const release = await holdEveryConnection();
    const error = await sql`select 1`.execute(db).then(
      () => null,
      (e: unknown) => e,
    );
    await release();
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/busy or unreachable/);
  });

  it("answers 503 with Retry-After when every connection stays busy past the limit", async () => {
    const db = await getDb();
    const release = await holdEveryConnection();
    const before = poolStats.waitTimeouts;
    const started = Date.now();
    // In a request, as a loader runs.
    const error = await withRequestContext("r", true, () =>
      sql`select 1`.execute(db).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    const waited = Date.now() - started;
    await release();
    expect(error).toBeInstanceOf(Response);
    const response = error as Response;
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(poolStats.waitTimeouts).toBe(before + 1);
    // Not the old unbounded queue: the wait ended near the limit (generous bound for a loaded machine).
    expect(waited).toBeLessThan(5_000);
    // The pool works again once the connections are free.
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1);
  });
});

// A connection PostgreSQL ends while the app holds it (a transaction between statements). Before,
// only idle connections had an error listener: this one emitted 'error' unheard and Node ended the
// process. PGlite has no connection to end.
describe.skipIf(!process.env.DATABASE_URL)("a connection lost while in use", () => {
  it("fails its own statement and leaves the process and the pool working", async () => {
    const db = await getDb();
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Ended from another connection while this one is checked out and idle in its transaction.
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(db);
        await new Promise((r) => setTimeout(r, 300));
        await sql`select 1`.execute(trx);
      })
      .then(
        () => "committed",
        (e: unknown) => String((e as Error).message),
      );
    expect(outcome).toMatch(/terminat|Connection|closed/i);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1);
  });
});
