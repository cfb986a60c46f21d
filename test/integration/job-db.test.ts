import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";

// pg-boss reaches the database only through the app's pool (jobs.server.ts's adapter). Its
// set-up and maintenance scripts open their own transaction; one that fails part-way must not
// hand its connection back to the pool still inside that aborted transaction.

if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, closeDb } = await import("~/server/platform/db.server");
const { adapter } = await import("~/server/platform/jobs.server");

afterAll(async () => {
  await closeDb();
});

describe("pg-boss's link to the pool", () => {
  it("rolls back a script of its own transaction that failed part-way, so the connection serves the next query", async () => {
    const db = await getDb();
    await expect(
      adapter(db).executeSql(
        `
        BEGIN;
        SELECT 1;
        SELECT 1 / 0;
        COMMIT;
      `,
        [],
      ),
    ).rejects.toThrow(/division by zero/);
    // The pool hands out its most recently released connection first: the same one, on PGlite
    // (one connection) and on PostgreSQL. Before, it answered 25P02 "current transaction is aborted".
    for (let i = 0; i < 3; i++)
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});
