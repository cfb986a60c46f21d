import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { demoOkx } from "../mocks/okx";
import { simulatedCoinPrice } from "../mocks/prices";
import { baseUrl, get, postForm, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// OKX through the real path: account/config proves the key read-only and names the account (ccxt
// against the simulator, signed with the passphrase), the 406 rule, the import as jobs (one page of
// 100 fills each, fills-history then fills, then deposits and withdrawals), fees in kind, the
// mapping and the grade.

const SECRET = "0F7E3C2B1A9D8E7F6A5B4C3D2E1F0A9B";
const PASSPHRASE = "grader-Pass-1";

async function linkKey(body: Record<string, unknown>, cookie: string, base = baseUrl()) {
  const res = await fetch(base + "/api/exchange/wallet", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ exchange: "okx", secret: SECRET, passphrase: PASSPHRASE, ...body }),
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
  return (await res.json()) as {
    data: Ledger;
    meta: { dataQuality: { skipped: { reason: string; count: number }[] } | null };
  };
}

/**
 * The demo history's rows (test/mocks/okx.ts): 123 fills, 1 deposit, 1 withdrawal; the BTC-EUR
 * fill has no USD price. Each buy is its coin and the coin's fee sold from it; each sell its coin
 * (the USDT fee is cash); the ETH-BTC sale its ETH, the BTC bought and the BTC fee: 2 + 60 × 3 + 3
 * trades, one fee event a fill. The USDT deposit is a cash flow; the ETH withdrawal a send, its fee
 * a fee event and its ETH sold: 185 + 1 trades, 122 + 2 events. The convert (0.2 ETH for 640
 * USDT) is the ETH sold (the USDT is cash), the staking yield income and its ETH bought: + 2
 * trades, + 1 event. Rows: 123 fills, 1 deposit, 1 withdrawal, 1 convert, 8 funding bills = 134.
 */
const EXPECTED = { rows: 134, trades: 188, events: 125, cashFlows: 1 };
const RUN = Date.now().toString(36);
const usdt = (t: number) => simulatedCoinPrice("coingecko:tether", new Date(t))!;
const yearAgoMonth = () => new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 7);

describe("linking OKX with an API key", () => {
  it("links a read-only key, imports the demo history page by page and grades it", async () => {
    const { cookie } = await signUp();
    const key = `demo-read-only-${RUN}`;
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const label = res.body.data!.label as string;
    expect(res.body.data).toMatchObject({
      kind: "okx",
      exchange: "okx",
      label: expect.stringMatching(/^OKX account …\d{4}$/),
      demo: true,
      status: "importing",
    });
    for (const secret of [SECRET, PASSPHRASE, key]) expect(JSON.stringify(res.body)).not.toContain(secret);
    const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });
    // fills-history in two pages (100 and 23), fills (the last 3 days) none, one deposit, one
    // withdrawal: every row fetched once.
    expect(done!.fetched).toBe(EXPECTED.rows);
    expect(done!.skipped).toEqual(
      expect.arrayContaining([
        { reason: "trade in EUR without a USD price", count: 1 },
        { reason: `OKX keeps 1 year: trades before ${yearAgoMonth()} are not included`, count: 1 },
        // 100 USDT sent to a sub-account (funding bill type 20): counted, not read.
        { reason: "OKX transfer with a sub-account (not read yet)", count: 1 },
      ]),
    );
    const { data: ledger, meta } = await ledgerOf(cookie);
    // The grade made after the import lists it under "What this grade could not use".
    expect(meta.dataQuality?.skipped).toContainEqual({
      reason: `OKX keeps 1 year: trades before ${yearAgoMonth()} are not included`,
      count: 1,
    });
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    const d = demoOkx();
    // The 10,000 USDT deposited: cash in, at USDT's price then (the price cache's: within a cent).
    expect(ledger.cashFlows).toHaveLength(EXPECTED.cashFlows);
    expect(Date.parse(ledger.cashFlows[0]!.time)).toBe(d.usdtDeposit.time);
    expect(ledger.cashFlows[0]!.amount).toBeCloseTo(d.usdtDeposit.amount * usdt(d.usdtDeposit.time), 1);
    // The 0.3 ETH withdrawn: a send in kind (no other account of the trader's to pair it with).
    const sends = ledger.events.filter((e) => e.kind === "send");
    expect(sends).toEqual([expect.objectContaining({ symbol: "ETH", quantity: d.ethWithdrawal.amount })]);
    expect(ledger.events.filter((e) => e.kind === "fee")).toHaveLength(EXPECTED.events - 2);

    // The convert, by hand: the 0.2 ETH sold came from the 1.5 ETH bought at 3,000 USDC (its fee's
    // 0.0015 ETH sold at that same price: no gain), so realized = 0.2 × (640 / 0.2 × USDT's price −
    // 3,000 × USDC's price) = 640 × USDT − 600 × USDC ≈ 40.
    const convert = ledger.trades.filter((t) => t.id.includes(":okx:c:"));
    expect(convert).toMatchObject([{ symbol: "ETH", side: "sell", quantity: d.convert.eth }]);
    expect(convert[0]!.price * d.convert.eth).toBeCloseTo(d.convert.usdt * usdt(d.convert.time), 1);
    const ethBuy = ledger.trades.find((t) => t.symbol === "ETH" && t.side === "buy" && /:okx:t:\d+$/.test(t.id))!;
    const ethToConvert = ledger.trades.filter((t) => t.symbol === "ETH" && Date.parse(t.time) <= d.convert.time);
    expect(ethToConvert).toHaveLength(3);
    const ethOnly = parseLedger({ ...ledger, trades: ethToConvert, events: [], cashFlows: [] });
    if (!ethOnly.ok) throw new Error(ethOnly.problems.join("; "));
    const convertRealized = grade(ethOnly.ledger).metrics.realizedPnl;
    expect(convertRealized).toBeCloseTo(d.convert.eth * (convert[0]!.price - ethBuy.price), 6);
    expect(convertRealized).toBeCloseTo(40, 0);
    // The staking yield: income worth 0.004 ETH at its price then, the ETH bought at that price.
    const reward = ledger.trades.find((t) => /:okx:b:.*:b$/.test(t.id))!;
    expect(reward).toMatchObject({ symbol: "ETH", side: "buy", quantity: d.stakingYield.eth });
    const income = ledger.events.filter((e) => e.kind === "income");
    expect(income).toHaveLength(1);
    expect(income[0]!.amount).toBeCloseTo(d.stakingYield.eth * reward.price, 9);

    // Fees in kind: the ETH bought lost its 0.1 % in ETH, and the BTC of every buy its 0.1 % in BTC;
    // the withdrawal's 0.002 ETH fee is sold from the ETH (the 0.3 ETH sent is the send's).
    const eth = ledger.trades.filter((t) => t.symbol === "ETH");
    const ethHeld = eth.reduce((s, t) => s + (t.side === "buy" ? t.quantity : -t.quantity), 0);
    expect(ethHeld).toBeCloseTo(
      d.eth.qty * (1 - d.feeRate) - d.convert.eth + d.stakingYield.eth - d.ethBtc.qty - d.ethWithdrawal.fee,
      9,
    );
    const btc = ledger.trades.filter((t) => t.symbol === "BTC");
    const btcHeld = btc.reduce((s, t) => s + (t.side === "buy" ? t.quantity : -t.quantity), 0);
    const fromEth = d.ethBtc.qty * d.ethBtc.price * (1 - d.feeRate);
    expect(btcHeld).toBeCloseTo(fromEth, 9);

    // The grade, by hand: 60 round trips, 0.02 BTC bought, its 0.00002 BTC fee sold at the fill's
    // price (no gain), the 0.01998 BTC left sold two days later; each leg at its USDT price × USDT's
    // price then: 0.01998 × (45 × 1,500 − 15 × 1,000) = 1,048.95 USDT, in dollars.
    const btcRealized = d.roundTrips.reduce(
      (sum, r) => sum + r.sold * (r.sell * usdt(r.sellTime) - r.buy * usdt(r.buyTime)),
      0,
    );
    expect(btcRealized).toBeGreaterThan(d.realizedUsdt - 10);
    expect(btcRealized).toBeLessThan(d.realizedUsdt + 10);
    const btcTrips = btc.filter((t) => new Date(t.time).getTime() < d.ethBtc.time);
    const btcOnly = parseLedger({ ...ledger, trades: btcTrips, events: [] });
    if (!btcOnly.ok) throw new Error(btcOnly.problems.join("; "));
    // Within 5 cents: the import reads USDT's price through the price cache, not at the instant.
    expect(grade(btcOnly.ledger).metrics.realizedPnl).toBeCloseTo(btcRealized, 1);
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    expect(grade(parsed.ledger).metrics.roundTrips).toBeGreaterThanOrEqual(60);

    const page = await (await get("/profile/account", { cookie })).text();
    expect(page).toContain(label);
    expect(page).toContain(`OKX keeps 1 year: trades before ${yearAgoMonth()} are not included`);
    const evaluation = await fetch(baseUrl() + "/api/exchange/evaluation", { method: "POST", headers: { cookie } });
    expect(evaluation.status).toBe(200);
    const outcome = ((await evaluation.json()) as { data: { code: number } }).data;
    expect([200, 2002, 425]).toContain(outcome.code);
  }, 120_000);

  it.each([
    ["demo-can-trade", /^This key can trade\. Create a read-only key: on OKX.*\(untick Trade\)\.$/],
    ["demo-can-withdraw", /^This key can withdraw\. Create a read-only key: on OKX.*\(untick Withdraw\)\.$/],
    ["no-such-key", /^OKX refused the key: Invalid OK-ACCESS-KEY \(50111\) Check the key and secret\.$/],
  ])("refuses %s with its message and stores nothing", async (key, message) => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(message);
    const accounts = await (await get("/api/portal/imports", { cookie })).json();
    expect((accounts as { data: unknown[] }).data).toEqual([]);
  });

  it("asks for the passphrase an OKX key comes with", async () => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: `demo-read-only-${RUN}-p`, passphrase: undefined }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toBe("OKX keys come with a passphrase: enter it too.");
  });

  it("gives one OKX account to one Grader user: a second user gets 406", async () => {
    const key = `demo-read-only-${crypto.randomBytes(4).toString("hex")}`;
    const first = await signUp();
    expect((await linkKey({ api_key: key }, first.cookie)).status).toBe(201);
    const second = await signUp();
    const res = await linkKey({ api_key: key }, second.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 406, error: { message: MESSAGE_406 } });
    await waitForImports(first.cookie, { timeoutMs: 90_000 });
  }, 120_000);

  it("links a sub-account's key as an account of its own", async () => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: `sim-sub-${RUN}` }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
    expect(done).toMatchObject({ state: "done", trades_added: EXPECTED.trades });
  }, 120_000);

  it("marks an account whose key stopped working as needing a new key, with OKX's reason", async () => {
    const { cookie } = await signUp();
    expect((await linkKey({ api_key: `sim-revoked-later-${RUN}` }, cookie)).status).toBe(201);
    const [failed] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(failed).toMatchObject({ state: "failed", error: "OKX refused the key: Invalid OK-ACCESS-KEY (50111)" });
    const html = await (await get("/profile/account", { cookie })).text();
    expect(html).toContain("This account needs a new key.");
  }, 90_000);

  it("links through the page's plain form post, the passphrase never echoed", async () => {
    const { cookie } = await signUp();
    const trading = await postForm(
      "/link/exchange",
      { exchange: "okx", api_key: "demo-can-trade", secret: SECRET, passphrase: PASSPHRASE },
      { cookie },
    );
    expect(trading.status).toBe(400);
    const page = await trading.text();
    expect(page).toContain("This key can trade. Create a read-only key: on OKX");
    expect(page).toContain('value="demo-can-trade"');
    expect(page).not.toContain(SECRET);
    expect(page).not.toContain(PASSPHRASE);
    const linked = await postForm(
      "/link/exchange",
      { exchange: "okx", api_key: `demo-read-only-form-${Date.now()}`, secret: SECRET, passphrase: PASSPHRASE },
      { cookie },
    );
    expect(linked.status).toBe(302);
    await waitForImports(cookie, { timeoutMs: 90_000 });
  }, 120_000);
});

async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-okx-")) };
  return ownDatabase();
}

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

async function importsOf(base: string, cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { cookie, base })).json()) as { data: ImportRow[] }).data;
}

describe("an OKX import under stress", () => {
  it("waits out a rate limit (50011) and learns OKX's clock after a 50102, every row once", async () => {
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
    expect(waits[0]!.error).toBe("OKX asked us to slow down (50011); the import waits and resumes.");
    expect(rows[0]).toMatchObject({ state: "done", error: null });
    const { data: ledger } = await ledgerOf(cookie, server.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);

    const clock = await signUp({ base: server.url });
    expect((await linkKey({ api_key: `sim-clock-${RUN}` }, clock.cookie, server.url)).status).toBe(201);
    const [done] = await waitForImports(clock.cookie, { base: server.url, timeoutMs: 60_000 });
    expect(done).toMatchObject({ state: "done", error: null, trades_added: EXPECTED.trades });
    const logs = server.logs.join("\n");
    for (const secret of [SECRET, PASSPHRASE, `sim-rate-${RUN}`]) expect(logs).not.toContain(secret);
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

    // The slow simulator was only there for the kill to land mid-import: the survivor runs at speed.
    const second = await startServer({ ...env, SIM_DELAY_FACTOR: "1" });
    started.push(second);
    const [done] = await waitForImports(cookie, { base: second.url, timeoutMs: 120_000 });
    expect(done).toMatchObject({ id: linked.body.data!.import_id, state: "done", error: null });
    expect(done!.fetched).toBeGreaterThan(before!.fetched);
    const { data: ledger } = await ledgerOf(cookie, second.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    expect(done!.trades_added).toBe(EXPECTED.trades);
  }, 240_000);
});
