import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { get, signUp } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// A fresh install in demo mode opens on a small, marked demo community; restarts do not seed again;
// the demo grades stay out of the public grade log.
const dir = mkdtempSync(path.join(os.tmpdir(), "grader-seed-"));
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function traders(base: string, cookie: string) {
  const res = await get("/api/portal/market/traders?page_size=50", { base, cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: number; username: string | null }[] }).data;
}

describe("demo community at start", () => {
  it("seeds a dozen graded demo traders once, marked demo and out of the grade log", async () => {
    const db = await ownDatabase();
    const env = { SEED_DEMO: "1", DATA_DIR: dir, ...db };
    server = await startServer(env);
    expect(server.logs.join("\n")).toContain("demo community seeded");
    const { cookie } = await signUp({ base: server.url });
    const first = await traders(server.url, cookie);
    expect(first).toHaveLength(12);
    expect(first.every((t) => t.username?.endsWith("_demo"))).toBe(true);
    const feed = await (await get("/community", { base: server.url, cookie })).text();
    expect(feed).toMatch(/_demo/);
    // A seeded trader's grade is whole enough to share: the share page and its card answer.
    const seeded = first[0]!;
    const share = await get(`/share/open_graph/${seeded.id}`, { base: server.url });
    expect(share.status).toBe(200);
    const page = await share.text();
    expect(page).toMatch(/is graded (Bronze|Silver|Gold|Master|Legend) on Grader/);
    expect(page).toContain("Demo data");
    const card = page.match(/\/cards\/[0-9a-f]{64}\.png/)?.[0];
    expect((await get(card!, { base: server.url })).headers.get("content-type")).toBe("image/png");
    const log = (await (await get("/api/grades/log", { base: server.url })).json()) as { data: unknown[] };
    expect(log.data).toEqual([]);
    await server.stop();

    // A restart on the same database: nothing seeded again, the signed-up user still there.
    server = await startServer(env);
    expect(server.logs.join("\n")).not.toContain("demo community seeded");
    expect(await traders(server.url, cookie)).toHaveLength(12);
    await server.stop();
    server = undefined;

    // The seeded grades are demo grades.
    if (db.DATABASE_URL) process.env.DATABASE_URL = db.DATABASE_URL;
    else process.env.DATA_DIR = dir;
    const { getDb, closeDb } = await import("~/server/platform/db.server");
    const rows = await (
      await getDb()
    )
      .selectFrom("evaluations")
      .select(["demo", "engine_version", "tier", "score", "result"])
      .execute();
    await closeDb();
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.demo && r.engine_version === "seed")).toBe(true);
    // Each seeded tier is the one its score earns (the product's bounds, not a fifth of 100 each).
    const { tierOf } = await import("~/lib/vocabulary");
    expect(rows.map((r) => r.tier)).toEqual(rows.map((r) => tierOf(Number(r.score))));
    // …and its overall stars are the tier's rank, as the engine gives them.
    const { tierStars } = await import("~/grading/score");
    const overall = (r: (typeof rows)[number]) =>
      (typeof r.result === "string" ? JSON.parse(r.result) : r.result).stars.overall as number;
    expect(rows.map(overall)).toEqual(rows.map((r) => tierStars(tierOf(Number(r.score)))));
  }, 180_000);

  it("the test server itself starts empty (SEED_DEMO=0)", async () => {
    // The shared suite server: no demo trader among the leaderboard's names.
    const { cookie } = await signUp();
    const res = await get("/api/portal/market/traders?page_size=50", { cookie });
    expect(await res.text()).not.toContain("_demo");
  });
});
