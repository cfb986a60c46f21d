import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Plaid's asynchronous investments history, through Link as a trader links: PRODUCT_NOT_READY
// first, then the last 30 days, then the rest after a signed HISTORICAL_UPDATE webhook, which the
// simulator delivers while the link import runs (test/mocks/plaid.ts). On a server of its own:
// the simulator's memory of an item is its process's, and the shared servers of the two test
// projects run each other's jobs on one database (a job taken by the other process meets an item
// its simulator never saw, which answers the whole history at once).

// On embedded PGlite always, and on PostgreSQL too when DATABASE_URL names one (CI).
const databases: [string, () => Promise<Record<string, string>>][] = [
  ["PGlite", async () => ({ DATABASE_URL: "", DATA_DIR: "memory://" })],
  ...(process.env.DATABASE_URL ? [["PostgreSQL", ownDatabase] as [string, typeof ownDatabase]] : []),
];

let server: RunningServer;
const baseUrl = () => server.url;
const username = () => `user_good_ph${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** Plaid Link as the demo plays it: a link token, then the credentials form (no JavaScript). */
async function linkThroughLink(cookie: string, user: string) {
  const tokenRes = await fetch(baseUrl() + "/api/finance/plaid/link-token", {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: baseUrl() },
    body: "{}",
  });
  expect(tokenRes.status).toBe(200);
  const linkToken = ((await tokenRes.json()) as { data: { link_token: string } }).data.link_token;
  const res = await postForm(
    "/demo/plaid-link",
    { link_token: linkToken, account: "", username: user, password: "pass_good", intent: "submit" },
    { cookie, base: baseUrl() },
  );
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).not.toContain("linkError");
}

/** The stored ledger's trade times (the newest evaluation's). */
async function ledgerTradeTimes(cookie: string): Promise<number[]> {
  const res = await get("/api/portal/ledger", { cookie, base: baseUrl() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { trades: { time: string }[] } }).data.trades.map((t) => Date.parse(t.time));
}

async function notificationKinds(cookie: string): Promise<string[]> {
  const res = await get("/api/portal/notifications", { cookie, base: baseUrl() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { kind: string }[] }).data.map((n) => n.kind);
}

describe.each(databases)("a Plaid link with Plaid's asynchronous history, on %s", (_name, database) => {
  beforeAll(async () => {
    server = await startServer(await database());
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("imports the first 30 days, then the whole history after HISTORICAL_UPDATE, and grades once", async () => {
    const user = username();
    const { cookie } = await signUp({ base: baseUrl() });
    await linkThroughLink(cookie, user);
    const rows = (await waitForImports(cookie, { base: baseUrl(), timeoutMs: 45_000 })) as (ImportRow & {
      reason: string;
    })[];

    // Exactly two imports, the follow-up started when the link import ended: never a gap between them.
    expect(rows.map((r) => [r.reason, r.state])).toEqual([
      ["webhook", "done"],
      ["link", "done"],
    ]);
    const full = rows[0]!;
    const first = rows[1]!;
    // The link import met PRODUCT_NOT_READY (asked again, spending no retry) and then read 30 days.
    expect(first.attempts).toBeGreaterThanOrEqual(3);
    expect(first.error).toBeNull();
    expect(first.total).toBe(first.fetched);
    expect(full.total).toBe(full.fetched);
    expect(full.total!).toBeGreaterThan(first.total! + 100);

    // The grade stands on the whole history, not the first 30 days.
    const times = await ledgerTradeTimes(cookie);
    expect(times.length).toBeGreaterThan(100);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(365 * 86_400_000);

    // One grade, from the whole history: the part's import neither graded nor announced itself.
    const kinds = await notificationKinds(cookie);
    expect(kinds.filter((k) => k === "grade_done")).toHaveLength(1);
    expect(kinds.filter((k) => k === "import_done")).toHaveLength(1);
  }, 90_000);
});
