import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { dropOwnDatabase, ownDatabase } from "../support/server";

// `npm run seed` is bulk work: its statements must not run under the requests' statement timeout
// (DATABASE_STATEMENT_TIMEOUT_MS). At 100,000 users a step takes minutes; here a small community
// under a 10 ms timeout stands in for it. statement_timeout exists only on PostgreSQL (PGlite has
// none), so without DATABASE_URL there is nothing to test.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

describe.skipIf(!process.env.DATABASE_URL)("npm run seed", () => {
  it("completes whatever the requests' statement timeout", async () => {
    const { DATABASE_URL } = (await ownDatabase()) as { DATABASE_URL: string };
    const env = { ...process.env, DATABASE_URL, LOG_LEVEL: "error" };
    try {
      // Migrated first with the usual limit: what is measured is the seed's own statements.
      await run(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], { cwd: root, env });
      const { stdout } = await run(
        process.execPath,
        ["--import", "tsx", "scripts/seed.ts", "--users", "3000", "--posts", "30000"],
        { cwd: root, env: { ...env, DATABASE_STATEMENT_TIMEOUT_MS: "10" } },
      );
      expect(stdout).toContain("Seeding 3000 users on postgres");
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query(
          "select (select count(*) from users)::int as users, (select count(*) from posts)::int as posts",
        );
        expect(rows[0]).toEqual({ users: 3000, posts: 30000 });
      } finally {
        await client.end();
      }
    } finally {
      await dropOwnDatabase(DATABASE_URL);
    }
  }, 120_000);
});
