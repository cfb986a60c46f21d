import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Wallet } from "ethers";
import { afterAll, describe, expect, it } from "vitest";
import { grade, parseLedger } from "../../app/grading";
import { DEMO_BINANCE_TO_WALLET, DEMO_WALLET_TO_BINANCE } from "../mocks/demo-transfers";
import { BIG_WALLET_SWAPS, EVM_SCENARIO_KEY, EVM_BIG_WALLET_KEY, SCENARIO } from "../mocks/evm";
import { simulatedCoinPrice, THIN_CONFIDENCE } from "../mocks/prices";
import { baseUrl, get, postForm, signUp, waitForImports, type ImportRow } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// EVM histories through the real path: SIWE link → import jobs (one explorer page each) → mapping
// with the price source → ledger v2 → automatic grade, against the explorer and price simulators.

async function apiPost(path: string, body: unknown, cookie: string, base = baseUrl()) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: Record<string, unknown>; error?: { message: string } },
  };
}

async function linkEvm(wallet: Wallet, cookie: string, base?: string) {
  const nonce = await apiPost("/api/evm/nonce", { wallet_address: wallet.address }, cookie, base);
  const message = nonce.body.data!.message as string;
  const res = await apiPost(
    "/api/evm/wallet",
    { wallet_address: wallet.address, message, signature: await wallet.signMessage(message) },
    cookie,
    base,
  );
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data!;
}

type LedgerBody = {
  data: {
    trades: {
      id: string;
      time: string;
      symbol: string;
      side: string;
      quantity: number;
      price: number;
      confidence?: number;
    }[];
    events: {
      id: string;
      kind: string;
      symbol?: string;
      quantity?: number;
      price?: number;
      from?: string;
      to?: string;
    }[];
    cashFlows: { account: string; time: string; amount: number }[];
  };
};

async function unlink(cookie: string, id: number) {
  const res = await postForm("/profile/account", { intent: "unlink", id: String(id), confirm: "yes" }, { cookie });
  expect(res.headers.get("location")).toBe("/profile/account?unlinked=1");
}

describe("EVM histories on several chains", () => {
  it("reads Ethereum and Base, pays ETH out through internal transactions, prices a token-for-token swap and books received tokens as deposits in kind", async () => {
    const { cookie } = await signUp();
    const linked = await linkEvm(new Wallet(EVM_SCENARIO_KEY), cookie);
    const [imported] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(imported, JSON.stringify(imported)).toMatchObject({ state: "done", error: null, skipped: [] });
    const res = await get("/api/portal/ledger", { cookie });
    expect(res.status).toBe(200);
    const ledger = ((await res.json()) as LedgerBody).data;
    const at = (t: number) => new Date(t * 1000).toISOString();
    const trade = (side: string, symbol: string, time: number) =>
      ledger.trades.find((t) => t.side === side && t.symbol === symbol && t.time === at(time));

    // The 1,000 LINK from an exchange: a receive at LINK's historical price (a deposit in kind).
    const receive = ledger.events.find((e) => e.kind === "receive" && e.symbol === "LINK");
    const linkPrice = simulatedCoinPrice(
      "ethereum:0x514910771af9ca656af840dff83e8264ecf986ca",
      new Date(SCENARIO.received.time * 1000),
    )!;
    expect(receive).toMatchObject({ quantity: 1000 });
    expect(receive!.price).toBeGreaterThan(linkPrice * 0.9);
    expect(receive!.price).toBeLessThan(linkPrice * 1.1);

    // LINK → UNI with no stablecoin: one USD value for both legs from LINK's historical price.
    const t4t = SCENARIO.tokenForToken;
    const sold = trade("sell", "LINK", t4t.time)!;
    const bought = trade("buy", "UNI", t4t.time)!;
    expect(sold.quantity).toBe(400);
    expect(bought.quantity).toBe(700);
    expect(sold.quantity * sold.price).toBeCloseTo(bought.quantity * bought.price, 6);
    const linkThen = simulatedCoinPrice(
      "ethereum:0x514910771af9ca656af840dff83e8264ecf986ca",
      new Date(t4t.time * 1000),
    )!;
    expect(sold.price / linkThen).toBeGreaterThan(0.9);
    expect(sold.price / linkThen).toBeLessThan(1.1);

    // Selling the received LINK for USDC: a plain sell at 15.
    const s = SCENARIO.soldReceived;
    expect(trade("sell", "LINK", s.time)).toMatchObject({ quantity: 600, price: s.usd / s.quantity });

    // UNI → ETH, the ETH paid out by the router (txlistinternal).
    expect(trade("buy", "ETH", SCENARIO.internalEth.time)).toMatchObject({ quantity: SCENARIO.internalEth.eth });
    expect(trade("sell", "UNI", SCENARIO.internalEth.time)).toMatchObject({ quantity: 700 });

    // Base: a USDC deposit (a cash flow) and a WETH buy for 900 USDC. Ethereum: 10,000 USDT in from
    // an exchange and sent on to Binance, and 0.1 ETH from Binance: with no Binance account linked
    // here, a deposit, a withdrawal and a receive.
    const f = DEMO_WALLET_TO_BINANCE;
    expect(ledger.cashFlows.map((c) => [c.time, c.amount]).sort()).toEqual([
      [at(SCENARIO.baseDeposit.time), 1000],
      [new Date(f.funded).toISOString(), 10_000],
      [new Date(f.sent).toISOString(), -10_000],
    ]);
    expect(ledger.events.filter((e) => e.kind === "receive" && e.symbol === "ETH")).toMatchObject([
      { quantity: DEMO_BINANCE_TO_WALLET.amount },
    ]);
    // Base's buy paid USDC for WETH (a token of its own since wraps are read, DECISIONS 213).
    expect(trade("buy", "WETH", SCENARIO.baseBuy.time)).toMatchObject({ quantity: 0.3, price: 3000 });

    // Fill confidence (DECISIONS 219): PUMP trades only in the wallet's own pool, so DefiLlama's
    // confidence in it is thin and its fills say so; LINK's are a market's. With a thin fill the
    // ledger is read row by row and every fill carries what the source said.
    const pump = ledger.trades.filter((t) => t.symbol === "PUMP");
    expect(pump.map((t) => [t.side, t.quantity, t.price, t.confidence])).toEqual(
      SCENARIO.thinBuys.map((b) => ["buy", b.quantity, b.usd / b.quantity, THIN_CONFIDENCE]),
    );
    expect(trade("sell", "LINK", s.time)).toMatchObject({ confidence: 0.99 });

    // The engine finds no data gap: every LINK sold was received or bought.
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const evaluation = grade(parsed.ledger);
    expect(evaluation.warnings.filter((w) => w.startsWith("Data gap"))).toEqual([]);
    await unlink(cookie, linked.linked_account_id as number);
  });
});

/** A database of the test's own, kept across a restart: a PGlite directory, or a new PostgreSQL database. */
async function storage(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-evm-")) };
  return ownDatabase();
}

describe("a wallet past the explorer's 10,000-row cap, its worker killed while storing (own servers: Ethereum only)", () => {
  const started: RunningServer[] = [];
  afterAll(async () => {
    for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
  });

  it(`reads it in block windows (${BIG_WALLET_SWAPS} swaps, ${2 * BIG_WALLET_SWAPS + 1} token transfers) and stores each trade once across a kill -9`, async () => {
    // Small parts so the storing spans many jobs and the kill lands between two of them.
    const env = { EVM_CHAINS: "1", IMPORT_CHUNK_ROWS: "250", JOB_EXPIRE_SECONDS: "3", ...(await storage()) };
    const first = await startServer(env);
    started.push(first);
    const { cookie } = await signUp({ base: first.url });
    await linkEvm(new Wallet(EVM_BIG_WALLET_KEY), cookie, first.url);
    // Polling the first server all along: it keeps answering while the import stores its parts.
    const deadline = Date.now() + 120_000;
    let before: ImportRow | undefined;
    for (;;) {
      [before] = (
        (await (await get("/api/portal/imports", { cookie, base: first.url })).json()) as { data: ImportRow[] }
      ).data;
      if (before?.state === "mapping" && before.trades_added > 0) break;
      if (Date.now() > deadline || !["queued", "fetching", "mapping"].includes(before?.state ?? ""))
        throw new Error(`never caught storing: ${JSON.stringify(before)}\n${first.logs.slice(-20).join("\n")}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    first.process.kill("SIGKILL");
    await new Promise<void>((resolve) => first.process.once("exit", () => resolve()));
    expect(before.trades_added).toBeLessThan(BIG_WALLET_SWAPS);

    const second = await startServer(env);
    started.push(second);
    let imported;
    try {
      [imported] = await waitForImports(cookie, { base: second.url, timeoutMs: 120_000 });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${second.logs.slice(-30).join("\n")}`);
    }
    // Every trade once: the parts stored before the kill stay, the rest follow, none twice.
    expect(imported, JSON.stringify(imported)).toMatchObject({
      id: before.id,
      state: "done",
      error: null,
      trades_added: BIG_WALLET_SWAPS,
    });
    // Every row was read at least once (windows overlap by a block): txlist + tokentx.
    expect(imported!.fetched).toBeGreaterThanOrEqual(BIG_WALLET_SWAPS + 2 * BIG_WALLET_SWAPS + 1);
    const trades = (await (await get("/api/portal/trades?page_size=1", { cookie, base: second.url })).json()) as {
      meta: { total: number };
    };
    expect(trades.meta.total).toBe(BIG_WALLET_SWAPS);
  }, 240_000);
});

describe("moves between a linked wallet and a linked exchange (own server: the demo Binance account)", () => {
  const started: RunningServer[] = [];
  afterAll(async () => {
    for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
  });

  it("reads the wallet's USDT sent to Binance and Binance's ETH withdrawal to the wallet as transfers, not flows", async () => {
    const server = await startServer({ EVM_CHAINS: "1", ...(await storage()) });
    started.push(server);
    const { cookie } = await signUp({ base: server.url });
    const wallet = await linkEvm(new Wallet(EVM_SCENARIO_KEY), cookie, server.url);
    const linked = await apiPost(
      "/api/exchange/wallet",
      { exchange: "binance", api_key: "demo-read-only", secret: "s3cret" },
      cookie,
      server.url,
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    const imports = await waitForImports(cookie, { base: server.url, timeoutMs: 180_000 });
    expect(imports.map((i) => [i.state, i.error])).toEqual([
      ["done", null],
      ["done", null],
    ]);
    const res = await get("/api/portal/ledger", { cookie, base: server.url });
    expect(res.status).toBe(200);
    const ledger = ((await res.json()) as LedgerBody).data;
    const walletId = String(wallet.linked_account_id);
    const binanceId = String(linked.body.data!.linked_account_id);
    const iso = (ms: number) => new Date(ms).toISOString();

    // ETH: one transfer from Binance to the wallet, paired by Binance's txId, at the earlier side's
    // time (the wallet's block, before Binance marked it complete); neither move stays.
    const w = DEMO_BINANCE_TO_WALLET;
    expect(ledger.events.filter((e) => e.kind === "transfer")).toEqual([
      expect.objectContaining({
        from: binanceId,
        to: walletId,
        symbol: "ETH",
        quantity: w.amount,
        time: iso(w.arrives),
      }),
    ]);
    expect(ledger.events.filter((e) => (e.kind === "receive" || e.kind === "send") && e.symbol === "ETH")).toEqual([]);
    // USDT: the wallet's 10,000 from another exchange stays a deposit; sent on to Binance, the
    // wallet's withdrawal and Binance's deposit are left out, but for Binance's valuing USDT above $1.
    const f = DEMO_WALLET_TO_BINANCE;
    const big = ledger.cashFlows.filter((c) => Math.abs(c.amount) > 100);
    expect(big).toEqual([expect.objectContaining({ account: walletId, time: iso(f.funded), amount: f.amount })]);
    // The grade reads it: no data gap for the ETH that moved (the demo's SOL dust has one of its own).
    const parsed = parseLedger(ledger);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    expect(grade(parsed.ledger).warnings.filter((x) => x.startsWith("Data gap") && / ETH /.test(x))).toEqual([]);
  }, 240_000);
});
