import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { signUp, waitForImports, type ImportRow } from "../support/http";
import { exchange, importsOf, midImport, tradesOf } from "../support/plaid-link";
import { expectedDemoLedger } from "../support/plaid-expected";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Imports as jobs under stress: a server stopped or killed in the middle of an import, two
// servers on one database, a provider that is not ready yet. Each test starts its own servers
// (the shared one is left alone). The Plaid simulator is slowed down (SIM_DELAY_FACTOR) and
// answers small pages (SIM_PLAID_PAGE_SIZE) so an import spans many jobs.

const RUN = Date.now().toString(36);
const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

const SLOW = {
  SIM_DELAY_FACTOR: "5",
  SIM_PLAID_PAGE_SIZE: "40",
  JOB_EXPIRE_SECONDS: "3",
  ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
};

async function start(env: Record<string, string>) {
  const server = await startServer(env);
  started.push(server);
  return server;
}

/**
 * A database of the test's own, kept across restarts: a PGlite directory, or a new database next
 * to DATABASE_URL's (so the shared test server's workers never take these jobs).
 */
async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-jobs-")) };
  return ownDatabase();
}

describe("imports survive the server going away", () => {
  it.each([
    ["SIGTERM (a restart)", "SIGTERM"],
    ["kill -9 (a crash)", "SIGKILL"],
  ] as const)(
    "%s in the middle of an import: the next server finishes it, no trade twice",
    async (_name, signal) => {
      const env = { ...SLOW, ...(await storage()) };
      const first = await start(env);
      const { cookie } = await signUp({ base: first.url });
      const username = `user_good_${RUN}${signal === "SIGKILL" ? "k" : "t"}`;
      const linked = await exchange(first.url, cookie, username);
      const before = await midImport(first.url, cookie);
      first.process.kill(signal);
      await new Promise<void>((resolve) => first.process.once("exit", () => resolve()));

      const second = await start(env);
      const [done] = await waitForImports(cookie, { base: second.url, timeoutMs: 60_000 });
      const expected = expectedDemoLedger(username);
      expect(done).toMatchObject({
        id: linked.import_id,
        state: "done",
        error: null,
        total: expected.transactions,
        fetched: expected.transactions,
      });
      expect(done!.fetched).toBeGreaterThan(before.fetched);
      // Every trade once: what the brokerage holds, not a page more.
      expect(await tradesOf(second.url, cookie)).toBe(expected.trades);
      expect(done!.trades_added).toBe(expected.trades);
    },
    120_000,
  );
});

describe("a provider that is not ready yet", () => {
  it("PRODUCT_NOT_READY right after a link is asked again with backoff until the history comes, spending no retry", async () => {
    // No retries at all: waiting for a provider that is not ready is not an error.
    const server = await start({ SIM_DELAY_FACTOR: "0", JOB_RETRY_LIMIT: "0", ...(await storage()) });
    const { cookie } = await signUp({ base: server.url });
    const username = `user_good_${RUN}n`;
    await exchange(server.url, cookie, username, "product-not-ready-");
    const seen = new Set<string>();
    const deadline = Date.now() + 30_000;
    let rows: ImportRow[] = [];
    while (Date.now() < deadline) {
      rows = await importsOf(server.url, cookie);
      seen.add(rows[0]!.state);
      if (rows[0]!.state === "done" || rows[0]!.state === "failed") break;
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(seen).toContain("waiting_for_provider");
    // Two answers "not ready", then each page of 500, then the holdings (rate-limited once).
    const pages = Math.ceil(expectedDemoLedger(username).transactions / 500);
    expect(rows[0]).toMatchObject({ state: "done", error: null, attempts: 2 + pages + 2 });
    expect(await tradesOf(server.url, cookie)).toBe(expectedDemoLedger(username).trades);
  }, 60_000);
});

describe("a provider that limits its rate", () => {
  it("RATE_LIMIT_EXCEEDED (HTTP 429) is waited out with backoff, spending no retry, and the import completes", async () => {
    const server = await start({ SIM_DELAY_FACTOR: "0", JOB_RETRY_LIMIT: "0", ...(await storage()) });
    const { cookie } = await signUp({ base: server.url });
    const username = `user_good_${RUN}r`;
    await exchange(server.url, cookie, username);
    const waiting: ImportRow[] = [];
    const deadline = Date.now() + 30_000;
    let rows: ImportRow[] = [];
    while (Date.now() < deadline) {
      rows = await importsOf(server.url, cookie);
      if (rows[0]!.state === "waiting_for_provider") waiting.push(rows[0]!);
      if (rows[0]!.state === "done" || rows[0]!.state === "failed") break;
      await new Promise((r) => setTimeout(r, 40));
    }
    // The simulator's 429 reached the real SDK and was read as a rate limit, not a refusal.
    const limited = server.logs.filter(
      (l) => l.includes("plaid call failed") && l.includes("INVESTMENT_HOLDINGS_GET_LIMIT"),
    );
    expect(limited.length).toBe(1);
    expect(limited[0]).toContain('"kind":"rate_limit"');
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting[0]!.error).toBe("Plaid asked us to slow down; we'll continue shortly.");
    const pages = Math.ceil(expectedDemoLedger(username).transactions / 500);
    expect(rows[0]).toMatchObject({ state: "done", error: null, attempts: pages + 2 });
    expect(await tradesOf(server.url, cookie)).toBe(expectedDemoLedger(username).trades);
  }, 150_000);
});

describe("a webhook that never comes", () => {
  it("falls back to polling: a Plaid account not imported for PLAID_POLL_SECONDS is imported again, adding nothing twice", async () => {
    const server = await start({ SIM_DELAY_FACTOR: "0", PLAID_POLL_SECONDS: "4", ...(await storage()) });
    const { cookie } = await signUp({ base: server.url });
    const username = `user_good_${RUN}p`;
    const linked = await exchange(server.url, cookie, username);
    const deadline = Date.now() + 90_000;
    let rows: ImportRow[] = [];
    // No webhook is sent: the only way to a second import is the poll.
    while (Date.now() < deadline) {
      rows = await importsOf(server.url, cookie);
      if (rows.some((r) => (r as ImportRow & { reason: string }).reason === "poll" && r.state === "done")) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const polled = rows.find((r) => (r as ImportRow & { reason: string }).reason === "poll");
    expect(polled).toMatchObject({ linked_account_id: linked.id, state: "done", error: null, trades_added: 0 });
    expect(rows.find((r) => r.id === linked.import_id)).toMatchObject({ state: "done" });
    expect(await tradesOf(server.url, cookie)).toBe(expectedDemoLedger(username).trades);
  }, 180_000);
});

// Two app processes need a database both can reach: PostgreSQL (PGlite has one process).
describe.skipIf(!process.env.DATABASE_URL)("two app processes on one PostgreSQL", () => {
  it("run each job once, and every import completes with each trade once", async () => {
    const env = {
      SIM_DELAY_FACTOR: "1",
      SIM_PLAID_PAGE_SIZE: "60",
      ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
      LOG_LEVEL: "info",
      LOG_REQUESTS: "0",
      ...(await storage()),
    };
    const a = await start(env);
    const b = await start(env);
    const users: { cookie: string; username: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const { cookie } = await signUp({ base: i % 2 ? b.url : a.url });
      const username = `user_good_${RUN}p${i}`;
      await exchange(i % 2 ? b.url : a.url, cookie, username);
      users.push({ cookie, username });
    }
    for (const u of users) {
      const [done] = await waitForImports(u.cookie, { base: a.url, timeoutMs: 60_000 });
      expect(done).toMatchObject({ state: "done" });
      expect(await tradesOf(a.url, u.cookie)).toBe(expectedDemoLedger(u.username).trades);
    }
    // Every job that ran, from both processes' logs: no job id twice.
    const ran = [...a.logs, ...b.logs]
      .map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; id?: string; pid?: number };
        } catch {
          return {};
        }
      })
      .filter((e) => e.msg === "job done");
    const ids = ran.map((e) => e.id);
    expect(ids.length).toBeGreaterThan(4 * 3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ran.map((e) => e.pid)).size).toBe(2); // both processes worked
    // And the queue agrees: nothing left active.
    const client = new pg.Client({ connectionString: (env as Record<string, string>).DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select count(*)::int as n from pgboss.job where state in ('active', 'created', 'retry') and name = 'import-step'",
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  }, 120_000);
});
