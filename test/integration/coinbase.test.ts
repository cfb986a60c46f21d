import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { DEMO_COINBASE } from "../mocks/coinbase";
import { baseUrl, get, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Coinbase through the real path: key_permissions proves the CDP key read-only (ccxt signing a JWT
// per request, against the simulator), the 406 rule, the import as jobs (one cursor page each), the
// mapping and the grade.

/** An Ed25519 CDP secret: base64 of 64 bytes. */
const SECRET = Buffer.alloc(64, 3).toString("base64");

async function linkKey(body: Record<string, unknown>, cookie: string, base = baseUrl()) {
  const res = await fetch(base + "/api/exchange/wallet", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ exchange: "coinbase", secret: SECRET, ...body }),
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
 * The demo year's rows (test/mocks/coinbase.ts). Fills: 104 trades and the BTC of one commission
 * sold, 103 fees (the EUR fill is counted). v2 transactions: the convert's ETH sold (its USDC leg
 * is cash), the staking reward's ETH bought and the withdrawal fee's ETH sold (+3 trades); the
 * fiat deposit (1 cash flow); the reward's income, the deposit's receive, the withdrawal's send and
 * its fee (+4 events). 105 + 3 = 108 trades, 103 + 4 = 107 events.
 */
const EXPECTED = { trades: 108, cashFlows: 1, events: 107 };
/** Rows fetched: 104 fills, 6 v2 wallets, each fill on its two wallets and 6 other transactions. */
const FETCHED = 104 + 6 + 2 * 104 + 6;
const RUN = Date.now().toString(36);

describe("linking Coinbase with a CDP key", () => {
  it("links a View-only key, imports the demo year page by page and grades it", async () => {
    const { cookie } = await signUp();
    const key = `organizations/org-${RUN}/apiKeys/demo-read-only-${RUN}`;
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const label = res.body.data!.label as string;
    expect(res.body.data).toMatchObject({
      kind: "coinbase",
      exchange: "coinbase",
      label: expect.stringMatching(/^Coinbase account …[0-9a-f]{4}$/),
      demo: true,
      status: "importing",
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(JSON.stringify(res.body)).not.toContain(key);
    const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });
    // 104 fills in two cursor pages, the wallets, each wallet's transactions: each fetched once.
    expect(done!.fetched).toBe(FETCHED);
    expect(done!.skipped).toEqual([{ reason: "trade in EUR without a USD price", count: 1 }]);
    const { data: ledger } = await ledgerOf(cookie);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.cashFlows).toHaveLength(EXPECTED.cashFlows);
    expect(ledger.events).toHaveLength(EXPECTED.events);

    // The grade, by hand: twelve BTC-USD round trips of 0.01 BTC: 0.01 × (8 × 2,500 − 4 × 2,000).
    const btc = ledger.trades.filter((t) => t.symbol === "BTC" && !/:[qk]$/.test(t.id));
    expect(btc).toHaveLength(24);
    const btcOnly = parseLedger({ ...ledger, trades: btc, events: [] });
    if (!btcOnly.ok) throw new Error(btcOnly.problems.join("; "));
    expect(grade(btcOnly.ledger).metrics.realizedPnl).toBeCloseTo(DEMO_COINBASE.realizedUsd, 4);

    // The convert, by hand: 0.05 ETH for 155 USDC on day 60, valued through the USDC (≈ 1 USD).
    // FIFO sells the first five weekly lots, 0.01 × (3,000 + 3,010 + 3,020 + 3,030 + 3,040) = 0.01 × 15,100 = 151,
    // so realized = 155 × USDC's price − 151 ≈ 4.
    const d = DEMO_COINBASE;
    const convert = ledger.trades.filter((t) => t.id.includes(":coinbase:c:"));
    expect(convert).toMatchObject([{ symbol: "ETH", side: "sell", quantity: d.convert.eth }]);
    const proceeds = convert[0]!.quantity * convert[0]!.price;
    expect(proceeds).toBeCloseTo(d.convert.usdc, 0);
    const ethToConvert = ledger.trades.filter((t) => t.symbol === "ETH" && Date.parse(t.time) <= d.convert.time);
    expect(ethToConvert).toHaveLength(9 + 1);
    const ethOnly = parseLedger({ ...ledger, trades: ethToConvert, events: [], cashFlows: [] });
    if (!ethOnly.ok) throw new Error(ethOnly.problems.join("; "));
    expect(grade(ethOnly.ledger).metrics.realizedPnl).toBeCloseTo(proceeds - 151, 6);
    expect(grade(ethOnly.ledger).metrics.realizedPnl).toBeCloseTo(d.convert.realizedUsd, 0);

    // The staking reward: income worth 0.002 ETH at the price then, and those units bought at it.
    const reward = ledger.trades.find((t) => /:coinbase:x:.*:b$/.test(t.id))!;
    expect(reward).toMatchObject({ symbol: "ETH", side: "buy", quantity: d.reward.eth });
    expect(reward.price).toBeGreaterThan(0);
    const income = ledger.events.filter((e) => e.kind === "income");
    expect(income).toHaveLength(1);
    expect(income[0]!.amount).toBeCloseTo(d.reward.eth * reward.price, 9);
    // The bank deposit is the one cash flow; the on-chain deposit and withdrawal are moves in kind
    // (no linked wallet here: external flows), the withdrawal's network fee a fee.
    expect(ledger.cashFlows.map((c) => c.amount)).toEqual([d.fiatDeposit.usd]);
    expect(ledger.events.filter((e) => e.kind === "receive")).toMatchObject([
      { symbol: "ETH", quantity: d.deposit.eth },
    ]);
    expect(ledger.events.filter((e) => e.kind === "send")).toMatchObject([
      { symbol: "ETH", quantity: d.withdrawal.eth },
    ]);

    const page = await get("/profile/account", { cookie });
    expect(await page.text()).toContain(label);
    const evaluation = await fetch(baseUrl() + "/api/exchange/evaluation", { method: "POST", headers: { cookie } });
    expect(evaluation.status).toBe(200);
    const outcome = ((await evaluation.json()) as { data: { code: number } }).data;
    expect([200, 2002]).toContain(outcome.code);
  }, 120_000);

  it.each([
    ["demo-can-trade", SECRET, /^This key can trade\. Create a read-only key: on Coinbase .*\(untick Trade\)\.$/],
    [
      "demo-can-withdraw",
      SECRET,
      /^This key can withdraw\. Create a read-only key: on Coinbase .*\(untick Transfer\)\.$/,
    ],
    ["no-such-key", SECRET, /^Coinbase refused the key\. Check the key and secret\.$/],
    ["demo-read-only", "hunter2", /^Coinbase's API secret is the private key that came with the key/],
  ])("refuses %s with its message and stores nothing", async (key, secret, message) => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: key, secret }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(message);
    const accounts = await (await get("/api/portal/imports", { cookie })).json();
    expect((accounts as { data: unknown[] }).data).toEqual([]);
  });

  it("gives one Coinbase portfolio to one Grader user: a second user gets 406", async () => {
    const key = `demo-read-only-${crypto.randomBytes(4).toString("hex")}`;
    const first = await signUp();
    expect((await linkKey({ api_key: key }, first.cookie)).status).toBe(201);
    const second = await signUp();
    const res = await linkKey({ api_key: key }, second.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 406, error: { message: MESSAGE_406 } });
    await waitForImports(first.cookie, { timeoutMs: 90_000 });
  }, 120_000);

  it("marks an account whose key stopped working as needing a new key", async () => {
    const { cookie } = await signUp();
    expect((await linkKey({ api_key: `sim-revoked-later-${RUN}` }, cookie)).status).toBe(201);
    const [failed] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(failed).toMatchObject({ state: "failed", error: "Coinbase refused the key." });
    const html = await (await get("/profile/account", { cookie })).text();
    expect(html).toContain("This account needs a new key.");
  }, 90_000);
});

async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-coinbase-")) };
  return ownDatabase();
}

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

async function importsOf(base: string, cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { cookie, base })).json()) as { data: ImportRow[] }).data;
}

describe("a Coinbase import under stress", () => {
  it("waits out a 429 and completes with every row once", async () => {
    const server = await startServer({ SIM_DELAY_FACTOR: "0", ...(await storage()) });
    started.push(server);
    const { cookie } = await signUp({ base: server.url });
    expect((await linkKey({ api_key: `sim-rate-${RUN}` }, cookie, server.url)).status).toBe(201);
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
    expect(waits[0]!.error).toBe("Coinbase asked us to slow down; the import waits and resumes.");
    expect(rows[0]).toMatchObject({ state: "done", error: null, trades_added: EXPECTED.trades });
    const { data: ledger } = await ledgerOf(cookie, server.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    expect(server.logs.join("\n")).not.toContain(SECRET);
  }, 120_000);

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
