import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { DEMO_KRAKEN } from "../mocks/kraken";
import { baseUrl, get, postForm, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Kraken through the real path: GetApiKeyInfo proves the key read-only (ccxt against the
// simulator), the 406 rule, the import as jobs (one 50-row page each), the mapping and the grade.

const SECRET = Buffer.alloc(64, 3).toString("base64");

async function linkKey(body: Record<string, unknown>, cookie: string, base = baseUrl()) {
  const res = await fetch(base + "/api/exchange/wallet", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ exchange: "kraken", secret: SECRET, ...body }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: Record<string, unknown>; error?: { message: string }; code?: number },
  };
}

type Ledger = {
  trades: { id: string; time: string; symbol: string; side: string; quantity: number; price: number }[];
  events: { id: string; kind: string; symbol?: string; quantity?: number; price?: number; amount?: number }[];
  cashFlows: { time: string; amount: number }[];
};
async function ledgerOf(cookie: string, base = baseUrl()) {
  const res = await get("/api/portal/ledger", { cookie, base });
  expect(res.status).toBe(200);
  return (await res.json()) as { data: Ledger };
}

/**
 * The demo year's rows (test/mocks/kraken.ts): 60 trades and the withdrawal's ETH fee sold from its
 * position, 1 deposit in dollars, 61 events.
 */
const EXPECTED = { trades: 61, cashFlows: 1, events: 61 };
const RUN = Date.now().toString(36);

describe("linking Kraken with an API key", () => {
  it("links a read-only key, imports the demo year page by page and grades it", async () => {
    const { cookie } = await signUp();
    const key = `demo-read-only-${RUN}`;
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const label = res.body.data!.label as string;
    expect(res.body.data).toMatchObject({
      kind: "kraken",
      exchange: "kraken",
      label: expect.stringMatching(/^Kraken account …[A-Z0-9]{4}$/),
      demo: true,
      status: "importing",
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(JSON.stringify(res.body)).not.toContain(key);
    const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });
    // 54 fills (two pages), 121 ledger entries (three), the 2 deposits' and the withdrawal's
    // status rows, the pairs: every row fetched once.
    expect(done!.fetched).toBe(54 + 121 + 2 + 1 + 3);
    expect(done!.skipped).toEqual(
      expect.arrayContaining([
        { reason: "trade in EUR without a USD price", count: 1 },
        { reason: "deposit of EUR without a USD price", count: 1 },
      ]),
    );
    const { data: ledger } = await ledgerOf(cookie);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.cashFlows).toHaveLength(EXPECTED.cashFlows);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    expect(ledger.cashFlows[0]!.amount).toBeCloseTo(DEMO_KRAKEN.deposit.amount, 6);
    expect(ledger.events.filter((e) => e.kind === "income")).toHaveLength(6);
    expect(ledger.events.find((e) => e.kind === "send")).toMatchObject({ symbol: "ETH", quantity: 0.4 });

    // The grade, by hand: 26 BTC/USD round trips of 0.02 BTC, in dollars: 0.02 × (20 × 1,500 − 6 × 1,000).
    const btc = ledger.trades.filter((t) => t.symbol === "BTC");
    expect(btc).toHaveLength(52);
    const btcOnly = parseLedger({ ...ledger, trades: btc, events: [] });
    if (!btcOnly.ok) throw new Error(btcOnly.problems.join("; "));
    expect(grade(btcOnly.ledger).metrics.realizedPnl).toBeCloseTo(DEMO_KRAKEN.realizedUsd, 4);
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    expect(grade(parsed.ledger).metrics.roundTrips).toBeGreaterThanOrEqual(26);

    const page = await get("/profile/account", { cookie });
    expect(await page.text()).toContain(label);
    // The exchange grade call grades Kraken accounts too.
    const evaluation = await fetch(baseUrl() + "/api/exchange/evaluation", { method: "POST", headers: { cookie } });
    expect(evaluation.status).toBe(200);
    const outcome = ((await evaluation.json()) as { data: { code: number } }).data;
    // 425 too: the evaluation re-imports, and the key's counter (spent by the import a moment ago)
    // makes Kraken's answers wait longer than the evaluation waits.
    expect([200, 2002, 425]).toContain(outcome.code);
  }, 120_000);

  it.each([
    ["demo-can-trade", /^This key can trade\. Create a read-only key: on Kraken.*untick Create & Modify Orders/],
    ["demo-can-withdraw", /^This key can withdraw\. Create a read-only key: on Kraken.*untick Withdraw Funds/],
    ["no-such-key", /^Kraken refused the key: EAPI:Invalid key Check the key and secret\.$/],
  ])("refuses %s with its message and stores nothing", async (key, message) => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(message);
    const accounts = await (await get("/api/portal/imports", { cookie })).json();
    expect((accounts as { data: unknown[] }).data).toEqual([]);
  });

  it("gives one Kraken account to one Grader user: a second user gets 406", async () => {
    const key = `demo-read-only-${crypto.randomBytes(4).toString("hex")}`;
    const first = await signUp();
    expect((await linkKey({ api_key: key }, first.cookie)).status).toBe(201);
    const second = await signUp();
    const res = await linkKey({ api_key: key }, second.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 406, error: { message: MESSAGE_406 } });
    await waitForImports(first.cookie, { timeoutMs: 90_000 });
  }, 120_000);

  it("marks an account whose key stopped working as needing a new key, with Kraken's reason", async () => {
    const { cookie } = await signUp();
    expect((await linkKey({ api_key: `sim-revoked-later-${RUN}` }, cookie)).status).toBe(201);
    const [failed] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(failed).toMatchObject({ state: "failed", error: "Kraken refused the key: EAPI:Invalid key" });
    const html = await (await get("/profile/account", { cookie })).text();
    expect(html).toContain("This account needs a new key.");
  }, 90_000);

  it("links through the page's plain form post", async () => {
    const { cookie } = await signUp();
    const refused = await postForm(
      "/link/exchange",
      { exchange: "kraken", api_key: "demo-can-trade", secret: "do-not-echo" },
      { cookie },
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Kraken&#x27;s private key is base64");
    expect(html).not.toContain("do-not-echo");
    const trading = await postForm(
      "/link/exchange",
      { exchange: "kraken", api_key: "demo-can-trade", secret: SECRET },
      { cookie },
    );
    expect(trading.status).toBe(400);
    const page = await trading.text();
    expect(page).toContain("This key can trade. Create a read-only key: on Kraken");
    expect(page).toContain('value="demo-can-trade"');
    expect(page).not.toContain(SECRET);
    const linked = await postForm(
      "/link/exchange",
      { exchange: "kraken", api_key: `demo-read-only-form-${Date.now()}`, secret: SECRET },
      { cookie },
    );
    expect(linked.status).toBe(302);
    await waitForImports(cookie, { timeoutMs: 90_000 });
  }, 120_000);
});

async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-kraken-")) };
  return ownDatabase();
}

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

async function importsOf(base: string, cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { cookie, base })).json()) as { data: ImportRow[] }).data;
}

describe("a Kraken import under stress", () => {
  it("waits out a spent call-rate counter and a nonce taken by another program, every row once", async () => {
    const server = await startServer({ SIM_DELAY_FACTOR: "0", ...(await storage()) });
    started.push(server);
    const { cookie } = await signUp({ base: server.url });
    expect((await linkKey({ api_key: `sim-rate-${RUN}` }, cookie, server.url)).status).toBe(201);
    const waits: ImportRow[] = [];
    const deadline = Date.now() + 100_000;
    let rows: ImportRow[] = [];
    while (Date.now() < deadline) {
      rows = await importsOf(server.url, cookie);
      if (rows[0]!.state === "waiting_for_provider") waits.push(rows[0]!);
      if (rows[0]!.state === "done" || rows[0]!.state === "failed") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]!.error).toBe(
      "Kraken asked us to slow down (EAPI:Rate limit exceeded); the import waits and resumes.",
    );
    expect(rows[0]).toMatchObject({ state: "done", error: null });
    const { data: ledger } = await ledgerOf(cookie, server.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);

    const nonce = await signUp({ base: server.url });
    expect((await linkKey({ api_key: `sim-nonce-${RUN}` }, nonce.cookie, server.url)).status).toBe(201);
    const [done] = await waitForImports(nonce.cookie, { base: server.url, timeoutMs: 60_000 });
    expect(done).toMatchObject({ state: "done", error: null, trades_added: EXPECTED.trades });
    expect(server.logs.join("\n")).not.toContain(SECRET);
    expect(server.logs.join("\n")).not.toContain(`sim-rate-${RUN}`);
  }, 180_000);

  it("survives kill -9 in the middle of an import: the next server finishes it, nothing lost, nothing twice", async () => {
    const env = {
      SIM_DELAY_FACTOR: "6",
      JOB_EXPIRE_SECONDS: "3",
      ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
      ...(await storage()),
    };
    const first = await startServer(env);
    started.push(first);
    const { cookie } = await signUp({ base: first.url });
    const linked = await linkKey({ api_key: "demo-read-only" }, cookie, first.url);
    expect(linked.status).toBe(201);
    let before: ImportRow | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      [before] = await importsOf(first.url, cookie);
      if (before && before.state === "fetching" && before.fetched > 0) break;
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(before).toMatchObject({ state: "fetching" });
    first.process.kill("SIGKILL");
    await new Promise<void>((resolve) => first.process.once("exit", () => resolve()));

    const second = await startServer(env);
    started.push(second);
    const [done] = await waitForImports(cookie, { base: second.url, timeoutMs: 120_000 });
    expect(done).toMatchObject({ id: linked.body.data!.import_id, state: "done", error: null });
    expect(done!.fetched).toBeGreaterThan(before!.fetched);
    const { data: ledger } = await ledgerOf(cookie, second.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.cashFlows).toHaveLength(EXPECTED.cashFlows);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    expect(done!.trades_added).toBe(EXPECTED.trades);
  }, 240_000);
});
