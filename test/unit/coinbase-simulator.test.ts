import crypto from "node:crypto";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readExchangeError, type HistoryTask, type StoredPage } from "../../app/sources/exchange.server";
import { coinbase, mapCoinbase, readCoinbasePermissions } from "../../app/sources/exchanges/coinbase.server";
import { DEMO_COINBASE_URL } from "../../app/sources/wallet-demo";
import { coinbaseHandlers, DEMO_COINBASE, DEMO_COINBASE_PORTFOLIO, setCoinbasePublicKey } from "../mocks/coinbase";

// The Coinbase entry through ccxt on its real code path (a JWT per request), against the
// simulator: what a key may do, the JWT's checks, cursor paging, the rate limit and the mapping.

const server = setupServer(...coinbaseHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
process.env.SIM_DELAY_FACTOR = "0";

const settings = { baseUrl: DEMO_COINBASE_URL, timeoutMs: 5_000 };
/** An Ed25519 CDP secret: base64 of 64 bytes (seed and public key). */
const ED_SECRET = Buffer.alloc(64, 5).toString("base64");
const client = (apiKey: string, secret = ED_SECRET) => coinbase.client({ apiKey, secret }, settings);

async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return readExchangeError("Coinbase", null, error, coinbase.rateWaitSeconds);
  }
  throw new Error("expected the call to fail");
}

describe("Coinbase keys", () => {
  it("proves a View-only key and finds its portfolio", async () => {
    expect(await coinbase.checkKey(client("demo-read-only"))).toEqual({ ok: true, uid: DEMO_COINBASE_PORTFOLIO });
    const other = await coinbase.checkKey(client("organizations/org-1/apiKeys/demo-read-only-second"));
    expect(other.ok && other.uid).not.toBe(DEMO_COINBASE_PORTFOLIO);
  });

  it("refuses keys that can trade or transfer, naming the permission to untick", async () => {
    const trade = await coinbase.checkKey(client("demo-can-trade"));
    expect(!trade.ok && trade.message).toMatch(
      /^This key can trade\. Create a read-only key: on Coinbase .*\(untick Trade\)\.$/,
    );
    const withdraw = await coinbase.checkKey(client("demo-can-withdraw"));
    expect(!withdraw.ok && withdraw.message).toMatch(/^This key can withdraw\. .*\(untick Transfer\)\.$/);
    expect(readCoinbasePermissions({ can_view: false })?.permission).toBe("read");
  });

  it("verifies an ES256 JWT with the key's public key, and refuses an unknown or wrongly signed key", async () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const name = "organizations/org-2/apiKeys/demo-read-only-es256";
    setCoinbasePublicKey(name, publicKey);
    const pem = privateKey.export({ type: "sec1", format: "pem" }).toString();
    expect((await coinbase.checkKey(client(name, pem))).ok).toBe(true);
    // Pasted into the page's one-line field, the PEM loses its line breaks: still signs.
    expect((await coinbase.checkKey(client(name, pem.trim().replace(/\n/g, " ")))).ok).toBe(true);
    const other = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey;
    const wrong = await failure(
      coinbase.checkKey(client(name, other.export({ type: "sec1", format: "pem" }).toString())),
    );
    expect(wrong).toMatchObject({ kind: "key", message: expect.stringMatching(/^Coinbase refused the key/) });
    expect((await failure(coinbase.checkKey(client("not-a-key")))).kind).toBe("key");
    expect(coinbase.credentialProblem!({ apiKey: "k", secret: "hunter2" })).toMatch(
      /^Coinbase's API secret is the private key/,
    );
    expect(coinbase.credentialProblem!({ apiKey: "k", secret: ED_SECRET })).toBeNull();
  });

  it("reads a 429 as a wait of a second, and a revoked key's 401 as a key error", async () => {
    expect(await failure(coinbase.fetchPage(client("sim-rate-unit"), { stream: "fills" }))).toMatchObject({
      kind: "rate",
      retryAfterSeconds: 1,
    });
    expect((await coinbase.fetchPage(client("sim-rate-unit"), { stream: "fills" })).rows).toHaveLength(100);
    expect((await failure(coinbase.fetchPage(client("sim-revoked-later-unit"), { stream: "fills" }))).kind).toBe("key");
  });
});

describe("the demo year, read and mapped", () => {
  it("pages fills by cursor under a fixed end and maps every fill or counts it", async () => {
    const pages: StoredPage[] = [];
    for (let task: HistoryTask | null = coinbase.tasks(0, Date.now())[0]!; task;) {
      const page = await coinbase.fetchPage(client("demo-read-only"), task);
      if (page.rows.length) pages.push({ task, rows: page.rows });
      task = page.next;
    }
    expect(pages.map((p) => p.rows.length)).toEqual([100, 4]);
    expect(pages[1]!.task.cursor).toEqual(expect.any(String));
    // A history ending before the demo year has nothing.
    expect(
      (await coinbase.fetchPage(client("demo-read-only"), { stream: "fills", end: Date.UTC(2025, 0, 1) })).rows,
    ).toEqual([]);

    const usd: Record<string, number> = { USDC: 1, ETH: 2_500, SOL: 150, BTC: 60_000 };
    const mapped = mapCoinbase([...pages, pages[1]!], (asset) => usd[asset]);
    const btc = mapped.batch.trades.filter((t) => t.symbol === "BTC" && !/:[qk]$/.test(t.externalId));
    expect(btc).toHaveLength(24);
    const realized = DEMO_COINBASE.roundTrips.reduce((s, r) => s + r.qty * (r.sell - r.buy), 0);
    expect(realized).toBeCloseTo(DEMO_COINBASE.realizedUsd, 9);
    const sells = btc.filter((t) => t.side === "sell").reduce((s, t) => s + t.quantity * t.price, 0);
    const buys = btc.filter((t) => t.side === "buy").reduce((s, t) => s + t.quantity * t.price, 0);
    expect(sells - buys).toBeCloseTo(120, 6);
    // 24 BTC, 52 ETH, 26 SOL (sized in USDC: 50 / price), the ETH-BTC sale and its BTC leg; the EUR fill counted.
    // And the ETH-BTC fill's commission, paid in BTC, sold from the BTC position.
    expect(mapped.batch.trades).toHaveLength(24 + 52 + 26 + 2 + 1);
    const sol = mapped.batch.trades.filter((t) => t.symbol === "SOL");
    expect(sol[sol.length - 1]).toMatchObject({ side: "buy" });
    expect(sol.reduce((s, t) => s + t.quantity * t.price, 0)).toBeCloseTo(26 * 50, 6);
    expect(mapped.batch.trades.find((t) => t.externalId.endsWith(":k"))).toMatchObject({
      symbol: "BTC",
      side: "sell",
      price: 60_000,
    });
    expect(mapped.batch.trades.find((t) => t.externalId.endsWith(":q"))).toMatchObject({
      symbol: "BTC",
      side: "buy",
      quantity: 0.05 * 0.04,
      price: 60_000,
    });
    expect(mapped.batch.events!.filter((e) => e.kind === "fee")).toHaveLength(103);
    expect(mapped.skipped).toEqual({ "trade in EUR without a USD price": 1 });
  });

  it("lists the v2 wallets, pages each one's transactions by starting_after and maps the moves, the convert and the reward", async () => {
    const c = client("demo-read-only");
    const [, accountsTask] = coinbase.tasks(0, Date.now());
    expect(accountsTask).toEqual({ stream: "accounts" });
    const accounts = await coinbase.fetchPage(c, accountsTask!);
    expect(accounts.next).toBeNull();
    const tasks = await coinbase.tradeTasks(c, [{ task: accountsTask!, rows: accounts.rows }]);
    expect(tasks).toHaveLength(6);
    const pages: StoredPage[] = [];
    for (const first of tasks)
      for (let task: HistoryTask | null = first; task;) {
        const page = await coinbase.fetchPage(c, task);
        if (page.rows.length) pages.push({ task, rows: page.rows });
        task = page.next;
      }
    // Every fill twice (its two wallets) and the six other rows (the convert's two legs).
    expect(pages.reduce((n, p) => n + p.rows.length, 0)).toBe(2 * 104 + 6);

    // Coinbase's own paging: 25 a page by default, each page after the last id of the one before.
    const eth = tasks[3]!.symbol!;
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const answer = (await c.v2PrivateGetAccountsAccountIdTransactions({
        account_id: eth,
        ...(after ? { starting_after: after } : {}),
      })) as { data: { id: string }[]; pagination: { next_starting_after: string | null; next_uri: string | null } };
      seen.push(...answer.data.map((r) => r.id));
      if (!answer.pagination.next_starting_after) break;
      expect(answer.data).toHaveLength(25);
      expect(answer.pagination.next_uri).toContain(`starting_after=${answer.pagination.next_starting_after}`);
      after = answer.pagination.next_starting_after;
    }
    expect(seen).toEqual(
      pages.filter((p) => p.task.symbol === eth).flatMap((p) => (p.rows as { id: string }[]).map((r) => r.id)),
    );

    const usd: Record<string, number> = { USDC: 1, ETH: 2_500, SOL: 150, BTC: 60_000 };
    const { batch, skipped } = mapCoinbase(pages, (asset) => usd[asset]);
    const d = DEMO_COINBASE;
    expect(skipped).toEqual({});
    expect(batch.cashFlows.map((f) => f.amount)).toEqual([d.fiatDeposit.usd]);
    // The convert: 0.05 ETH sold at its USDC side's value, 155 / 0.05 = 3,100.
    expect(batch.trades.filter((t) => t.externalId.startsWith("coinbase:c:"))).toMatchObject([
      { symbol: "ETH", side: "sell", quantity: d.convert.eth, price: d.convert.usdc / d.convert.eth },
    ]);
    expect(batch.events).toHaveLength(4);
    expect(batch.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "income", symbol: "ETH", amount: d.reward.eth * 2_500 }),
        expect.objectContaining({
          kind: "receive",
          quantity: d.deposit.eth,
          txId: d.deposit.hash,
          address: d.deposit.from,
        }),
        expect.objectContaining({
          kind: "send",
          quantity: d.withdrawal.eth,
          txId: d.withdrawal.hash,
          address: d.withdrawal.to,
        }),
        expect.objectContaining({ kind: "fee", amount: d.withdrawal.fee * 2_500 }),
      ]),
    );
    // A wallet that is not the key's: 404, never another account's rows.
    await expect(c.v2PrivateGetAccountsAccountIdTransactions({ account_id: "not-mine" })).rejects.toThrow();
  });
});
