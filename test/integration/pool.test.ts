import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// In-process: a request that finds no free database connection within DATABASE_POOL_WAIT_MS is
// answered 503 with Retry-After instead of waiting (PGlite has one connection, which makes the
// wait easy to provoke; PostgreSQL's pool takes the same path).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
process.env.DATABASE_POOL_WAIT_MS = "100";
const { getDb, closeDb, poolStats } = await import("~/server/platform/db.server");

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  await closeDb();
});

describe("the pool wait limit", () => {
  it("answers 503 with Retry-After when every connection stays busy past the limit", async () => {
    const db = await getDb();
    const size = Number(process.env.DATABASE_URL ? (process.env.DATABASE_POOL_SIZE ?? 10) : 1);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Hold every connection in an open transaction.
    const holders = Array.from({ length: size }, () =>
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await gate;
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    const before = poolStats.waitTimeouts;
    const started = Date.now();
    const error = await sql`select 1`.execute(db).then(
      () => null,
      (e: unknown) => e,
    );
    const waited = Date.now() - started;
    release();
    await Promise.all(holders);
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
