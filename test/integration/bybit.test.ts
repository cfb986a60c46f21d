import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { demoBybit } from "../mocks/bybit";
import { simulatedCoinPrice } from "../mocks/prices";
import { baseUrl, get, postForm, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Bybit through the real path: query-api proves the key read-only and names the account (ccxt
// against the simulator), the 406 rule, the import as jobs (one 7-day window or page of 100 each,
// over the 2 years Bybit serves; deposits and withdrawals a 30-day window each), the instruments the
// fills name, fees in kind, the mapping, what Bybit no longer serves said plainly, and the grade.

const SECRET = "0F7E3C2B1A9D8E7F6A5B4C3D2E1F0A9B";

async function linkKey(body: Record<string, unknown>, cookie: string, base = baseUrl()) {
  const res = await fetch(base + "/api/exchange/wallet", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ exchange: "bybit", secret: SECRET, ...body }),
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
 * The demo history's rows (test/mocks/bybit.ts): 294 fills served (the one 26 months back is not);
 * the BTCEUR one has no USD price. Each buy is its coin and the coin's fee sold from it; each sell
 * its coin (the USDT fee is cash); the ETHBTC sale its ETH, the BTC bought and the BTC fee:
 * 26 × 3 + 240 × 2 + 3 = 561 trades, one fee event a fill (293). Besides, one deposit and one
 * withdrawal record: the 20,000 USDT deposit a cash flow; the 0.2 ETH withdrawal a send event, its
 * 0.0015 ETH fee a fee event and a sale of those units: 562 trades, 295 events, 1 cash flow. And
 * one convert (0.1 ETH for 310 USDT: the ETH sold, the USDT cash) and two Earn yield records (one
 * paid: income and its ETH bought; one pending: nothing): 564 trades, 296 events.
 */
const EXPECTED = {
  fills: 294,
  moves: 2,
  instruments: 4,
  converts: 1,
  yields: 2,
  trades: 564,
  events: 296,
  cashFlows: 1,
};
const RUN = Date.now().toString(36);
const usdt = (t: number) => simulatedCoinPrice("coingecko:tether", new Date(t))!;
const keptFrom = () => new Date(Date.now() - 730 * 86_400_000).toISOString().slice(0, 7);

describe("linking Bybit with an API key", () => {
  it("links a read-only key, imports the demo history page by page and grades it", async () => {
    const { cookie } = await signUp();
    const key = `demo-read-only-${RUN}`;
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const label = res.body.data!.label as string;
    expect(res.body.data).toMatchObject({
      kind: "bybit",
      exchange: "bybit",
      label: expect.stringMatching(/^Bybit account …\d{4}$/),
      demo: true,
      status: "importing",
    });
    for (const secret of [SECRET, key]) expect(JSON.stringify(res.body)).not.toContain(secret);
    const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });
    // Every served fill once (the half-hourly week in pages of 100), the deposit and the
    // withdrawal, and the four instruments.
    expect(done!.fetched).toBe(
      EXPECTED.fills + EXPECTED.moves + EXPECTED.instruments + EXPECTED.converts + EXPECTED.yields,
    );
    expect(done!.skipped).toEqual(
      expect.arrayContaining([
        { reason: "trade in EUR without a USD price", count: 1 },
        { reason: `Bybit keeps 2 years: trades before ${keptFrom()} are not included`, count: 1 },
      ]),
    );
    const { data: ledger, meta } = await ledgerOf(cookie);
    // The grade made after the import lists it under "What this grade could not use".
    expect(meta.dataQuality?.skipped).toContainEqual({
      reason: `Bybit keeps 2 years: trades before ${keptFrom()} are not included`,
      count: 1,
    });
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);
    expect(ledger.cashFlows).toHaveLength(EXPECTED.cashFlows);
    const d = demoBybit();
    // The USDT deposit: 20,000 at USDT's price then (within $10: the price cache's, not the instant's).
    expect(Math.abs(ledger.cashFlows[0]!.amount - d.deposit.amount * usdt(d.deposit.time))).toBeLessThan(10);
    expect(ledger.events.filter((e) => e.kind === "fee")).toHaveLength(EXPECTED.events - 2);

    // The convert, by hand: 0.1 ETH for 310 USDT on day 120. Read against the ETH buys alone
    // (0.005 ETH each at 3,000 USDC), FIFO sells the first 20 of them, so realized = 310 × USDT's
    // price − Σ 0.005 × (3,000 × USDC's price at each buy) ≈ 310 − 300 = 10 (each dollar within a
    // few tenths of a percent of 1). The fees' and the withdrawal fee's sales are left out here:
    // they take their units FIFO from the same lots.
    const convert = ledger.trades.filter((t) => t.id.includes(":bybit:c:"));
    expect(convert).toMatchObject([{ symbol: "ETH", side: "sell", quantity: d.convert.eth }]);
    expect(convert[0]!.price * d.convert.eth).toBeCloseTo(d.convert.usdt * usdt(d.convert.time), 1);
    const ethBuys = ledger.trades
      .filter((t) => t.symbol === "ETH" && t.side === "buy" && /:bybit:t:[^:]+$/.test(t.id))
      .sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
    expect(ethBuys).toHaveLength(240);
    const ethOnly = parseLedger({ ...ledger, trades: [...ethBuys, ...convert], events: [], cashFlows: [] });
    if (!ethOnly.ok) throw new Error(ethOnly.problems.join("; "));
    const firstTwenty = ethBuys.slice(0, 20).reduce((sum, t) => sum + t.quantity * t.price, 0);
    const convertRealized = grade(ethOnly.ledger).metrics.realizedPnl;
    expect(convertRealized).toBeCloseTo(convert[0]!.quantity * convert[0]!.price - firstTwenty, 6);
    expect(Math.abs(convertRealized - 10)).toBeLessThan(3);
    // The paid Earn yield: income worth 0.002 ETH then, the ETH bought at that price; the pending one not.
    const reward = ledger.trades.find((t) => /:bybit:y:.*:b$/.test(t.id))!;
    expect(reward).toMatchObject({ symbol: "ETH", side: "buy", quantity: d.earnYield.eth });
    const income = ledger.events.filter((e) => e.kind === "income");
    expect(income).toHaveLength(1);
    expect(income[0]!.amount).toBeCloseTo(d.earnYield.eth * reward.price, 9);
    expect(ledger.events.filter((e) => e.kind === "send")).toEqual([
      expect.objectContaining({ symbol: "ETH", quantity: d.withdrawal.amount }),
    ]);

    // Fees in kind: the ETH bought lost its 0.1 % in ETH, and the BTC of every buy its 0.1 % in BTC;
    // the withdrawal's fee left the ETH position too (the 0.2 ETH sent is an event, not a trade).
    const eth = ledger.trades.filter((t) => t.symbol === "ETH");
    const ethHeld = eth.reduce((s, t) => s + (t.side === "buy" ? t.quantity : -t.quantity), 0);
    expect(ethHeld).toBeCloseTo(
      240 * 0.005 * (1 - d.feeRate) - d.convert.eth + d.earnYield.eth - d.ethBtc.qty - d.withdrawal.fee,
      9,
    );
    const btc = ledger.trades.filter((t) => t.symbol === "BTC");
    const btcHeld = btc.reduce((s, t) => s + (t.side === "buy" ? t.quantity : -t.quantity), 0);
    const fromEth = d.ethBtc.qty * d.ethBtc.price * (1 - d.feeRate);
    expect(btcHeld).toBeCloseTo(fromEth, 9);

    // The grade, by hand: 26 round trips, 0.02 BTC bought, its 0.00002 BTC fee sold at the fill's
    // price (no gain), the 0.01998 BTC left sold a week later; each leg at its USDT price × USDT's
    // price then: 0.01998 × (20 × 1,500 − 6 × 1,000) = 479.52 USDT, in dollars.
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
    expect(grade(parsed.ledger).metrics.roundTrips).toBeGreaterThanOrEqual(26);

    const page = await (await get("/profile/account", { cookie })).text();
    expect(page).toContain(label);
    expect(page).toContain(`Bybit keeps 2 years: trades before ${keptFrom()} are not included`);
    const evaluation = await fetch(baseUrl() + "/api/exchange/evaluation", { method: "POST", headers: { cookie } });
    expect(evaluation.status).toBe(200);
    const outcome = ((await evaluation.json()) as { data: { code: number } }).data;
    expect([200, 2002, 425]).toContain(outcome.code);
  }, 120_000);

  it.each([
    [
      "demo-can-trade",
      /^This key can trade\. Create a read-only key: on Bybit.*\(choose Read-Only, not Read-Write\)\.$/,
    ],
    [
      "demo-can-withdraw",
      /^This key can withdraw\. Create a read-only key: on Bybit.*\(choose Read-Only, not Read-Write\)\.$/,
    ],
    ["no-such-key", /^Bybit refused the key: API key is invalid\. \(10003\) Check the key and secret\.$/],
  ])("refuses %s with its message and stores nothing", async (key, message) => {
    const { cookie } = await signUp();
    const res = await linkKey({ api_key: key }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toMatch(message);
    const accounts = await (await get("/api/portal/imports", { cookie })).json();
    expect((accounts as { data: unknown[] }).data).toEqual([]);
  });

  it("gives one Bybit account to one Grader user: a second user gets 406", async () => {
    const key = `demo-read-only-${crypto.randomBytes(4).toString("hex")}`;
    const first = await signUp();
    expect((await linkKey({ api_key: key }, first.cookie)).status).toBe(201);
    const second = await signUp();
    const res = await linkKey({ api_key: key }, second.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 406, error: { message: MESSAGE_406 } });
    await waitForImports(first.cookie, { timeoutMs: 90_000 });
  }, 120_000);

  it("marks an account whose key stopped working as needing a new key, with Bybit's reason", async () => {
    const { cookie } = await signUp();
    expect((await linkKey({ api_key: `sim-revoked-later-${RUN}` }, cookie)).status).toBe(201);
    const [failed] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(failed).toMatchObject({ state: "failed", error: "Bybit refused the key: API key is invalid. (10003)" });
    const html = await (await get("/profile/account", { cookie })).text();
    expect(html).toContain("This account needs a new key.");
  }, 90_000);

  it("links through the page's plain form post, the secret never echoed", async () => {
    const { cookie } = await signUp();
    const trading = await postForm(
      "/link/exchange",
      { exchange: "bybit", api_key: "demo-can-trade", secret: SECRET },
      { cookie },
    );
    expect(trading.status).toBe(400);
    const page = await trading.text();
    expect(page).toContain("This key can trade. Create a read-only key: on Bybit");
    expect(page).toContain('value="demo-can-trade"');
    expect(page).not.toContain(SECRET);
    const linked = await postForm(
      "/link/exchange",
      { exchange: "bybit", api_key: `demo-read-only-form-${Date.now()}`, secret: SECRET },
      { cookie },
    );
    expect(linked.status).toBe(302);
    await waitForImports(cookie, { timeoutMs: 90_000 });
  }, 120_000);
});

async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-bybit-")) };
  return ownDatabase();
}

const started: RunningServer[] = [];
afterAll(async () => {
  for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
});

async function importsOf(base: string, cookie: string): Promise<ImportRow[]> {
  return ((await (await get("/api/portal/imports", { cookie, base })).json()) as { data: ImportRow[] }).data;
}

describe("a Bybit import under stress", () => {
  it("waits out Too many visits (10006) and learns Bybit's clock after a 10002, every row once", async () => {
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
    expect(waits[0]!.error).toBe("Bybit asked us to slow down (10006); the import waits and resumes.");
    expect(rows[0]).toMatchObject({ state: "done", error: null });
    const { data: ledger } = await ledgerOf(cookie, server.url);
    expect(ledger.trades).toHaveLength(EXPECTED.trades);
    expect(ledger.events).toHaveLength(EXPECTED.events);

    const clock = await signUp({ base: server.url });
    expect((await linkKey({ api_key: `sim-clock-${RUN}` }, clock.cookie, server.url)).status).toBe(201);
    const [done] = await waitForImports(clock.cookie, { base: server.url, timeoutMs: 60_000 });
    expect(done).toMatchObject({ state: "done", error: null, trades_added: EXPECTED.trades });
    const logs = server.logs.join("\n");
    for (const secret of [SECRET, `sim-rate-${RUN}`]) expect(logs).not.toContain(secret);
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
