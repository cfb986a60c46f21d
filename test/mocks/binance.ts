import crypto from "node:crypto";
import { Wallet } from "ethers";
import { http, HttpResponse } from "msw";
import { DEMO_BINANCE_URL } from "../../app/sources/wallet-demo";
import {
  binanceTxId,
  DEMO_BINANCE_DEPOSIT_ADDRESS,
  DEMO_BINANCE_START,
  DEMO_BINANCE_TO_WALLET,
  DEMO_BINANCE_UID,
  DEMO_WALLET_TO_BINANCE,
} from "./demo-transfers";
import { EVM_SCENARIO_KEY } from "./evm";

export { DEMO_BINANCE_START, DEMO_BINANCE_UID };
import { simDelay } from "./sim-delay";

/**
 * A simulator of Binance's spot REST API as ccxt calls it (PROVIDERS.md §6–7), for demo mode and
 * tests. Signed endpoints check the key (X-MBX-APIKEY), the HMAC-SHA256 signature of the query
 * (-1022), and the timestamp against recvWindow (-1021); every answer carries
 * X-MBX-USED-WEIGHT-1M, and past 6,000 a minute a 429 with Retry-After, then 418 bans for a
 * client that keeps asking. myTrades refuses startTime–endTime spans over 24 hours, deposits and
 * withdrawals spans of 90 days or more, converts over 30 days.
 *
 * Keys (any secret, unless a test in this process set one with setBinanceSecret):
 *   demo-read-only            the demo history (DEMO_BINANCE below), uid 35000001
 *   demo-read-only-<anything> another demo account: its own uid, the same history
 *   demo-can-trade            a key with spot trading enabled
 *   demo-can-withdraw         a key with withdrawals enabled
 *   sim-revoked-later         links (read-only), then every history call answers -2015
 *   sim-ban                   its history answers 429 (Retry-After 1) then 418 (Retry-After 1) once
 *   sim-clock-skew            the exchange's clock runs 30 s ahead of ours for its calls (its
 *                             /api/v3/time says so; only a client that got -1021 asks it)
 * (a sim-… key may have any suffix: each its own account.) Any other key: -2015, as Binance
 * answers an unknown key.
 */

const DAY = 86_400_000;
/** The scenario wallet (test/mocks/evm.ts) sends the first deposit and receives the withdrawal. */
export const DEMO_BINANCE_WALLET = new Wallet(EVM_SCENARIO_KEY).address;

type Trade = {
  symbol: string;
  id: number;
  orderId: number;
  orderListId: number;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  isBestMatch: boolean;
};
type Account = {
  uid: number;
  restrictions: Record<string, boolean | number>;
  balances: { asset: string; free: string; locked: string }[];
  trades: Trade[];
  deposits: Record<string, unknown>[];
  withdrawals: Record<string, unknown>[];
  converts: Record<string, unknown>[];
  dust: Record<string, unknown>[];
};

const READ_ONLY = {
  ipRestrict: false,
  createTime: DEMO_BINANCE_START - 30 * DAY,
  enableReading: true,
  enableWithdrawals: false,
  enableInternalTransfer: false,
  enableMargin: false,
  enableFutures: false,
  permitsUniversalTransfer: false,
  enableVanillaOptions: false,
  enableFixApiTrade: false,
  enableFixReadOnly: false,
  enableSpotAndMarginTrading: false,
  enablePortfolioMarginTrading: false,
};

/**
 * The demo year, small enough to compute by hand: 10,000 USDT deposited from the demo MetaMask
 * wallet; 1 BNB bought for fees; twelve monthly BTC round trips of 0.05 BTC (bought on the 1st,
 * sold 14 days later: eight win 2,000 USDT a BTC, four lose 1,500), each fill paying 0.0001 BNB;
 * one BTC bought for euros (no USD price: counted, not used); 500 USDT converted to 0.2 ETH; a dust
 * sweep of 0.01 SOL into BNB; 0.1 ETH withdrawn to the demo wallet.
 * Realized: 0.05 × (8 × 2,000 − 4 × 1,500) = 500 USDT.
 */
export const DEMO_BINANCE = {
  roundTrips: Array.from({ length: 12 }, (_, m) => {
    const buy = 60_000 + 1_000 * m;
    return {
      buyTime: DEMO_BINANCE_START + m * 30 * DAY + 10 * 3_600_000,
      sellTime: DEMO_BINANCE_START + (m * 30 + 14) * DAY + 15 * 3_600_000,
      qty: 0.05,
      buy,
      sell: buy + (m % 3 === 2 ? -1_500 : 2_000),
    };
  }),
  bnb: { time: DEMO_BINANCE_START + 2 * 3_600_000, qty: 1, price: 600 },
  eurTrade: { time: DEMO_BINANCE_START + 100 * DAY, qty: 0.001, price: 58_000 },
  feeBnb: 0.0001,
  deposit: { time: DEMO_WALLET_TO_BINANCE.credited, amount: DEMO_WALLET_TO_BINANCE.amount },
  convert: { time: DEMO_BINANCE_START + 40 * DAY, from: 500, to: 0.2 },
  dust: { time: DEMO_BINANCE_START + 200 * DAY, sol: 0.01, bnb: 0.00012, charge: 0.0000024 },
  withdrawal: {
    time: DEMO_BINANCE_TO_WALLET.applied,
    amount: DEMO_BINANCE_TO_WALLET.amount,
    fee: DEMO_BINANCE_TO_WALLET.fee,
  },
  realizedUsdt: 500,
};

const fmt = (n: number) => n.toFixed(8).replace(/\.?0+$/, "");

function demoAccount(uid: number, scale: number): Account {
  const d = DEMO_BINANCE;
  const trades: Trade[] = [];
  let id = 1000;
  const fill = (symbol: string, time: number, price: number, qty: number, isBuyer: boolean, commissionAsset = "BNB") =>
    trades.push({
      symbol,
      id: id++,
      orderId: 500_000 + id,
      orderListId: -1,
      price: fmt(price),
      qty: fmt(qty),
      quoteQty: fmt(price * qty),
      commission: fmt(d.feeBnb),
      commissionAsset,
      time,
      isBuyer,
      isMaker: id % 2 === 0,
      isBestMatch: true,
    });
  fill("BNBUSDT", d.bnb.time, d.bnb.price, d.bnb.qty * scale, true);
  for (const r of d.roundTrips) {
    fill("BTCUSDT", r.buyTime, r.buy, r.qty * scale, true);
    fill("BTCUSDT", r.sellTime, r.sell, r.qty * scale, false);
  }
  fill("BTCEUR", d.eurTrade.time, d.eurTrade.price, d.eurTrade.qty * scale, true);
  const iso = (t: number) => new Date(t).toISOString().slice(0, 19).replace("T", " ");
  return {
    uid,
    restrictions: READ_ONLY,
    balances: [
      { asset: "BTC", free: fmt(d.eurTrade.qty * scale), locked: "0" },
      { asset: "ETH", free: fmt((d.convert.to - d.withdrawal.amount - d.withdrawal.fee) * scale), locked: "0" },
      { asset: "BNB", free: fmt(0.9975 * scale), locked: "0" },
      { asset: "USDT", free: fmt(9_400 * scale), locked: "0" },
    ],
    trades,
    deposits: [
      {
        id: `dep-${uid}-1`,
        amount: fmt(d.deposit.amount * scale),
        coin: "USDT",
        network: "ETH",
        status: 1,
        address: DEMO_BINANCE_DEPOSIT_ADDRESS,
        addressTag: "",
        txId: binanceTxId("dep", uid),
        insertTime: d.deposit.time,
        transferType: 0,
        confirmTimes: "12/12",
        unlockConfirm: 0,
        walletType: 0,
        sourceAddress: DEMO_BINANCE_WALLET,
      },
    ],
    withdrawals: [
      {
        id: `wd-${uid}-1`,
        amount: fmt(d.withdrawal.amount * scale),
        transactionFee: fmt(d.withdrawal.fee * scale),
        coin: "ETH",
        status: 6,
        address: DEMO_BINANCE_WALLET,
        txId: binanceTxId("wd", uid),
        applyTime: iso(d.withdrawal.time),
        completeTime: iso(d.withdrawal.time + (DEMO_BINANCE_TO_WALLET.completed - DEMO_BINANCE_TO_WALLET.applied)),
        network: "ETH",
        transferType: 0,
        info: "",
        confirmNo: 12,
        walletType: 0,
        txKey: "",
      },
    ],
    converts: [
      {
        quoteId: `q-${uid}`,
        orderId: 900_000 + uid,
        orderStatus: "SUCCESS",
        fromAsset: "USDT",
        fromAmount: fmt(d.convert.from * scale),
        toAsset: "ETH",
        toAmount: fmt(d.convert.to * scale),
        ratio: fmt(d.convert.to / d.convert.from),
        inverseRatio: fmt(d.convert.from / d.convert.to),
        createTime: d.convert.time,
      },
    ],
    dust: [
      {
        operateTime: d.dust.time,
        totalTransferedAmount: fmt(d.dust.bnb * scale),
        totalServiceChargeAmount: fmt(d.dust.charge * scale),
        transId: 7_000 + (uid % 1000),
        userAssetDribbletDetails: [
          {
            transId: 7_000 + (uid % 1000),
            serviceChargeAmount: fmt(d.dust.charge * scale),
            amount: fmt(d.dust.sol * scale),
            operateTime: d.dust.time,
            transferedAmount: fmt(d.dust.bnb * scale),
            fromAsset: "SOL",
          },
        ],
      },
    ],
  };
}

function accountOf(key: string): Account | "unknown" {
  if (key === "demo-read-only") return demoAccount(DEMO_BINANCE_UID, 1);
  if (key.startsWith("demo-read-only-") || key.startsWith("sim-")) {
    const h = crypto.createHash("sha256").update(key).digest().readUInt32BE(0);
    return demoAccount(36_000_000 + (h % 10_000_000), 1);
  }
  if (key === "demo-can-trade")
    return { ...demoAccount(35000002, 1), restrictions: { ...READ_ONLY, enableSpotAndMarginTrading: true } };
  if (key === "demo-can-withdraw")
    return {
      ...demoAccount(35000003, 1),
      restrictions: { ...READ_ONLY, enableSpotAndMarginTrading: true, enableWithdrawals: true },
    };
  return "unknown";
}

// ---------------------------------------------------------------------------------------------
// The exchange's state: weights, bans, secrets learned, per-key behaviours

const secrets = new Map<string, string>();
const weight = { minute: 0, used: 0 };
const bans = { until: 0, warnedUntil: 0 };
const WEIGHT_LIMIT = 6000;
const banScript = new Map<string, number>();
const SKEW_MS = 30_000;

function binanceError(status: number, code: number, msg: string, headers: Record<string, string> = {}) {
  return HttpResponse.json({ code, msg }, { status, headers });
}

/** Counts a request's weight; a 429, then 418 bans, past the limit or for a client that goes on. */
function spend(w: number): Response | Record<string, string> {
  const now = Date.now();
  const minute = Math.floor(now / 60_000);
  if (minute !== weight.minute) Object.assign(weight, { minute, used: 0 });
  if (now < bans.until)
    return binanceError(418, -1003, "Way too many requests; IP banned.", {
      "Retry-After": String(Math.ceil((bans.until - now) / 1000)),
    });
  if (now < bans.warnedUntil) {
    // Asked again before the Retry-After of a 429 ran out: banned.
    bans.until = now + 120_000;
    return binanceError(418, -1003, "Way too many requests; IP banned.", { "Retry-After": "120" });
  }
  weight.used += w;
  if (weight.used > WEIGHT_LIMIT) {
    bans.warnedUntil = now + 10_000;
    return binanceError(429, -1003, "Too much request weight used.", { "Retry-After": "10" });
  }
  return { "X-MBX-USED-WEIGHT-1M": String(weight.used) };
}

/** The signed request's checks, in Binance's order: key, signature, timestamp. */
function signed(
  request: Request,
  w: number,
): { account: Account; key: string; headers: Record<string, string> } | Response {
  const spent = spend(w);
  if (spent instanceof Response) return spent;
  const key = request.headers.get("x-mbx-apikey") ?? "";
  if (!key) return binanceError(401, -2014, "API-key format invalid.");
  const account = accountOf(key);
  if (account === "unknown") return binanceError(401, -2015, "Invalid API-key, IP, or permissions for action.");
  const url = new URL(request.url);
  const raw = url.search.slice(1);
  const at = raw.lastIndexOf("&signature=");
  if (at < 0) return binanceError(400, -1102, "Mandatory parameter 'signature' was not sent.");
  const payload = raw.slice(0, at);
  const signature = raw.slice(at + "&signature=".length);
  // A signature is checkable only with its secret: the secret a test set (setBinanceSecret), else
  // (the demo keys take any secret) only its form, a hex HMAC-SHA256.
  const known = secrets.get(key);
  const valid =
    known !== undefined
      ? crypto.createHmac("sha256", known).update(payload).digest("hex") === signature
      : /^[0-9a-f]{64}$/.test(signature);
  if (!valid) return binanceError(400, -1022, "Signature for this request is not valid.");
  const timestamp = Number(url.searchParams.get("timestamp"));
  const recvWindow = Number(url.searchParams.get("recvWindow") ?? 5000);
  if (!(recvWindow > 0 && recvWindow <= 60_000)) return binanceError(400, -1131, "recvWindow must be less than 60000");
  const serverTime = Date.now() + (key.startsWith("sim-clock-skew") ? SKEW_MS : 0);
  if (!(timestamp < serverTime + 1000 && serverTime - timestamp <= recvWindow))
    return binanceError(400, -1021, "Timestamp for this request is outside of the recvWindow.");
  return { account, key, headers: spent };
}

/** Tests in this process: the secret a key must be signed with from now on. */
export function setBinanceSecret(key: string, secret: string) {
  secrets.set(key, secret);
}

/** The history calls of sim-revoked-later and sim-ban behave as their names say. */
function historyCall(key: string): Response | null {
  if (key.startsWith("sim-revoked-later"))
    return binanceError(401, -2015, "Invalid API-key, IP, or permissions for action.");
  if (key.startsWith("sim-ban")) {
    const n = banScript.get(key) ?? 0;
    banScript.set(key, n + 1);
    if (n === 0) return binanceError(429, -1003, "Too much request weight used.", { "Retry-After": "1" });
    if (n === 1) return binanceError(418, -1003, "Way too many requests; IP banned.", { "Retry-After": "1" });
  }
  return null;
}

function window(url: URL, maxMs: number, inclusive: boolean): Response | { start: number; end: number } {
  const end = Number(url.searchParams.get("endTime") ?? Date.now());
  const start = Number(url.searchParams.get("startTime") ?? end - maxMs);
  const span = end - start;
  if (span < 0 || (inclusive ? span > maxMs : span >= maxMs))
    return binanceError(400, -1127, `More than ${Math.round(maxMs / DAY)} days between startTime and endTime.`);
  return { start, end };
}

// ---------------------------------------------------------------------------------------------
// exchangeInfo: the markets of the demo histories, in the shape ccxt's loadMarkets reads.

const MARKETS: [string, string, string][] = [
  ["BTCUSDT", "BTC", "USDT"],
  ["ETHUSDT", "ETH", "USDT"],
  ["BNBUSDT", "BNB", "USDT"],
  ["SOLUSDT", "SOL", "USDT"],
  ["ETHBTC", "ETH", "BTC"],
  ["BTCEUR", "BTC", "EUR"],
  ["BNBBTC", "BNB", "BTC"],
  ["USDCUSDT", "USDC", "USDT"],
];

function exchangeInfo() {
  return {
    timezone: "UTC",
    serverTime: Date.now(),
    rateLimits: [
      { rateLimitType: "REQUEST_WEIGHT", interval: "MINUTE", intervalNum: 1, limit: WEIGHT_LIMIT },
      { rateLimitType: "ORDERS", interval: "SECOND", intervalNum: 10, limit: 100 },
    ],
    exchangeFilters: [],
    symbols: MARKETS.map(([symbol, baseAsset, quoteAsset]) => ({
      symbol,
      status: "TRADING",
      baseAsset,
      baseAssetPrecision: 8,
      quoteAsset,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      baseCommissionPrecision: 8,
      quoteCommissionPrecision: 8,
      orderTypes: ["LIMIT", "MARKET"],
      icebergAllowed: true,
      ocoAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.01", maxPrice: "1000000", tickSize: "0.01" },
        { filterType: "LOT_SIZE", minQty: "0.00001", maxQty: "9000", stepSize: "0.00001" },
      ],
      permissions: [],
      permissionSets: [["SPOT"]],
      defaultSelfTradePreventionMode: "EXPIRE_MAKER",
      allowedSelfTradePreventionModes: ["EXPIRE_MAKER"],
    })),
  };
}

const url = (path: string) => `${DEMO_BINANCE_URL}${path}`;

export function binanceHandlers() {
  return [
    http.get(url("/api/v3/time"), async () => {
      await simDelay(30);
      // Only a client told its clock is off asks (sim-clock-skew's): the skewed exchange's time.
      return HttpResponse.json({ serverTime: Date.now() + SKEW_MS });
    }),
    http.get(url("/api/v3/ping"), () => HttpResponse.json({})),
    http.get(url("/api/v3/exchangeInfo"), async () => {
      const spent = spend(20);
      if (spent instanceof Response) return spent;
      await simDelay(80);
      return HttpResponse.json(exchangeInfo(), { headers: spent });
    }),
    http.get(url("/sapi/v1/account/apiRestrictions"), async ({ request }) => {
      const s = signed(request, 1);
      if (s instanceof Response) return s;
      await simDelay(60);
      return HttpResponse.json(s.account.restrictions, { headers: s.headers });
    }),
    http.get(url("/api/v3/account"), async ({ request }) => {
      const s = signed(request, 20);
      if (s instanceof Response) return s;
      await simDelay(60);
      return HttpResponse.json(
        {
          makerCommission: 10,
          takerCommission: 10,
          canTrade: s.account.restrictions.enableSpotAndMarginTrading === true,
          canWithdraw: s.account.restrictions.enableWithdrawals === true,
          canDeposit: true,
          brokered: false,
          requireSelfTradePrevention: false,
          preventSor: false,
          updateTime: Date.now(),
          accountType: "SPOT",
          balances: s.account.balances,
          permissions: ["SPOT"],
          uid: s.account.uid,
        },
        { headers: s.headers },
      );
    }),
    http.get(url("/api/v3/myTrades"), async ({ request }) => {
      const s = signed(request, 20);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      const q = new URL(request.url).searchParams;
      const symbol = q.get("symbol");
      if (!symbol) return binanceError(400, -1102, "Mandatory parameter 'symbol' was not sent.");
      if (!MARKETS.some(([m]) => m === symbol)) return binanceError(400, -1121, "Invalid symbol.");
      const limit = Math.min(1000, Number(q.get("limit") ?? 500));
      let rows = s.account.trades.filter((t) => t.symbol === symbol);
      const fromId = q.get("fromId");
      if (q.has("startTime") && q.has("endTime")) {
        const start = Number(q.get("startTime"));
        const end = Number(q.get("endTime"));
        if (end - start > DAY) return binanceError(400, -1127, "More than 24 hours between startTime and endTime.");
        if (fromId !== null) return binanceError(400, -1128, "Combination of optional parameters invalid.");
        rows = rows.filter((t) => t.time >= start && t.time <= end);
      } else if (q.has("startTime") || q.has("endTime")) {
        const start = q.has("startTime") ? Number(q.get("startTime")) : Number(q.get("endTime")) - DAY;
        rows = rows.filter((t) => t.time >= start && t.time <= start + DAY);
      } else if (fromId !== null) rows = rows.filter((t) => t.id >= Number(fromId));
      else rows = rows.slice(-limit);
      await simDelay(70);
      return HttpResponse.json(rows.slice(0, limit), { headers: s.headers });
    }),
    http.get(url("/sapi/v1/capital/deposit/hisrec"), async ({ request }) => {
      const s = signed(request, 1);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      const u = new URL(request.url);
      const w = window(u, 90 * DAY, false);
      if (w instanceof Response) return w;
      const offset = Number(u.searchParams.get("offset") ?? 0);
      const limit = Math.min(1000, Number(u.searchParams.get("limit") ?? 1000));
      const rows = s.account.deposits.filter(
        (d) => (d.insertTime as number) >= w.start && (d.insertTime as number) <= w.end,
      );
      await simDelay(50);
      return HttpResponse.json(rows.slice(offset, offset + limit), { headers: s.headers });
    }),
    http.get(url("/sapi/v1/capital/withdraw/history"), async ({ request }) => {
      const s = signed(request, 1);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      const u = new URL(request.url);
      const w = window(u, 90 * DAY, false);
      if (w instanceof Response) return w;
      const offset = Number(u.searchParams.get("offset") ?? 0);
      const limit = Math.min(1000, Number(u.searchParams.get("limit") ?? 1000));
      const at = (d: Record<string, unknown>) => Date.parse(String(d.applyTime).replace(" ", "T") + "Z");
      const rows = s.account.withdrawals.filter((d) => at(d) >= w.start && at(d) <= w.end);
      await simDelay(50);
      return HttpResponse.json(rows.slice(offset, offset + limit), { headers: s.headers });
    }),
    http.get(url("/sapi/v1/convert/tradeFlow"), async ({ request }) => {
      const s = signed(request, 1);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      const u = new URL(request.url);
      if (!u.searchParams.has("startTime") || !u.searchParams.has("endTime"))
        return binanceError(400, -1102, "Mandatory parameter 'startTime' was not sent.");
      const w = window(u, 30 * DAY, true);
      if (w instanceof Response) return w;
      const limit = Math.min(1000, Number(u.searchParams.get("limit") ?? 100));
      const rows = s.account.converts.filter(
        (c) => (c.createTime as number) >= w.start && (c.createTime as number) <= w.end,
      );
      await simDelay(50);
      return HttpResponse.json(
        { list: rows.slice(0, limit), startTime: w.start, endTime: w.end, limit, moreData: rows.length > limit },
        { headers: s.headers },
      );
    }),
    http.get(url("/sapi/v1/asset/dribblet"), async ({ request }) => {
      const s = signed(request, 1);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key);
      if (refused) return refused;
      await simDelay(50);
      const rows = s.account.dust.slice(-100);
      return HttpResponse.json({ total: rows.length, userAssetDribblets: rows }, { headers: s.headers });
    }),
    // Anything else of Binance's: an honest "not simulated", never the real exchange.
    http.all(url("/*"), () => binanceError(404, -1000, "Not simulated.")),
  ];
}
