import { describe, expect, it } from "vitest";
import pg from "pg";
import { signUp, waitForImports } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { exchange, midImport, tradesOf } from "../support/plaid-link";
import type { RunningServer } from "../support/server";
import { invariantProblems } from "./invariants";
import { isRunning, kill9, logged, scenario, start, waitFor } from "./servers";

// Two replicas on one PostgreSQL; the one running an import's job is killed with -9. Its job stays
// "active" in pg-boss until it expires (JOB_EXPIRE_SECONDS, 3 s here; maintenance checks as often),
// then the other replica takes it back as a retry and finishes the import. Several processes on
// one database need PostgreSQL: PGlite belongs to one process.

const RUN = Date.now().toString(36);

/**
 * Whether a replica is running a job of `importId` now: one it started more often than it ended
 * (the "job started" lines are debug; this scenario logs at debug).
 */
function runningJobOf(server: RunningServer, importId: number): boolean {
  const counts = new Map<unknown, number>();
  const mine = (e: Record<string, unknown>) =>
    (e.job === "import-step" || e.job === "regrade") && (e.data as { importId?: number })?.importId === importId;
  for (const e of logged(server, "job started").filter(mine)) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
  for (const e of [...logged(server, "job done"), ...logged(server, "job failed")].filter(mine))
    counts.set(e.id, (counts.get(e.id) ?? 0) - 1);
  return [...counts.values()].some((n) => n > 0);
}

describe.skipIf(!process.env.DATABASE_URL)("a replica killed in the middle of a job", () => {
  it("the other replica takes the job back when it expires and finishes the import: every trade once", async () => {
    const env = await scenario({
      SIM_DELAY_FACTOR: "2",
      SIM_PLAID_PAGE_SIZE: "40",
      JOB_EXPIRE_SECONDS: "3",
      JOB_RETRY_LIMIT: "6",
      JOB_RETRY_DELAY_SECONDS: "2",
      LOG_LEVEL: "debug",
    });
    const a = await start(env);
    const b = await start(env);
    const { cookie, email } = await signUp({ base: a.url });
    const username = `user_good_${RUN}r`;
    const linked = await exchange(a.url, cookie, username);
    await midImport(a.url, cookie);

    // The replica running a job of this import now (the other may have taken the next step).
    const [running, other] = await waitFor("a replica running a job of the import", async () => {
      if (runningJobOf(a, linked.import_id)) return [a, b] as const;
      if (runningJobOf(b, linked.import_id)) return [b, a] as const;
      return undefined;
    });
    await kill9(running);

    const [done] = await waitForImports(cookie, { base: other.url, timeoutMs: 90_000 });
    const expected = expectedDemoLedger(username);
    expect(done).toMatchObject({ id: linked.import_id, state: "done", error: null, total: expected.transactions });
    expect(await tradesOf(other.url, cookie)).toBe(expected.trades);
    expect(isRunning(other)).toBe(true);
    // The dead replica's job was taken back: a job of this import ran again after it expired (its
    // automatic grade's, when the step it had just finished was the last).
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select count(*)::int as n from pgboss.job where name in ('import-step', 'regrade') and (data->>'importId')::int = $1 and retry_count > 0",
        [linked.import_id],
      );
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    expect(await other.stop()).toBe(0);
    expect(await invariantProblems(env, { users: [email] })).toEqual([]);
  });
});
