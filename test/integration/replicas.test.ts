import { afterAll, describe, expect, it } from "vitest";
import { get } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Replicas of one deployment start together on a database nobody has set up yet: each runs the
// migrations and creates pg-boss's schema and queues at the same moment.

const started: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => (s.process.exitCode === null ? s.stop() : null)));
});

// Several processes on one database need PostgreSQL: PGlite belongs to one process.
describe.skipIf(!process.env.DATABASE_URL)("replicas started together on an empty database", () => {
  it("all three come up and answer /healthz", async () => {
    const env = { ...(await ownDatabase()), LOG_REQUESTS: "0" };
    const results = await Promise.allSettled(
      [1, 2, 3].map(async () => {
        const server = await startServer(env, { timeoutMs: 120_000 });
        started.push(server);
        return server;
      }),
    );
    const failures = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason).slice(0, 2000)] : []));
    expect(failures).toEqual([]);
    for (const r of results) {
      const server = (r as PromiseFulfilledResult<RunningServer>).value;
      const res = await get("/healthz", { base: server.url });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", db: "postgres" });
    }
  }, 180_000);
});
