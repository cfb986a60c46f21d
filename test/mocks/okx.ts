import crypto from "node:crypto";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { DEMO_OKX_URL } from "../../app/sources/wallet-demo";
import { simDelay } from "./sim-delay";

/**
 * A simulator of OKX's v5 REST API as ccxt calls it (PROVIDERS.md §11), for demo mode and tests.
 * Private calls carry OK-ACCESS-KEY, OK-ACCESS-PASSPHRASE, OK-ACCESS-TIMESTAMP (ISO 8601, ms) and
 * OK-ACCESS-SIGN (base64 HMAC-SHA256 of timestamp + method + path with its query, under the
 * secret); they are checked in OKX's order, each refusal HTTP 401 with its code: the key (50111),
 * the timestamp within 30 s of OKX's clock (50102), the passphrase (50105), the signature (50113).
 * Per-user limits over a rolling 2 s (account/config 5, fills-history 10, fills 60), and 6 a second
 * for deposit-history and withdrawal-history: HTTP 429 `{"code":"50011"}`. The fills come 100 at
 * most a call, newest first, paged by `after` (billId); fills-history serves the last year, fills
 * the last 3 days; `instType` is required. Deposits and withdrawals come 100 at most a call, newest
 * first, between `before` and `after` (timestamps, both exclusive), the whole history; converts
 * (`asset/convert/history`, 6 a second) and the funding account's bills (`asset/bills-history`,
 * 1 a second) the same way.
 *
 * Keys (any secret and passphrase, unless a test set them with setOkxCredentials):
 *   demo-read-only            the demo history (DEMO_OKX below), account uid DEMO_OKX_UID
 *   demo-read-only-<anything> another demo account: its own uid, the same history
 *   demo-can-trade            perm "read_only,trade"
 *   demo-can-withdraw         perm "read_only,trade,withdraw"
 *   sim-revoked-later         links (read-only), then every history call answers 50111
 *   sim-rate                  the first history call finds the user's limit spent (50011)
 *   sim-clock                 the first history call finds our clock 40 s off (50102)
 *   sim-sub                   a sub-account's key (uid ≠ mainUid)
 * (a sim-… key may have any suffix: each its own account.) Any other key: 50111.
 * What must happen once per key (sim-rate, sim-clock) is remembered in files under the OS's temp
 * directory, so the server processes of one machine answer as the one OKX would.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const DEMO_OKX_UID = "448821973603110912";
/** Where the demo's ETH withdrawal goes: an address of no account of the demo's. */
export const DEMO_OKX_WITHDRAWAL_TO = "0x7a16ff8270133f063aab6c9977183d9e72835428";

/**
 * The demo year starts on the first of the month ten months back (so it stays inside the year
 * fills-history serves, whatever the day): 60 BTC-USDT round trips, one every five days, 0.02 BTC
 * bought at 60,000 + 200 k and the 0.01998 BTC received sold two days later 1,500 higher (1,000
 * lower every fourth); the fee 0.1% in what the fill gives (BTC on a buy, USDT on a sell). 1.5 ETH
 * bought with USDC (fee in ETH), 0.5 ETH sold for BTC at the end (fee in BTC), and a BTC-EUR fill
 * (no USD price: counted). Realized on BTC in USDT: 0.01998 × (45 × 1,500 − 15 × 1,000) = 1,048.95.
 * 10,000 USDT deposited from the chain before the first fill; 0.3 ETH withdrawn to an outside
 * address on day 200, its fee 0.002 ETH on top. Day 150: 0.2 ETH converted to 640 USDT (a
 * convert, `asset/convert/history`): the ETH bought at 3,000 USDC, so realized 640 × USDT's price −
 * 0.2 × 3,000 × USDC's price ≈ 40. Day 160: 0.004 ETH of staking yield (funding bill type 83),
 * beside the bills of the deposit, the withdrawal, the funding ↔ trading transfers, a staking
 * subscription and redemption (read elsewhere or own moves) and 100 USDT sent to a sub-account
 * (bill type 20: counted, not read).
 */
export function demoOkxStart(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 10, 1);
}
export function demoOkx(start = demoOkxStart()) {
  return {
    start,
    feeRate: 0.001,
    roundTrips: Array.from({ length: 60 }, (_, k) => {
      const buy = 60_000 + 200 * k;
      return {
        buyTime: start + 5 * k * DAY + 10 * HOUR,
        sellTime: start + (5 * k + 2) * DAY + 15 * HOUR,
        qty: 0.02,
        sold: 0.01998,
        buy,
        sell: buy + (k % 4 === 3 ? -1_000 : 1_500),
      };
    }),
    eth: { time: start + DAY + 12 * HOUR, qty: 1.5, price: 3_000 },
    ethBtc: { time: start + 299 * DAY, qty: 0.5, price: 0.05 },
    eurTrade: { time: start + 100 * DAY + 3 * HOUR, qty: 0.001, price: 58_000 },
    realizedUsdt: 0.01998 * (45 * 1_500 - 15 * 1_000),
    usdtDeposit: { time: start + 2 * HOUR, amount: 10_000 },
    ethWithdrawal: { time: start + 200 * DAY + 9 * HOUR, amount: 0.3, fee: 0.002, to: DEMO_OKX_WITHDRAWAL_TO },
    convert: { time: start + 150 * DAY + 11 * HOUR, eth: 0.2, usdt: 640 },
    stakingYield: { time: start + 160 * DAY + 8 * HOUR, eth: 0.004 },
    subAccountOut: { time: start + 170 * DAY, usdt: 100 },
  };
}

type Fill = Record<string, string> & { billId: string; ts: string };
/** A deposit or withdrawal row as OKX answers it (strings, and `nonTradableAsset` a boolean). */
type Move = Record<string, string | boolean> & { ts: string; ccy: string; state?: string };
type Account = {
  uid: string;
  mainUid: string;
  perm: string;
  fills: Fill[];
  deposits: Move[];
  withdrawals: Move[];
  converts: Move[];
  bills: Move[];
};

const fmt = (n: number, places = 8) => Number(n.toFixed(places)).toString();

function uidOf(key: string): string {
  const h = crypto.createHash("sha256").update(key).digest();
  return (
    (BigInt("0x" + h.subarray(0, 8).toString("hex")) % 900_000_000_000_000_000n) +
    100_000_000_000_000_000n
  ).toString();
}

function demoAccount(uid: string, perm: string, mainUid = uid): Account {
  const d = demoOkx();
  const fills: Fill[] = [];
  const base = BigInt(uid.slice(-6)) * 1_000_000n;
  const fill = (instId: string, time: number, side: "buy" | "sell", qty: number, price: number) => {
    const [b, q] = instId.split("-") as [string, string];
    const n = BigInt(fills.length);
    // The fee in what the fill gives: the base on a buy, the quote on a sell (negative: charged).
    const fee = side === "buy" ? qty * d.feeRate : qty * price * d.feeRate;
    fills.push({
      instType: "SPOT",
      instId,
      tradeId: String(700_000_000n + n),
      ordId: String(600_000_000_000_000_000n + base + n),
      clOrdId: "",
      billId: String(500_000_000_000_000_000n + base + n),
      subType: "1",
      tag: "",
      fillPx: fmt(price, 6),
      fillSz: fmt(qty, 8),
      fillIdxPx: "",
      fillPnl: "0",
      fillPxVol: "",
      fillPxUsd: "",
      fillMarkVol: "",
      fillFwdPx: "",
      fillMarkPx: "",
      side,
      posSide: "net",
      execType: fills.length % 3 ? "T" : "M",
      feeCcy: side === "buy" ? b : q,
      fee: fmt(-fee, 10),
      fillTime: String(time),
      ts: String(time + 7),
    });
  };
  fill("ETH-USDC", d.eth.time, "buy", d.eth.qty, d.eth.price);
  for (const r of d.roundTrips) {
    fill("BTC-USDT", r.buyTime, "buy", r.qty, r.buy);
    fill("BTC-USDT", r.sellTime, "sell", r.sold, r.sell);
  }
  fill("BTC-EUR", d.eurTrade.time, "buy", d.eurTrade.qty, d.eurTrade.price);
  fill("ETH-BTC", d.ethBtc.time, "sell", d.ethBtc.qty, d.ethBtc.price);
  // Newest first, as OKX answers; billIds grow with time.
  fills.sort((a, b) => Number(b.ts) - Number(a.ts));
  fills.forEach((f, i) => (f.billId = String(500_000_000_000_000_000n + base + BigInt(fills.length - i))));
  // Each account its own chain hashes and deposit address, as the chain would have them.
  const hex = (what: string, chars: number) =>
    crypto.createHash("sha256").update(`okx:${what}:${uid}`).digest("hex").slice(0, chars);
  const deposits: Move[] = [
    {
      actualDepBlkConfirm: "64",
      amt: fmt(d.usdtDeposit.amount),
      areaCodeFrom: "",
      ccy: "USDT",
      chain: "USDT-ERC20",
      depId: String(180_000_000 + Number(uid.slice(-6))),
      from: "",
      fromWdId: "",
      state: "2",
      to: `0x${hex("deposit-address", 40)}`,
      ts: String(d.usdtDeposit.time),
      txId: `0x${hex("dep", 64)}`,
    },
  ];
  const withdrawals: Move[] = [
    {
      note: "",
      chain: "ETH-Ethereum",
      fee: fmt(d.ethWithdrawal.fee),
      feeCcy: "ETH",
      ccy: "ETH",
      clientId: "",
      toAddrType: "1",
      amt: fmt(d.ethWithdrawal.amount),
      txId: `0x${hex("wd", 64)}`,
      from: "tra***@example.com",
      areaCodeFrom: "",
      to: d.ethWithdrawal.to,
      areaCodeTo: "",
      state: "2",
      ts: String(d.ethWithdrawal.time),
      nonTradableAsset: false,
      wdId: String(150_000_000 + Number(uid.slice(-6))),
    },
  ];
  const c = d.convert;
  const converts: Move[] = [
    {
      clTReqId: "",
      instId: "ETH-USDT",
      ccy: "ETH",
      side: "sell",
      fillPx: fmt(c.usdt / c.eth, 6),
      baseCcy: "ETH",
      quoteCcy: "USDT",
      fillBaseSz: fmt(c.eth),
      fillQuoteSz: fmt(c.usdt),
      state: "fullyFilled",
      tradeId: `trader${hex("convert", 16)}`,
      ts: String(c.time),
    },
  ];
  let bill = 0n;
  const bills: Move[] = [];
  const addBill = (type: string, ccy: string, balChg: number, ts: number, notes = "") =>
    bills.push({
      billId: String(900_000_000_000n + base + bill++),
      ccy,
      clientId: "",
      balChg: fmt(balChg),
      bal: "0",
      type,
      notes,
      ts: String(ts),
    });
  addBill("1", "USDT", d.usdtDeposit.amount, d.usdtDeposit.time, "Deposit");
  addBill("131", "USDT", -d.usdtDeposit.amount, d.usdtDeposit.time + HOUR, "To Trading account");
  addBill("80", "ETH", -0.5, c.time + DAY, "DEFI/Staking subscription");
  addBill("83", "ETH", d.stakingYield.eth, d.stakingYield.time, "Staking yield");
  addBill("82", "ETH", 0.5, d.stakingYield.time + HOUR, "DEFI/Staking redemption");
  addBill("20", "USDT", -d.subAccountOut.usdt, d.subAccountOut.time, "Transfer to sub account");
  const out = d.ethWithdrawal.amount + d.ethWithdrawal.fee;
  addBill("130", "ETH", out, d.ethWithdrawal.time - HOUR, "From Trading account");
  addBill("2", "ETH", -out, d.ethWithdrawal.time, "Withdrawal");
  return { uid, mainUid, perm, fills, deposits, withdrawals, converts, bills };
}

function accountOf(key: string): Account | null {
  if (key === "demo-read-only") return demoAccount(DEMO_OKX_UID, "read_only");
  if (key.startsWith("sim-sub")) return demoAccount(uidOf(key), "read_only", uidOf(`${key}:main`));
  if (key.startsWith("demo-read-only-") || key.startsWith("sim-")) return demoAccount(uidOf(key), "read_only");
  if (key === "demo-can-trade") return demoAccount(uidOf(key), "read_only,trade");
  if (key === "demo-can-withdraw") return demoAccount(uidOf(key), "read_only,trade,withdraw");
  return null;
}

// ---------------------------------------------------------------------------------------------
// What OKX remembers: the calls of each user's last 2 s (this process's), secrets set by tests,
// and the once-per-key behaviours (in files: every process on the machine is the one OKX).

const LIMITS: Record<string, number> = {
  "account/config": 5,
  "trade/fills-history": 10,
  "trade/fills": 60,
  "asset/deposit-history": 6,
  "asset/withdrawal-history": 6,
  "asset/convert/history": 6,
  "asset/bills-history": 1,
};
/** The span each limit counts over: 2 s, but a second for the funding account's endpoints. */
const WINDOW_MS: Record<string, number> = {
  "asset/deposit-history": 1_000,
  "asset/withdrawal-history": 1_000,
  "asset/convert/history": 1_000,
  "asset/bills-history": 1_000,
};
const calls = new Map<string, number[]>();
const credentials = new Map<string, { secret: string; passphrase: string }>();
const STATE_DIR = path.join(os.tmpdir(), "grader-okx-simulator");

/** Tests in this process: the secret and passphrase a key must be used with from now on. */
export function setOkxCredentials(key: string, secret: string, passphrase: string) {
  credentials.set(key, { secret, passphrase });
}

/** True the first time this key meets `what`, on any process of the machine. */
function firstTime(key: string, what: string): boolean {
  const file = path.join(STATE_DIR, `${what}-${crypto.createHash("sha256").update(key).digest("hex").slice(0, 32)}`);
  if (existsSync(file)) return false;
  mkdirSync(STATE_DIR, { recursive: true });
  try {
    writeFileSync(file, "1", { flag: "wx" });
    return true;
  } catch {
    return false; // another process got there first
  }
}

const okxError = (status: number, code: string, msg: string) => HttpResponse.json({ code, msg, data: [] }, { status });
const ok = (data: unknown[]) => HttpResponse.json({ code: "0", msg: "", data });
const RATE = () =>
  okxError(429, "50011", "Rate limit reached. Please refer to API documentation and throttle requests accordingly.");

function withinLimit(uid: string, endpoint: string): boolean {
  const now = Date.now();
  const key = `${uid}:${endpoint}`;
  const recent = (calls.get(key) ?? []).filter((t) => now - t < (WINDOW_MS[endpoint] ?? 2_000));
  if (recent.length >= (LIMITS[endpoint] ?? 20)) {
    calls.set(key, recent);
    return false;
  }
  recent.push(now);
  calls.set(key, recent);
  return true;
}

/** The private call's checks, in OKX's order: key, timestamp, passphrase, signature, limit. */
function privateCall(request: Request, endpoint: string): { account: Account; key: string } | Response {
  const key = request.headers.get("ok-access-key") ?? "";
  const sign = request.headers.get("ok-access-sign") ?? "";
  const stamp = request.headers.get("ok-access-timestamp") ?? "";
  const passphrase = request.headers.get("ok-access-passphrase") ?? "";
  const account = key ? accountOf(key) : null;
  if (!account) return okxError(401, "50111", "Invalid OK-ACCESS-KEY");
  const time = Date.parse(stamp);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(stamp) || Number.isNaN(time))
    return okxError(401, "50112", "Invalid OK-ACCESS-TIMESTAMP");
  if (Math.abs(Date.now() - time) > 30_000) return okxError(401, "50102", "Timestamp request expired");
  const known = credentials.get(key);
  if (known ? passphrase !== known.passphrase : !passphrase)
    return okxError(401, "50105", "OK-ACCESS-PASSPHRASE incorrect");
  const url = new URL(request.url);
  const valid = known
    ? crypto
        .createHmac("sha256", known.secret)
        .update(stamp + request.method + url.pathname + url.search)
        .digest("base64") === sign
    : /^[A-Za-z0-9+/]{43}=$/.test(sign);
  if (!valid) return okxError(401, "50113", "Invalid Sign");
  if (!withinLimit(account.uid, endpoint)) return RATE();
  return { account, key };
}

/** The history calls of sim-revoked-later, sim-rate and sim-clock behave as their names say. */
function historyCall(key: string): Response | null {
  if (key.startsWith("sim-revoked-later")) return okxError(401, "50111", "Invalid OK-ACCESS-KEY");
  if (key.startsWith("sim-rate") && firstTime(key, "rate")) return RATE();
  if (key.startsWith("sim-clock") && firstTime(key, "clock"))
    return okxError(401, "50102", "Timestamp request expired");
  return null;
}

/** One page of newest-first fills: within the endpoint's depth, `begin`/`end` (ms), before `after`. */
function fillsPage(account: Account, query: URLSearchParams, depthMs: number): Fill[] | Response {
  if (
    query.get("instType") !== "SPOT" &&
    !["MARGIN", "SWAP", "FUTURES", "OPTION"].includes(query.get("instType") ?? "")
  )
    return okxError(400, "51000", "Parameter instType error");
  if (query.get("instType") !== "SPOT") return [];
  const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 100) || 100));
  const oldest = Date.now() - depthMs;
  const begin = query.has("begin") ? Number(query.get("begin")) : -Infinity;
  const end = query.has("end") ? Number(query.get("end")) : Infinity;
  const after = query.get("after");
  return account.fills
    .filter((f) => Number(f.ts) >= oldest && Number(f.ts) >= begin && Number(f.ts) <= end)
    .filter((f) => after === null || BigInt(f.billId) < BigInt(after))
    .slice(0, limit);
}

/** One page of newest-first deposits or withdrawals: newer than `before`, older than `after` (ms), `ccy`, `state`. */
function movesPage(rows: Move[], query: URLSearchParams): Move[] {
  const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 100) || 100));
  const after = query.has("after") ? Number(query.get("after")) : Infinity;
  const before = query.has("before") ? Number(query.get("before")) : -Infinity;
  return rows
    .filter((r) => Number(r.ts) < after && Number(r.ts) > before)
    .filter((r) => !query.get("ccy") || r.ccy === query.get("ccy"))
    .filter((r) => !query.get("state") || r.state === query.get("state"))
    .sort((a, b) => Number(b.ts) - Number(a.ts))
    .slice(0, limit);
}

const url = (p: string) => `${DEMO_OKX_URL}${p}`;

export function okxHandlers() {
  const fills = (endpoint: string, depthMs: number) =>
    http.get(url(`/api/v5/${endpoint}`), async ({ request }) => {
      const s = privateCall(request, endpoint);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      await simDelay(80);
      const page = fillsPage(s.account, new URL(request.url).searchParams, depthMs);
      return page instanceof Response ? page : ok(page);
    });
  const moves = (endpoint: string, rowsOf: (account: Account) => Move[]) =>
    http.get(url(`/api/v5/${endpoint}`), async ({ request }) => {
      const s = privateCall(request, endpoint);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      await simDelay(80);
      return ok(movesPage(rowsOf(s.account), new URL(request.url).searchParams));
    });
  return [
    http.get(url("/api/v5/public/time"), () => ok([{ ts: String(Date.now()) }])),
    http.get(url("/api/v5/account/config"), async ({ request }) => {
      const s = privateCall(request, "account/config");
      if (s instanceof Response) return s;
      await simDelay(60);
      return ok([
        {
          uid: s.account.uid,
          mainUid: s.account.mainUid,
          acctLv: "1",
          acctStpMode: "cancel_maker",
          posMode: "net_mode",
          autoLoan: false,
          greeksType: "PA",
          level: "Lv1",
          levelTmp: "",
          ctIsoMode: "automatic",
          mgnIsoMode: "automatic",
          roleType: "0",
          spotRoleType: "0",
          traderInsts: [],
          spotTraderInsts: [],
          opAuth: "0",
          kycLv: "2",
          label: "grader",
          ip: "",
          perm: s.account.perm,
          liquidationGear: "-1",
          enableSpotBorrow: false,
          spotBorrowAutoRepay: false,
          type: s.account.uid === s.account.mainUid ? "0" : "1",
          settleCcy: "USDT",
          settleCcyList: ["USD", "USDC", "USDG"],
        },
      ]);
    }),
    fills("trade/fills-history", 365 * DAY),
    fills("trade/fills", 3 * DAY),
    moves("asset/deposit-history", (a) => a.deposits),
    moves("asset/withdrawal-history", (a) => a.withdrawals),
    moves("asset/convert/history", (a) => a.converts),
    moves("asset/bills-history", (a) => a.bills),
    // Anything else of OKX's: an honest "not simulated", never the real exchange.
    http.all(url("/*"), () => okxError(404, "50030", "This endpoint is not simulated")),
  ];
}
