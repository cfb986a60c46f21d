import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { DEMO_BINANCE } from "../mocks/binance";
import { simulatedCoinPrice } from "../mocks/prices";
import { baseUrl, get, postForm, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Binance through the real path: a read-only key checked with the exchange (ccxt against the
// simulator), the 406 rule, the import as jobs (one window or page each), the mapping and the grade.

async function linkKey(body: Record<string, unknown>, cookie: string, base = baseUrl()) {
  const res = await fetch(base + "/api/exchange/wallet", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ exchange: "binance", secret: "s3cret", ...body }),
  });
  return {
    status: res.status,
    text: "",
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
 * The demo history's rows: 28 trades (the euro fill is counted, not used) and the 26 fees paid in
 * kind sold from their positions (25 fills' BNB, the withdrawal's ETH), 1 deposit, 28 events.
 */
const EXPECTED = { trades: 54, cashFlows: 1, events: 28 };
const RUN = Date.now().toString(36);
const usdt = (t: number) => simulatedCoinPrice("coingecko:tether", new Date(t))!;

describe("linking Binance with an API key", () => {
  it("links a read-only key, imports the demo year as jobs and maps it, counting what it cannot use", async () => {
    const { cookie } = await signUp();
    // The demo history under an account of this run's own (the shared server keeps earlier runs').
    const key = `demo-read-only-${RUN}`;
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const label = res.body.data!.label as string;
    expect(res.body.data).toMatchObject({
      kind: "binance",
      exchange: "binance",
      label: expect.stringMatching(/^Binance account …\d{4}$/),
      demo: true,
      status: "importing",
    });
    // The key is never echoed.
    expect(JSON.stringify(res.body)).not.toContain("s3cret");
    expect(JSON.stringify(res.body)).not.toContain(key);
    const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });
    expect(done!.skipped).toEqual([{ reason: "trade in EUR without a USD price", count: 1 }]);
    const { data: ledger } = await ledgerOf(cookie);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.cashFlows).toHaveLength(EXPECTED.cashFlows);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    // The deposit from the demo MetaMask wallet: 10,000 USDT at USDT's price then.
    expect(ledger.cashFlows[0]!.amount).toBeCloseTo(DEMO_BINANCE.deposit.amount * usdt(DEMO_BINANCE.deposit.time), 0);
    // Fees in BNB as fee events at BNB's price: 25 fills, the withdrawal's ETH fee, the dust's charge.
    expect(ledger.events.filter((e) => e.kind === "fee")).toHaveLength(27);
    expect(ledger.events.find((e) => e.kind === "send")).toMatchObject({ symbol: "ETH", quantity: 0.1 });
    // The BNB paid in fees leaves the BNB position: 1 bought, 0.0001 × 25 sold as fees.
    const bnb = ledger.trades.filter((t) => t.symbol === "BNB");
    const held = bnb.reduce((s, t) => s + (t.side === "buy" ? t.quantity : -t.quantity), 0);
    expect(held).toBeCloseTo(1 - 25 * DEMO_BINANCE.feeBnb + DEMO_BINANCE.dust.bnb, 9);

    // The grade, by hand: twelve BTC round trips of 0.05 BTC, each leg at its USDT price × USDT's
    // price at the time: 0.05 × (8 × 2,000 − 4 × 1,500) = 500 USDT, in dollars.
    const btcRealized = DEMO_BINANCE.roundTrips.reduce(
      (sum, r) => sum + r.qty * (r.sell * usdt(r.sellTime) - r.buy * usdt(r.buyTime)),
      0,
    );
    expect(btcRealized).toBeGreaterThan(495);
    expect(btcRealized).toBeLessThan(505);
    const btc = ledger.trades.filter((t) => t.symbol === "BTC");
    const sold = btc.filter((t) => t.side === "sell").reduce((s, t) => s + t.quantity * t.price, 0);
    const bought = btc.filter((t) => t.side === "buy").reduce((s, t) => s + t.quantity * t.price, 0);
    expect(sold - bought).toBeCloseTo(btcRealized, 0);
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const btcOnly = parseLedger({ ...ledger, trades: btc, events: [], cashFlows: ledger.cashFlows });
    if (!btcOnly.ok) throw new Error(btcOnly.problems.join("; "));
    expect(grade(btcOnly.ledger).metrics.realizedPnl).toBeCloseTo(btcRealized, 0);
    expect(grade(parsed.ledger).metrics.roundTrips).toBeGreaterThanOrEqual(12);

    // The account page shows it, and the grade call grades it as the wallets' does.
    const page = await get("/profile/account", { cookie });
    expect(await page.text()).toContain(label);
    const evaluation = await fetch(baseUrl() + "/api/exchange/evaluation", { method: "POST", headers: { cookie } });
    expect(evaluation.status).toBe(200);
    const outcome = ((await evaluation.json()) as { data: { code: number; tier?: string } }).data;
    expect([200, 2002]).toContain(outcome.code);
  }, 120_000);

  it.each([
    ["demo-can-trade", /^This key can trade\. Create a read-only key: .*untick Enable Spot & Margin Trading/],
    ["demo-can-withdraw", /^This key can withdraw\. Create a read-only key: .*untick Enable Withdrawals/],
    ["no-such-key", /^Binance refused the key: Invalid API-key, IP, or permissions for action\. \(-2015\)/],
  ])("refuses %s with its message and stores nothing", async (key, message) => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(message);
    const accounts = await (await get("/api/portal/imports", { cookie })).json();
    expect((accounts as { data: unknown[] }).data).toEqual([]);
  });

  it("answers bad input with a 400 naming the field, and an unknown exchange plainly", async () => {
    const { cookie } = await signUp();
    const missing = await linkKey({ api_key: "" }, cookie);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain("Enter the API key.");
    const unknown = await linkKey({ exchange: "mtgox", api_key: "k" }, cookie);
    expect(unknown.status).toBe(400);
  });

  it("gives one exchange account to one Grader user: a second user gets 406", async () => {
    const key = `demo-read-only-${crypto.randomBytes(4).toString("hex")}`;
    const first = await signUp();
    expect((await linkKey({ api_key: key }, first.cookie)).status).toBe(201);
    const second = await signUp();
    const res = await linkKey({ api_key: key, secret: "another secret" }, second.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 406, error: { message: MESSAGE_406 } });
    // The owner linking it again replaces the key (the way back from "needs a new key").
    const again = await linkKey({ api_key: key }, first.cookie);
    expect(again.status).toBe(200);
    await waitForImports(first.cookie, { timeoutMs: 90_000 });
    // Unlinked, the account and its key are gone: the second user may link it now.
    const unlinked = await postForm(
      "/profile/account",
      { intent: "unlink", id: String(again.body.data!.linked_account_id), confirm: "yes" },
      { cookie: first.cookie },
    );
    expect(unlinked.headers.get("location")).toBe("/profile/account?unlinked=1");
    expect((await linkKey({ api_key: key }, second.cookie)).status).toBe(201);
    await waitForImports(second.cookie, { timeoutMs: 90_000 });
  }, 120_000);

  it("marks an account whose key stopped working as needing a new key, with Binance's reason", async () => {
    const { cookie } = await signUp();
    expect((await linkKey({ api_key: `sim-revoked-later-${RUN}` }, cookie)).status).toBe(201);
    const [failed] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(failed).toMatchObject({ state: "failed" });
    expect(failed!.error).toMatch(
      /Binance refused the key: Invalid API-key, IP, or permissions for action\. \(-2015\)/,
    );
    const html = await (await get("/profile/account", { cookie })).text();
    expect(html).toContain("This account needs a new key.");
    expect(html).toContain("Invalid API-key, IP, or permissions for action.");
  }, 90_000);

  it("links through the page's plain form post, keeping what was typed but the secret on a refusal", async () => {
    const { cookie } = await signUp();
    const refused = await postForm(
      "/link/exchange",
      { exchange: "binance", api_key: "demo-can-withdraw", secret: "do-not-echo" },
      { cookie },
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("This key can withdraw. Create a read-only key:");
    expect(html).toContain('value="demo-can-withdraw"');
    expect(html).not.toContain("do-not-echo");
    const demo = await get("/link/exchange?demo=1", { cookie });
    expect(await demo.text()).toContain('value="demo-read-only"');
    const linked = await postForm(
      "/link/exchange",
      { exchange: "binance", api_key: `demo-read-only-form-${Date.now()}`, secret: "x" },
      { cookie },
    );
    expect(linked.status).toBe(302);
    expect(linked.headers.get("location")).toBe("/profile/account#imports");
    await waitForImports(cookie, { timeoutMs: 90_000 });
  }, 120_000);
});

/** A database of the test's own, kept across a restart: a PGlite directory, or a new PostgreSQL database. */
async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-binance-")) };
  return ownDatabase();
}

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

async function importsOf(base: string, cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { cookie, base })).json()) as { data: ImportRow[] }).data;
}

describe("a Binance import under stress", () => {
  it("waits out a 429 and a 418 ban for their Retry-After and completes with every row once", async () => {
    const server = await startServer({ SIM_DELAY_FACTOR: "0", ...(await storage()) });
    started.push(server);
    const { cookie } = await signUp({ base: server.url });
    expect((await linkKey({ api_key: `sim-ban-${RUN}` }, cookie, server.url)).status).toBe(201);
    const waits: ImportRow[] = [];
    const deadline = Date.now() + 60_000;
    let rows: ImportRow[] = [];
    while (Date.now() < deadline) {
      rows = await importsOf(server.url, cookie);
      if (rows[0]!.state === "waiting_for_provider") waits.push(rows[0]!);
      if (rows[0]!.state === "done" || rows[0]!.state === "failed") break;
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]!.error).toMatch(/^Binance asked us to slow down \(-1003\); the import waits and resumes\.$/);
    expect(rows[0]).toMatchObject({ state: "done", error: null });
    const { data: ledger } = await ledgerOf(cookie, server.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    // The key and its secret never reach the log.
    expect(server.logs.length).toBeGreaterThan(0);
    expect(server.logs.join("\n")).not.toContain("s3cret");
    expect(server.logs.join("\n")).not.toContain(`sim-ban-${RUN}`);
  }, 90_000);

  it("survives kill -9 in the middle of an import: the next server finishes it, nothing lost, nothing twice", async () => {
    const env = {
      SIM_DELAY_FACTOR: "4",
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
      await new Promise((r) => setTimeout(r, 50));
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
