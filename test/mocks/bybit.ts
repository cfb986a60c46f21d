import crypto from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { DEMO_BYBIT_URL } from "../../app/sources/wallet-demo";
import { simDelay } from "./sim-delay";

/**
 * A simulator of Bybit's v5 REST API as ccxt calls it (PROVIDERS.md §10), for demo mode and tests.
 * Private calls carry X-BAPI-API-KEY, X-BAPI-TIMESTAMP (ms), X-BAPI-RECV-WINDOW and X-BAPI-SIGN
 * (hex HMAC-SHA256 of timestamp + key + recv window + query, under the secret); they are checked in
 * Bybit's order, each refusal `{"retCode":…}` with HTTP 200: the key (10003), the timestamp within
 * the window (server − recv_window ≤ ts < server + 1 s, else 10002), the signature (10004), the
 * per-user limit (query-api 10 and execution/list 50 a second; deposit records 100 and withdrawal
 * records 300 a minute: 10006 "Too many visits!").
 * `execution/list` needs `category`, windows of at most 7 days (10001), serves the last 2 years
 * only, 100 at most a call, newest first, paged by an opaque `nextPageCursor`.
 * `asset/deposit/query-record` and `asset/withdraw/query-record` answer `result.rows`, windows
 * under 30 days (131002), the last 30 days when none is given, 50 at most a call, newest first,
 * paged the same way; withdrawals on-chain only unless `withdrawType` says 1 (off-chain) or 2 (all).
 * `asset/exchange/order-record` (converts) answers `result.orderBody`, newest first, 1–50 a call
 * (default 10) by cursor, no time filter; `earn/yield` needs the key's Earn permission (10005
 * otherwise), `category`, windows of at most 7 days (the last 7 when none), 1–100 a call (default
 * 50) by cursor.
 *
 * Keys (any secret, unless a test set one with setBybitSecret):
 *   demo-read-only            the demo history (demoBybit below), userID DEMO_BYBIT_UID
 *   demo-read-only-<anything> another demo account: its own userID, the same history
 *   demo-can-trade            readOnly 0 (Spot trade)
 *   demo-can-withdraw         readOnly 0 with Wallet Withdraw
 *   sim-revoked-later         links (read-only), then every execution call answers 10003
 *   sim-rate                  the first execution call finds the user's second spent (10006)
 *   sim-clock                 the first execution call finds our clock off (10002)
 *   sim-no-earn               a read-only key without Earn's permission
 * (a sim-… key may have any suffix: each its own account.) Any other key: 10003.
 * What must happen once per key is remembered in files under the OS's temp directory, so the
 * server processes of one machine answer as the one Bybit would.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const DEMO_BYBIT_UID = 100_200_300;

/**
 * The demo year starts on the first of the month twelve months back: 26 BTCUSDT round trips, one
 * every two weeks, 0.02 BTC bought at 60,000 + 500 k and the 0.01998 BTC received sold a week
 * later 1,500 higher (1,000 lower every fourth); the fee 0.1 % in what the fill gives (BTC on a buy,
 * USDT on a sell). 240 ETHUSDC buys of 0.005 ETH every half hour over five days (pages of 100),
 * 0.5 ETH sold for BTC at the end, a BTCEUR fill (no USD price: counted), and one BTCUSDT fill
 * 26 months back that Bybit no longer serves. Realized on BTC in USDT:
 * 0.01998 × (20 × 1,500 − 6 × 1,000) = 479.52. Besides: 20,000 USDT deposited on Tron before the
 * first fill, and 0.2 ETH withdrawn on Ethereum (its fee 0.0015 ETH) after the ETH buys. Day 120:
 * 0.1 ETH converted to 310 USDT (the ETH cost ≈ 3,000 USDC each: realized ≈ 310 − 300 = 10);
 * day 130: 0.002 ETH of Flexible Savings yield paid (and one still pending, not paid).
 */
export function demoBybitStart(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 12, 1);
}
export function demoBybit(start = demoBybitStart()) {
  return {
    start,
    feeRate: 0.001,
    roundTrips: Array.from({ length: 26 }, (_, k) => {
      const buy = 60_000 + 500 * k;
      return {
        buyTime: start + 14 * k * DAY + 10 * HOUR,
        sellTime: start + (14 * k + 7) * DAY + 15 * HOUR,
        qty: 0.02,
        sold: 0.01998,
        buy,
        sell: buy + (k % 4 === 3 ? -1_000 : 1_500),
      };
    }),
    ethBuys: Array.from({ length: 240 }, (_, i) => ({ time: start + 3 * DAY + i * 30 * 60_000, qty: 0.005 })),
    ethPrice: 3_000,
    ethBtc: { time: start + 362 * DAY, qty: 0.5, price: 0.05 },
    eurTrade: { time: start + 100 * DAY + 3 * HOUR, qty: 0.001, price: 58_000 },
    /** Older than the 2 years Bybit serves: never answered. */
    tooOld: { time: start - 14 * 30 * DAY, qty: 0.01, price: 30_000 },
    realizedUsdt: 0.01998 * (20 * 1_500 - 6 * 1_000),
    deposit: { time: start + 2 * HOUR, coin: "USDT", amount: 20_000 },
    /** Completed 3 minutes after it was asked. */
    withdrawal: { time: start + 20 * DAY + 9 * HOUR, done: 3 * 60_000, coin: "ETH", amount: 0.2, fee: 0.0015 },
    convert: { time: start + 120 * DAY + 14 * HOUR, eth: 0.1, usdt: 310 },
    earnYield: { time: start + 130 * DAY + 2 * HOUR, eth: 0.002 },
  };
}

type Execution = Record<string, string | boolean> & { execId: string; execTime: string; symbol: string };
type Row = Record<string, string | number>;
type Account = {
  userID: number;
  readOnly: 0 | 1;
  permissions: Record<string, string[]>;
  fills: Execution[];
  deposits: Row[];
  withdrawals: Row[];
  converts: Row[];
  yields: Row[];
};

const INSTRUMENTS: Record<string, { baseCoin: string; quoteCoin: string }> = {
  BTCUSDT: { baseCoin: "BTC", quoteCoin: "USDT" },
  ETHUSDC: { baseCoin: "ETH", quoteCoin: "USDC" },
  ETHBTC: { baseCoin: "ETH", quoteCoin: "BTC" },
  BTCEUR: { baseCoin: "BTC", quoteCoin: "EUR" },
};
const READ = {
  Spot: [],
  Wallet: [],
  Exchange: ["ExchangeHistory"],
  ContractTrade: [],
  Options: [],
  Derivatives: [],
  Earn: ["Earn"],
};
const fmt = (n: number, places = 8) => Number(n.toFixed(places)).toString();
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const hex = (seed: string) => crypto.createHash("sha256").update(seed).digest("hex");
/** A Tron address's form: "T" and 33 base58 characters. */
const tronAddress = (seed: string) =>
  "T" + [...crypto.createHash("sha512").update(seed).digest().subarray(0, 33)].map((b) => BASE58[b % 58]).join("");

function userIdOf(key: string): number {
  return 100_000_000 + (crypto.createHash("sha256").update(key).digest().readUInt32BE(0) % 800_000_000);
}

function demoAccount(userID: number, readOnly: 0 | 1, permissions: Record<string, string[]>): Account {
  const d = demoBybit();
  const fills: Execution[] = [];
  const fill = (symbol: string, time: number, side: "Buy" | "Sell", qty: number, price: number) => {
    const { baseCoin, quoteCoin } = INSTRUMENTS[symbol]!;
    const value = qty * price;
    const n = fills.length;
    const seed = crypto.createHash("sha256").update(`${userID}:${n}`).digest("hex");
    fills.push({
      symbol,
      orderId: `${seed.slice(0, 8)}-${seed.slice(8, 12)}-${seed.slice(12, 16)}-${seed.slice(16, 20)}-${seed.slice(20, 32)}`,
      orderLinkId: "",
      side,
      orderPrice: fmt(price, 6),
      orderQty: fmt(qty),
      leavesQty: "0",
      createType: "CreateByUser",
      orderType: "Limit",
      stopOrderType: "",
      execFee: fmt(side === "Buy" ? qty * d.feeRate : value * d.feeRate, 10),
      feeCurrency: side === "Buy" ? baseCoin : quoteCoin,
      execId: `${seed.slice(32, 40)}-${seed.slice(40, 44)}-${seed.slice(44, 48)}-${seed.slice(48, 52)}-${seed.slice(52, 64)}`,
      execPrice: fmt(price, 6),
      execQty: fmt(qty),
      execType: "Trade",
      execValue: fmt(value, 10),
      execTime: String(time),
      isMaker: n % 2 === 0,
      feeRate: "0.001",
      tradeIv: "",
      markIv: "",
      markPrice: "",
      indexPrice: "",
      underlyingPrice: "",
      blockTradeId: "",
      closedSize: "",
      seq: 9_000_000_000 + n,
    } as unknown as Execution);
  };
  fill("BTCUSDT", d.tooOld.time, "Buy", d.tooOld.qty, d.tooOld.price);
  for (const r of d.roundTrips) {
    fill("BTCUSDT", r.buyTime, "Buy", r.qty, r.buy);
    fill("BTCUSDT", r.sellTime, "Sell", r.sold, r.sell);
  }
  for (const b of d.ethBuys) fill("ETHUSDC", b.time, "Buy", b.qty, d.ethPrice);
  fill("BTCEUR", d.eurTrade.time, "Buy", d.eurTrade.qty, d.eurTrade.price);
  fill("ETHBTC", d.ethBtc.time, "Sell", d.ethBtc.qty, d.ethBtc.price);
  fills.sort((a, b) => Number(b.execTime) - Number(a.execTime));
  const dep = d.deposit;
  const deposits: Row[] = [
    {
      coin: dep.coin,
      chain: "TRX",
      amount: fmt(dep.amount),
      txID: hex(`${userID}:deposit`),
      status: 3,
      toAddress: tronAddress(`${userID}:deposit-address`),
      tag: "",
      depositFee: "",
      successAt: String(dep.time),
      confirmations: "50",
      txIndex: "0",
      blockHash: "0000000004" + hex(`${userID}:block`).slice(10),
      batchReleaseLimit: "-1",
      depositType: "0",
      fromAddress: tronAddress(`${userID}:sender`),
      taxDepositRecordsId: "0",
      taxStatus: 0,
      id: String(160_000_000 + (userID % 1_000_000)),
    },
  ];
  const w = d.withdrawal;
  const withdrawals: Row[] = [
    {
      coin: w.coin,
      chain: "ETH",
      amount: fmt(w.amount),
      txID: `0x${hex(`${userID}:withdrawal`)}`,
      status: "success",
      toAddress: `0x${hex(`${userID}:wallet`).slice(0, 40)}`,
      tag: "",
      withdrawFee: fmt(w.fee),
      createTime: String(w.time),
      updateTime: String(w.time + w.done),
      withdrawId: String(131_000_000 + (userID % 1_000_000)),
      withdrawType: 0,
      fee: "",
      tax: "",
      taxRate: "",
      taxType: "",
    },
  ];
  const c = d.convert;
  const converts: Row[] = [
    {
      fromCoin: "ETH",
      fromAmount: fmt(c.eth),
      toCoin: "USDT",
      toAmount: fmt(c.usdt),
      exchangeRate: fmt(c.usdt / c.eth, 6),
      createdTime: String(Math.floor(c.time / 1000)),
      exchangeTxId: String(BigInt(`0x${hex(`${userID}:convert`).slice(0, 15)}`)),
    },
  ];
  const y = d.earnYield;
  const paid = (id: number, time: number, amount: number, status: string) => ({
    productId: "7",
    coin: "ETH",
    id: String(1_002_000 + id),
    amount: fmt(amount),
    yieldType: "Normal",
    distributionMode: "Auto",
    effectiveStakingAmount: "0.5",
    orderId: "",
    status,
    createdAt: String(time),
  });
  const yields: Row[] = [paid(2, y.time + DAY, 0.00003, "Pending"), paid(1, y.time, y.eth, "Success")];
  return { userID, readOnly, permissions, fills, deposits, withdrawals, converts, yields };
}

function accountOf(key: string): Account | null {
  if (key === "demo-read-only") return demoAccount(DEMO_BYBIT_UID, 1, READ);
  if (key.startsWith("sim-no-earn")) return demoAccount(userIdOf(key), 1, { ...READ, Earn: [] });
  if (key.startsWith("demo-read-only-") || key.startsWith("sim-")) return demoAccount(userIdOf(key), 1, READ);
  if (key === "demo-can-trade") return demoAccount(userIdOf(key), 0, { ...READ, Spot: ["SpotTrade"] });
  if (key === "demo-can-withdraw")
    return demoAccount(userIdOf(key), 0, { ...READ, Spot: ["SpotTrade"], Wallet: ["AccountTransfer", "Withdraw"] });
  return null;
}

// ---------------------------------------------------------------------------------------------
// What Bybit remembers: each user's calls of the last second (this process's), secrets set by
// tests, and the once-per-key behaviours (in files: every process on the machine is the one Bybit).

/** Calls a user may make per span (ms): Bybit's per-UID limits. */
const LIMITS: Record<string, [number, number]> = {
  "user/query-api": [10, 1_000],
  "execution/list": [50, 1_000],
  "asset/deposit/query-record": [100, 60_000],
  "asset/withdraw/query-record": [300, 60_000],
  "asset/exchange/order-record": [10, 1_000],
  "earn/yield": [10, 1_000],
};
const calls = new Map<string, number[]>();
const secrets = new Map<string, string>();
const STATE_DIR = path.join(os.tmpdir(), "grader-bybit-simulator");

/** Tests in this process: the secret a key must sign with from now on. */
export function setBybitSecret(key: string, secret: string) {
  secrets.set(key, secret);
}

function firstTime(key: string, what: string): boolean {
  const file = path.join(STATE_DIR, `${what}-${crypto.createHash("sha256").update(key).digest("hex").slice(0, 32)}`);
  if (existsSync(file)) return false;
  mkdirSync(STATE_DIR, { recursive: true });
  try {
    writeFileSync(file, "1", { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

const bybitError = (retCode: number, retMsg: string, status = 200) =>
  HttpResponse.json({ retCode, retMsg, result: {}, retExtInfo: {}, time: Date.now() }, { status });
const ok = (result: unknown, headers: Record<string, string> = {}) =>
  HttpResponse.json({ retCode: 0, retMsg: "OK", result, retExtInfo: {}, time: Date.now() }, { headers });
const RATE = () => bybitError(10006, "Too many visits!");

function withinLimit(userID: number, endpoint: string): boolean {
  const now = Date.now();
  const key = `${userID}:${endpoint}`;
  const [most, span] = LIMITS[endpoint] ?? [10, 1_000];
  const recent = (calls.get(key) ?? []).filter((t) => now - t < span);
  if (recent.length >= most) {
    calls.set(key, recent);
    return false;
  }
  recent.push(now);
  calls.set(key, recent);
  return true;
}

/** The private call's checks, in Bybit's order: key, timestamp, signature, limit. */
function privateCall(request: Request, endpoint: string): { account: Account; key: string } | Response {
  const key = request.headers.get("x-bapi-api-key") ?? "";
  const sign = request.headers.get("x-bapi-sign") ?? "";
  const stamp = request.headers.get("x-bapi-timestamp") ?? "";
  const window = request.headers.get("x-bapi-recv-window") ?? "5000";
  const account = key ? accountOf(key) : null;
  if (!account) return bybitError(10003, "API key is invalid.", 401);
  const now = Date.now();
  const ts = Number(stamp);
  if (!/^\d+$/.test(stamp) || !(now - Number(window) <= ts && ts < now + 1_000))
    return bybitError(
      10002,
      `invalid request, please check your server timestamp or recv_window param. req_timestamp[${stamp}],server_timestamp[${now}],recv_window[${window}]`,
    );
  const query = new URL(request.url).search.slice(1);
  const known = secrets.get(key);
  const valid = known
    ? crypto
        .createHmac("sha256", known)
        .update(stamp + key + window + query)
        .digest("hex") === sign
    : /^[0-9a-f]{64}$/.test(sign);
  if (!valid) return bybitError(10004, "error sign! origin_string[…]");
  if (!withinLimit(account.userID, endpoint)) return RATE();
  return { account, key };
}

function historyCall(key: string): Response | null {
  if (key.startsWith("sim-revoked-later")) return bybitError(10003, "API key is invalid.", 401);
  if (key.startsWith("sim-rate") && firstTime(key, "rate")) return RATE();
  if (key.startsWith("sim-clock") && firstTime(key, "clock"))
    return bybitError(10002, "invalid request, please check your server timestamp or recv_window param.");
  return null;
}

const cursorOf = (ofs: number) => Buffer.from(JSON.stringify({ ofs })).toString("base64url");
function ofsOf(cursor: string | null): number | null {
  if (!cursor) return 0;
  try {
    const ofs = (JSON.parse(Buffer.from(cursor, "base64url").toString()) as { ofs?: unknown }).ofs;
    return typeof ofs === "number" && ofs >= 0 ? ofs : null;
  } catch {
    return null;
  }
}

const url = (p: string) => `${DEMO_BYBIT_URL}${p}`;

/** Deposit or withdrawal records: windows under 30 days, 50 a page, newest first. */
function movesCall(endpoint: "asset/deposit/query-record" | "asset/withdraw/query-record") {
  return async ({ request }: { request: Request }) => {
    const s = privateCall(request, endpoint);
    if (s instanceof Response) return s;
    const refused = historyCall(s.key);
    if (refused) return refused;
    const q = new URL(request.url).searchParams;
    const now = Date.now();
    // Neither given: the last 30 days; one given: 30 days from it.
    let start = q.has("startTime") ? Number(q.get("startTime")) : undefined;
    let end = q.has("endTime") ? Number(q.get("endTime")) : undefined;
    if (start === undefined && end === undefined) [start, end] = [now - 30 * DAY, now];
    else if (start === undefined) start = end! - 30 * DAY;
    else if (end === undefined) end = start + 30 * DAY;
    if (!(end! - start! < 30 * DAY))
      return bybitError(131002, "Parameter error: endTime - startTime should be less than 30 days");
    const ofs = ofsOf(q.get("cursor"));
    if (ofs === null) return bybitError(131002, "Parameter error: cursor invalid");
    const limit = Math.min(50, Math.max(1, Number(q.get("limit") ?? 50) || 50));
    await simDelay(60);
    const deposits = endpoint === "asset/deposit/query-record";
    const withdrawType = Number(q.get("withdrawType") ?? 0);
    const within = (deposits ? s.account.deposits : s.account.withdrawals)
      .filter((r) => {
        const t = Number(deposits ? r.successAt : r.createTime);
        return t >= start! && t <= end! && (deposits || withdrawType === 2 || r.withdrawType === withdrawType);
      })
      .sort((a, b) => Number(b.successAt ?? b.createTime) - Number(a.successAt ?? a.createTime));
    const rows = within.slice(ofs, ofs + limit);
    return ok({ rows, nextPageCursor: ofs + limit < within.length ? cursorOf(ofs + limit) : "" });
  };
}

export function bybitHandlers() {
  return [
    http.get(url("/v5/market/time"), () => {
      const now = Date.now();
      return ok({ timeSecond: String(Math.floor(now / 1000)), timeNano: `${now}000000` });
    }),
    http.get(url("/v5/market/instruments-info"), async ({ request }) => {
      await simDelay(40);
      const q = new URL(request.url).searchParams;
      if (q.get("category") !== "spot") return bybitError(10001, "params error: category");
      const symbol = q.get("symbol");
      const list = Object.entries(INSTRUMENTS)
        .filter(([s]) => !symbol || s === symbol)
        .map(([s, i]) => ({
          symbol: s,
          ...i,
          innovation: "0",
          status: "Trading",
          marginTrading: "none",
          lotSizeFilter: { basePrecision: "0.000001", quotePrecision: "0.00000001" },
          priceFilter: { tickSize: "0.01" },
        }));
      return ok({ category: "spot", list });
    }),
    http.get(url("/v5/user/query-api"), async ({ request }) => {
      const s = privateCall(request, "user/query-api");
      if (s instanceof Response) return s;
      await simDelay(60);
      return ok({
        id: String(s.account.userID % 100_000),
        note: "grader",
        apiKey: s.key,
        readOnly: s.account.readOnly,
        secret: "",
        permissions: s.account.permissions,
        ips: ["*"],
        type: 1,
        deadlineDay: 83,
        expiredAt: new Date(Date.now() + 83 * DAY).toISOString(),
        createdAt: new Date(demoBybitStart() - 30 * DAY).toISOString(),
        unified: 0,
        uta: 1,
        userID: s.account.userID,
        inviterID: 0,
        vipLevel: "No VIP",
        mktMakerLevel: "0",
        affiliateID: 0,
        rsaPublicKey: "",
        isMaster: true,
        parentUid: "0",
        kycLevel: "LEVEL_1",
        kycRegion: "",
      });
    }),
    http.get(url("/v5/execution/list"), async ({ request }) => {
      const s = privateCall(request, "execution/list");
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      const q = new URL(request.url).searchParams;
      const category = q.get("category");
      if (!category || !["spot", "linear", "inverse", "option"].includes(category))
        return bybitError(10001, "params error: category is required");
      const now = Date.now();
      // Neither given: the last 7 days; one given: 7 days from it.
      let start = q.has("startTime") ? Number(q.get("startTime")) : undefined;
      let end = q.has("endTime") ? Number(q.get("endTime")) : undefined;
      if (start === undefined && end === undefined) [start, end] = [now - 7 * DAY, now];
      else if (start === undefined) start = end! - 7 * DAY;
      else if (end === undefined) end = start + 7 * DAY;
      if (end! - start! > 7 * DAY)
        return bybitError(10001, "The time range between startTime and endTime cannot exceed 7 days");
      const ofs = ofsOf(q.get("cursor"));
      if (ofs === null) return bybitError(10001, "params error: cursor invalid");
      const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 50) || 50));
      await simDelay(80);
      const oldest = now - 730 * DAY;
      const within =
        category === "spot"
          ? s.account.fills.filter((f) => {
              const t = Number(f.execTime);
              return t >= oldest && t >= start! && t <= end!;
            })
          : [];
      const list = within.slice(ofs, ofs + limit);
      return ok(
        { category, list, nextPageCursor: ofs + limit < within.length ? cursorOf(ofs + limit) : "" },
        { "X-Bapi-Limit": "50", "X-Bapi-Limit-Status": "49", "X-Bapi-Limit-Reset-Timestamp": String(now + 1_000) },
      );
    }),
    http.get(url("/v5/asset/deposit/query-record"), movesCall("asset/deposit/query-record")),
    http.get(url("/v5/asset/withdraw/query-record"), movesCall("asset/withdraw/query-record")),
    http.get(url("/v5/asset/exchange/order-record"), async ({ request }) => {
      const s = privateCall(request, "asset/exchange/order-record");
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      const q = new URL(request.url).searchParams;
      const ofs = ofsOf(q.get("cursor"));
      if (ofs === null) return bybitError(10001, "params error: cursor invalid");
      const limit = Math.min(50, Math.max(1, Number(q.get("limit") ?? 10) || 10));
      await simDelay(60);
      const within = s.account.converts
        .filter(
          (r) =>
            (!q.get("fromCoin") || r.fromCoin === q.get("fromCoin")) &&
            (!q.get("toCoin") || r.toCoin === q.get("toCoin")),
        )
        .sort((a, b) => Number(b.createdTime) - Number(a.createdTime));
      const orderBody = within.slice(ofs, ofs + limit);
      return ok({ orderBody, nextPageCursor: ofs + limit < within.length ? cursorOf(ofs + limit) : "" });
    }),
    http.get(url("/v5/earn/yield"), async ({ request }) => {
      const s = privateCall(request, "earn/yield");
      if (s instanceof Response) return s;
      if (!(s.account.permissions.Earn ?? []).length) return bybitError(10005, "Permission denied for current apikey");
      const refused = historyCall(s.key);
      if (refused) return refused;
      const q = new URL(request.url).searchParams;
      if (!["FlexibleSaving", "OnChain"].includes(q.get("category") ?? ""))
        return bybitError(10001, "params error: category");
      const now = Date.now();
      let start = q.has("startTime") ? Number(q.get("startTime")) : undefined;
      let end = q.has("endTime") ? Number(q.get("endTime")) : undefined;
      if (start === undefined && end === undefined) [start, end] = [now - 7 * DAY, now];
      else if (start === undefined) start = end! - 7 * DAY;
      else if (end === undefined) end = start + 7 * DAY;
      if (end! - start! > 7 * DAY) return bybitError(10001, "The time range cannot exceed 7 days");
      const ofs = ofsOf(q.get("cursor"));
      if (ofs === null) return bybitError(10001, "params error: cursor invalid");
      const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 50) || 50));
      await simDelay(40);
      const within = (q.get("category") === "FlexibleSaving" ? s.account.yields : [])
        .filter((r) => Number(r.createdAt) >= start! && Number(r.createdAt) <= end!)
        .sort((a, b) => Number(b.createdAt) - Number(a.createdAt));
      const list = within.slice(ofs, ofs + limit);
      return ok({ list, nextPageCursor: ofs + limit < within.length ? cursorOf(ofs + limit) : "" });
    }),
    // Anything else of Bybit's: an honest "not simulated", never the real exchange.
    http.all(url("/*"), () => bybitError(10017, "route not found", 404)),
  ];
}
