import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readExchangeError, type HistoryTask, type StoredPage } from "../../app/sources/exchange.server";
import {
  kraken,
  krakenAsset,
  mapKraken,
  readKrakenPermissions,
  type KrakenLedgerEntry,
  type KrakenTrade,
} from "../../app/sources/exchanges/kraken.server";
import { DEMO_KRAKEN_URL } from "../../app/sources/wallet-demo";
import { DEMO_KRAKEN, DEMO_KRAKEN_ACCOUNT, DEMO_KRAKEN_START, krakenHandlers, setKrakenSecret } from "../mocks/kraken";

// The Kraken entry through ccxt on its real code path, against the simulator: what a key may do,
// the signature, nonces and the call-rate counter, offset paging, and the mapping of the demo year.

const server = setupServer(...krakenHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
process.env.SIM_DELAY_FACTOR = "0";

const settings = { baseUrl: DEMO_KRAKEN_URL, timeoutMs: 5_000 };
// Kraken secrets are base64 (ccxt decodes them to sign).
const SECRET = Buffer.alloc(64, 7).toString("base64");
const client = (apiKey: string, secret = SECRET) => kraken.client({ apiKey, secret }, settings);
const DAY = 86_400_000;

async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return readExchangeError("Kraken", null, error, kraken.rateWaitSeconds);
  }
  throw new Error("expected the call to fail");
}

/** Every page of the plan, a client per call as each import job makes its own. */
async function readAll(key: string, fromMs: number, nowMs: number): Promise<StoredPage[]> {
  const pages: StoredPage[] = [];
  const walk = async (tasks: HistoryTask[]) => {
    for (let task of tasks)
      for (;;) {
        const page = await kraken.fetchPage(client(key), task);
        if (page.rows.length) pages.push({ task, rows: page.rows });
        if (!page.next) break;
        task = page.next;
      }
  };
  await walk(kraken.tasks(fromMs, nowMs));
  await walk(await kraken.tradeTasks(client(key), pages));
  return pages;
}

describe("Kraken's DepositStatus and WithdrawStatus", () => {
  it("pages by cursor, from `true` to the next_cursor given, newest first", async () => {
    const c = client("demo-read-only");
    const first = (await c.privatePostDepositStatus({ cursor: true, limit: 1 })) as {
      result: { deposit: { time: number }[]; next_cursor: string | null };
    };
    expect(first.result.deposit).toHaveLength(1);
    expect(first.result.next_cursor).toEqual(expect.any(String));
    const second = (await c.privatePostDepositStatus({ cursor: first.result.next_cursor, limit: 1 })) as typeof first;
    expect(second.result.deposit).toHaveLength(1);
    expect(second.result.deposit[0]!.time).toBeLessThan(first.result.deposit[0]!.time);
    expect(second.result.next_cursor).toBeNull();
  });
});

describe("Kraken keys", () => {
  it("proves a read-only key through GetApiKeyInfo and finds the account's id", async () => {
    expect(await kraken.checkKey(client("demo-read-only"))).toEqual({
      ok: true,
      uid: DEMO_KRAKEN_ACCOUNT.replace(/ /g, ""),
    });
    const other = await kraken.checkKey(client("demo-read-only-second"));
    expect(other.ok && other.uid).not.toBe(DEMO_KRAKEN_ACCOUNT.replace(/ /g, ""));
  });

  it("refuses keys that can trade or withdraw, naming the permissions to untick", async () => {
    const trade = await kraken.checkKey(client("demo-can-trade"));
    expect(trade).toMatchObject({ ok: false, permission: "trade" });
    expect(!trade.ok && trade.message).toMatch(
      /^This key can trade\. Create a read-only key: on Kraken.*\(untick Create & Modify Orders, Cancel & Close Orders\)\.$/,
    );
    const withdraw = await kraken.checkKey(client("demo-can-withdraw"));
    expect(!withdraw.ok && withdraw.message).toMatch(/^This key can withdraw\. .*\(untick Withdraw Funds\)\.$/);
    expect(readKrakenPermissions(["query-funds", "query-closed-trades"])?.permission).toBe("read");
    expect(readKrakenPermissions(["query-closed-trades", "query-ledger", "deposit-funds"])).toBeNull();
  });

  it("answers an unknown key and a wrong signature as Kraken does, and checks the signature byte for byte", async () => {
    expect(await failure(kraken.checkKey(client("not-a-key")))).toEqual({
      kind: "key",
      message: "Kraken refused the key: EAPI:Invalid key",
    });
    setKrakenSecret("demo-read-only-signed", SECRET);
    const wrong = await failure(
      kraken.checkKey(client("demo-read-only-signed", Buffer.alloc(64, 9).toString("base64"))),
    );
    expect(wrong.message).toMatch(/EAPI:Invalid signature/);
    expect((await kraken.checkKey(client("demo-read-only-signed"))).ok).toBe(true);
  });

  it("retries once when another program used a higher nonce", async () => {
    const page = await kraken.fetchPage(client("sim-nonce-unit"), { stream: "fills", page: 0 });
    expect(page.rows).toHaveLength(50);
    // A nonce at or below the last accepted one is refused.
    const c = client("demo-read-only-nonce");
    c.nonce = () => 1;
    await c.privatePostGetApiKeyInfo();
    expect((await failure(c.privatePostGetApiKeyInfo())).kind).toBe("unavailable");
  });

  it("spends the key's decaying counter: a full counter is a rate-limit wait of the counter's decay", async () => {
    const rate = await failure(kraken.fetchPage(client("sim-rate-unit"), { stream: "ledgers", page: 0 }));
    expect(rate).toEqual({
      kind: "rate",
      message: "Kraken asked us to slow down (EAPI:Rate limit exceeded); the import waits and resumes.",
      retryAfterSeconds: 7,
    });
    // Still full a moment later: Kraken's counter decays 0.33 a second, history calls cost 2.
    expect((await failure(kraken.fetchPage(client("sim-rate-unit"), { stream: "ledgers", page: 0 }))).kind).toBe(
      "rate",
    );
    // Any key: eight history calls in a row overflow a Starter counter of 15.
    const results = [];
    for (let i = 0; i < 8; i++)
      results.push(
        await kraken
          .fetchPage(client("demo-read-only-burst"), { stream: "fills", page: 0 })
          .then(() => "ok")
          .catch((e: unknown) => readExchangeError("Kraken", null, e).kind),
      );
    expect(results).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok", "rate"]);
  });

  it("names a revoked key's reason on a history call", async () => {
    expect((await kraken.checkKey(client("sim-revoked-later-unit"))).ok).toBe(true);
    expect(await failure(kraken.fetchPage(client("sim-revoked-later-unit"), { stream: "fills", page: 0 }))).toEqual({
      kind: "key",
      message: "Kraken refused the key: EAPI:Invalid key",
    });
  });
});

describe("the demo year, read and mapped", () => {
  it("pages fills and ledger 50 at a time by offset and maps every row or counts it", async () => {
    const pages = await readAll("demo-read-only", DEMO_KRAKEN_START - 10 * DAY, DEMO_KRAKEN_START + 400 * DAY);
    const fills = pages.filter((p) => p.task.stream === "fills");
    expect(fills.map((p) => [p.task.page, p.rows.length])).toEqual([
      [0, 50],
      [50, 4],
    ]);
    const ledger = pages.filter((p) => p.task.stream === "ledgers");
    expect(ledger.map((p) => p.rows.length)).toEqual([50, 50, 21]);
    // Newest first, no row twice.
    const ids = ledger.flatMap((p) => (p.rows as KrakenLedgerEntry[]).map((r) => r.id));
    expect(new Set(ids).size).toBe(121);
    const times = fills.flatMap((p) => (p.rows as KrakenTrade[]).map((r) => r.time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(pages.find((p) => p.task.stream === "pairs")!.task.symbol).toBe("XETHZUSD,XXBTZEUR,XXBTZUSD");

    const usd: Record<string, number> = { ETH: 2_500, SOL: 150, BTC: 60_000 };
    const mapped = mapKraken(pages, (asset) => usd[asset]);
    const btc = mapped.batch.trades.filter((t) => t.symbol === "BTC");
    expect(btc).toHaveLength(52);
    const realized = DEMO_KRAKEN.roundTrips.reduce((s, r) => s + r.qty * (r.sell - r.buy), 0);
    expect(realized).toBeCloseTo(DEMO_KRAKEN.realizedUsd, 9);
    const sells = btc.filter((t) => t.side === "sell").reduce((s, t) => s + t.quantity * t.price, 0);
    const buys = btc.filter((t) => t.side === "buy").reduce((s, t) => s + t.quantity * t.price, 0);
    expect(sells - buys).toBeCloseTo(480, 6);
    // Trades: 52 BTC fills, the ETH buy, six rewards bought, the SOL of Buy Crypto (the USD legs are
    // cash), and the withdrawal's ETH fee sold from the position.
    expect(mapped.batch.trades).toHaveLength(61);
    expect(mapped.batch.trades.find((t) => t.externalId.endsWith(":k"))).toMatchObject({
      symbol: "ETH",
      side: "sell",
      quantity: DEMO_KRAKEN.withdrawal.fee,
    });
    expect(mapped.batch.trades.find((t) => t.symbol === "SOL")).toMatchObject({ side: "buy", quantity: 1.5 });
    expect(mapped.batch.trades.find((t) => t.symbol === "SOL")!.price).toBeCloseTo(250 / 1.5, 9);
    // Fees in USD (0.26% of each fill), the withdrawal's in ETH.
    const fees = mapped.batch.events!.filter((e) => e.kind === "fee");
    expect(fees).toHaveLength(54);
    const firstBuy = DEMO_KRAKEN.roundTrips[0]!;
    expect(fees.map((e) => (e as { amount: number }).amount)).toContainEqual(
      Math.round(firstBuy.qty * firstBuy.buy * DEMO_KRAKEN.feeRate * 100) / 100,
    );
    expect(fees.map((e) => (e as { amount: number }).amount)).toContainEqual(DEMO_KRAKEN.withdrawal.fee * 2_500);
    // Staking rewards as income, the USD deposit as cash, the ETH withdrawal in kind.
    const income = mapped.batch.events!.filter((e) => e.kind === "income");
    expect(income).toHaveLength(6);
    expect(income[0]).toMatchObject({ symbol: "ETH", amount: 0.002 * 2_500 });
    expect(mapped.batch.cashFlows).toEqual([expect.objectContaining({ amount: DEMO_KRAKEN.deposit.amount })]);
    // The withdrawal names its chain hash and destination (WithdrawStatus, joined by refid): a
    // linked wallet at that address, or the same hash, pairs it.
    expect(mapped.batch.events!.find((e) => e.kind === "send")).toMatchObject({
      symbol: "ETH",
      quantity: 0.4,
      txId: DEMO_KRAKEN.withdrawal.txid,
      address: DEMO_KRAKEN.withdrawal.to,
    });
    const statuses = pages.filter((p) => p.task.stream === "deposit-status" || p.task.stream === "withdraw-status");
    expect(statuses.map((p) => [p.task.stream, p.rows.length])).toEqual([
      ["deposit-status", 2],
      ["withdraw-status", 1],
    ]);
    // Without a status row (older than Kraken answers), the same withdrawal still maps, unnamed.
    const bare = mapKraken(
      pages.filter((p) => p.task.stream !== "withdraw-status"),
      (asset) => usd[asset],
    );
    expect(bare.batch.events!.find((e) => e.kind === "send")).not.toHaveProperty("txId");
    expect(mapped.skipped).toEqual({ "trade in EUR without a USD price": 1, "deposit of EUR without a USD price": 1 });
  });

  it("names Kraken's assets as everyone does and counts what it cannot grade", () => {
    expect(["XXBT", "XBT.M", "ETH2.S", "ZUSD", "SOL.F", "DOT"].map(krakenAsset)).toEqual([
      "BTC",
      "BTC",
      "ETH",
      "USD",
      "SOL",
      "DOT",
    ]);
    const margin: KrakenTrade = {
      txid: "T1",
      ordertxid: "O1",
      pair: "XXBTZUSD",
      time: 1_760_000_000,
      type: "buy",
      ordertype: "limit",
      price: "60000",
      cost: "600",
      fee: "1",
      vol: "0.01",
      margin: "120",
      misc: "",
    };
    const rollover = {
      id: "L1",
      refid: "R",
      time: 1_760_000_000,
      type: "rollover",
      subtype: "",
      aclass: "currency",
      asset: "ZUSD",
      amount: "-1",
      fee: "0",
      balance: "0",
    };
    const mapped = mapKraken(
      [
        { task: { stream: "fills" }, rows: [margin] },
        { task: { stream: "ledgers" }, rows: [rollover, { ...rollover, id: "L2", type: "nfttrade" }] },
        { task: { stream: "pairs" }, rows: [{ pair: "XXBTZUSD", base: "XXBT", quote: "ZUSD" }] },
      ],
      () => 1,
    );
    expect(mapped.batch.trades).toEqual([]);
    expect(mapped.skipped).toEqual({
      "margin trade (not graded yet)": 1,
      "margin ledger entry (rollover, not graded yet)": 1,
      "Kraken ledger entry of type nfttrade": 1,
    });
  });
});
