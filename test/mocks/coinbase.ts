import crypto from "node:crypto";
import { computeAddress } from "ethers";
import { http, HttpResponse } from "msw";
import { DEMO_COINBASE_URL } from "../../app/sources/wallet-demo";
import { EVM_SCENARIO_KEY } from "./evm";
import { simDelay } from "./sim-delay";

/**
 * A simulator of Coinbase's Advanced Trade REST API (v3) as ccxt calls it (PROVIDERS.md §8), for
 * demo mode and tests. Every private call carries `Authorization: Bearer <JWT>` signed with the CDP
 * key's secret (ES256 or EdDSA); the simulator checks its header (`kid` = the key name), its claims
 * (`sub` = the key name, `nbf`/`exp` at most 120 s apart and around now, `uri`/`uris` = this
 * request's method, host and path) and its signature (with the public key a test registered, else
 * its form: 64 bytes), answering 401 "Unauthorized" otherwise, as Coinbase does. Over 30 requests
 * in a second for one key: 429 `rate_limit_exceeded`. Fills come newest first, at most 100 a page,
 * with an opaque `cursor` ("" on the last page), below `end_sequence_timestamp`. The v2 (Coinbase
 * App) side: `GET /v2/accounts` (one wallet per currency) and `GET /v2/accounts/:id/transactions`,
 * newest first, `limit` 1–100 (default 25), paged by `starting_after` (the last row's id) with
 * `pagination.next_starting_after` / `next_uri` as Coinbase answers; every fill is there too as an
 * `advanced_trade_fill` on both of its accounts, beside the deposits, withdrawals, the convert and
 * the staking reward below.
 *
 * Keys (any secret ccxt can sign with, unless a test registered its public key):
 *   demo-read-only            the demo year (DEMO_COINBASE below), portfolio DEMO_COINBASE_PORTFOLIO
 *   demo-read-only-<anything> another demo portfolio: its own id, the same history
 *   demo-can-trade            a key with the Trade permission
 *   demo-can-withdraw         a key with Trade and Transfer
 *   sim-revoked-later         links, then every history call answers 401
 *   sim-rate                  its first history call answers 429
 * (a sim-… key may have any suffix; an organizations/…/apiKeys/<name> key is <name>.) Any other
 * key: 401.
 */

const DAY = 86_400_000;
export const DEMO_COINBASE_START = Date.UTC(2025, 11, 1);
export const DEMO_COINBASE_PORTFOLIO = "8d6a2f0c-4b1e-4c57-9a39-2f3b5e0c0001";

/**
 * The demo year, small enough to compute by hand: twelve monthly BTC-USD round trips of 0.01 BTC
 * (bought at 60,000 + 1,000 m, sold 2,500 higher, or 2,000 lower every third month), 52 weekly ETH-USD
 * buys of 0.01 ETH, 26 SOL-USDC buys of 50 USDC (sized in the quote), one ETH-BTC sale of 0.05 ETH
 * after the last BTC sale, one BTC-EUR buy (no USD price: counted); commission 0.6 % in the quote.
 * Realized on BTC: 0.01 × (8 × 2,500 − 4 × 2,000) = 120 USD.
 */
export const DEMO_COINBASE = {
  roundTrips: Array.from({ length: 12 }, (_, m) => {
    const buy = 60_000 + 1_000 * m;
    return {
      buyTime: DEMO_COINBASE_START + m * 28 * DAY + 9 * 3_600_000,
      sellTime: DEMO_COINBASE_START + (m * 28 + 10) * DAY + 16 * 3_600_000,
      qty: 0.01,
      buy,
      sell: buy + (m % 3 === 2 ? -2_000 : 2_500),
    };
  }),
  eth: Array.from({ length: 52 }, (_, w) => ({
    time: DEMO_COINBASE_START + (7 * w + 2) * DAY,
    qty: 0.01,
    price: 3_000 + 10 * w,
  })),
  sol: Array.from({ length: 26 }, (_, k) => ({
    time: DEMO_COINBASE_START + (14 * k + 5) * DAY,
    usdc: 50,
    price: 150 + k,
  })),
  ethBtc: { time: DEMO_COINBASE_START + 350 * DAY, qty: 0.05, price: 0.04 },
  eurTrade: { time: DEMO_COINBASE_START + 100 * DAY, qty: 0.001, price: 58_000 },
  commissionRate: 0.006,
  realizedUsd: 120,
  /** 10,000 USD from the bank (fiat_deposit), an hour into the year: a cash flow. */
  fiatDeposit: { time: DEMO_COINBASE_START + 3_600_000, usd: 10_000 },
  /**
   * Day 60: 0.05 ETH converted to 155 USDC (a `trade` pair). The ETH sold is FIFO's first five
   * weekly lots (3,000 … 3,040, 0.01 each: cost 0.01 × 15,100 = 151), so the convert realizes 155 − 151 = 4 USD.
   */
  convert: { time: DEMO_COINBASE_START + 60 * DAY + 12 * 3_600_000, eth: 0.05, usdc: 155, realizedUsd: 4 },
  /** Day 100: 0.002 ETH of staking reward (staking_reward): income worth 0.002 ETH then. */
  reward: { time: DEMO_COINBASE_START + 100 * DAY + 3_600_000, eth: 0.002 },
  /** Day 120: 0.5 ETH received from the scenario wallet's address (EVM_SCENARIO_KEY), on chain. */
  deposit: {
    time: DEMO_COINBASE_START + 120 * DAY,
    eth: 0.5,
    from: computeAddress(EVM_SCENARIO_KEY).toLowerCase(),
    hash: `0x${crypto.createHash("sha256").update("coinbase-demo-deposit").digest("hex")}`,
  },
  /** Day 250: 0.1 ETH sent out to an address of no linked wallet, 0.0005 ETH network fee on top. */
  withdrawal: {
    time: DEMO_COINBASE_START + 250 * DAY,
    eth: 0.1,
    fee: 0.0005,
    to: "0x1111111111111111111111111111111111111111",
    hash: `0x${crypto.createHash("sha256").update("coinbase-demo-withdrawal").digest("hex")}`,
  },
};

type Money = { amount: string; currency: string };
type V2Account = { id: string; currency: string };
type V2Tx = Record<string, unknown> & { id: string; created_at: string; amount: Money };

type Fill = Record<string, unknown> & { entry_id: string; sequence_timestamp: string };
type Account = {
  portfolio: string;
  can_trade: boolean;
  can_transfer: boolean;
  fills: Fill[];
  /** v2: one wallet per currency, and each wallet's transactions, newest first. */
  wallets: V2Account[];
  transactions: Map<string, V2Tx[]>;
};

const fmt = (n: number) => n.toFixed(10).replace(/\.?0+$/, "");
const uuid = (seed: string) => {
  const h = crypto.createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

function demoAccount(portfolio: string, can_trade = false, can_transfer = false): Account {
  const d = DEMO_COINBASE;
  const fills: Fill[] = [];
  const fill = (product: string, time: number, side: "BUY" | "SELL", qty: number, price: number, inQuote = false) => {
    const n = fills.length;
    const iso = new Date(time).toISOString();
    fills.push({
      entry_id: uuid(`${portfolio}:e:${n}`),
      trade_id: uuid(`${portfolio}:t:${n}`),
      order_id: uuid(`${portfolio}:o:${n}`),
      trade_time: iso,
      trade_type: "FILL",
      price: fmt(price),
      size: fmt(inQuote ? qty * price : qty),
      commission: fmt(qty * price * d.commissionRate),
      product_id: product,
      sequence_timestamp: iso,
      liquidity_indicator: n % 2 ? "MAKER" : "TAKER",
      size_in_quote: inQuote,
      user_id: uuid(`${portfolio}:user`),
      side,
      retail_portfolio_id: portfolio,
    });
  };
  for (const r of d.roundTrips) {
    fill("BTC-USD", r.buyTime, "BUY", r.qty, r.buy);
    fill("BTC-USD", r.sellTime, "SELL", r.qty, r.sell);
  }
  for (const e of d.eth) fill("ETH-USD", e.time, "BUY", e.qty, e.price);
  for (const s of d.sol) fill("SOL-USDC", s.time, "BUY", s.usdc / s.price, s.price, true);
  fill("ETH-BTC", d.ethBtc.time, "SELL", d.ethBtc.qty, d.ethBtc.price);
  fill("BTC-EUR", d.eurTrade.time, "BUY", d.eurTrade.qty, d.eurTrade.price);
  fills.sort((a, b) => (a.sequence_timestamp < b.sequence_timestamp ? 1 : -1));
  const { wallets, transactions } = v2History(portfolio, fills);
  return { portfolio, can_trade, can_transfer, fills, wallets, transactions };
}

/** The v2 side of a demo account: its wallets and their transactions (the fills among them). */
function v2History(portfolio: string, fills: Fill[]): Pick<Account, "wallets" | "transactions"> {
  const d = DEMO_COINBASE;
  const currencies = ["USD", "USDC", "BTC", "ETH", "SOL", "EUR"];
  const wallets = currencies.map((currency) => ({ id: uuid(`${portfolio}:wallet:${currency}`), currency }));
  const walletOf = (currency: string) => wallets.find((w) => w.currency === currency)!;
  const transactions = new Map<string, V2Tx[]>(wallets.map((w) => [w.id, []]));
  let n = 0;
  const add = (currency: string, type: string, time: number, amount: number, extra: Record<string, unknown> = {}) => {
    const wallet = walletOf(currency);
    const id = uuid(`${portfolio}:tx:${n++}`);
    const iso = new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
    transactions.get(wallet.id)!.push({
      id,
      type,
      status: "completed",
      amount: { amount: fmt(amount), currency },
      native_amount: { amount: "0.00", currency: "USD" },
      description: null,
      created_at: iso,
      updated_at: iso,
      resource: "transaction",
      resource_path: `/v2/accounts/${wallet.id}/transactions/${id}`,
      ...extra,
    });
  };
  // Each fill on both of its wallets, as Coinbase lists them (advanced_trade_fill).
  for (const f of fills) {
    const [base, quote] = String(f.product_id).split("-") as [string, string];
    const price = Number(f.price);
    const qty = f.size_in_quote ? Number(f.size) / price : Number(f.size);
    const sign = f.side === "BUY" ? 1 : -1;
    const time = Date.parse(f.sequence_timestamp);
    const fill = { advanced_trade_fill: { fill_price: f.price, product_id: f.product_id, order_id: f.order_id } };
    add(base, "advanced_trade_fill", time, sign * qty, fill);
    add(quote, "advanced_trade_fill", time, -sign * qty * price - Number(f.commission), fill);
  }
  add("USD", "fiat_deposit", d.fiatDeposit.time, d.fiatDeposit.usd, {
    fiat_deposit: { id: uuid(`${portfolio}:fiat`), resource: "fiat_deposit" },
    details: { title: "Deposited funds", subtitle: "From ACH Transfer" },
  });
  const trade = { id: uuid(`${portfolio}:convert`), resource: "trade" };
  add("ETH", "trade", d.convert.time, -d.convert.eth, { trade });
  add("USDC", "trade", d.convert.time, d.convert.usdc, { trade });
  add("ETH", "staking_reward", d.reward.time, d.reward.eth, {
    details: { title: "Staking income", subtitle: "From Coinbase" },
  });
  add("ETH", "send", d.deposit.time, d.deposit.eth, {
    network: { status: "confirmed", hash: d.deposit.hash, network_name: "ethereum" },
    from: { resource: "ethereum_address", address: d.deposit.from, currency: "ETH" },
  });
  add("ETH", "send", d.withdrawal.time, -(d.withdrawal.eth + d.withdrawal.fee), {
    network: {
      status: "confirmed",
      hash: d.withdrawal.hash,
      network_name: "ethereum",
      transaction_fee: { amount: fmt(d.withdrawal.fee), currency: "ETH" },
      transaction_amount: { amount: fmt(d.withdrawal.eth), currency: "ETH" },
    },
    to: { resource: "ethereum_address", address: d.withdrawal.to, currency: "ETH" },
  });
  for (const rows of transactions.values()) rows.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  return { wallets, transactions };
}

/** A v2 list's page: newest first, `starting_after` the last row's id of the page before. */
function v2Page<T extends { id: string }>(request: Request, rows: T[], path: string): Response {
  const q = new URL(request.url).searchParams;
  const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 25) || 25));
  const after = q.get("starting_after");
  let from = 0;
  if (after) {
    const i = rows.findIndex((r) => r.id === after);
    if (i < 0)
      return HttpResponse.json(
        { errors: [{ id: "invalid_request", message: "starting_after is not valid" }] },
        { status: 400 },
      );
    from = i + 1;
  }
  const data = rows.slice(from, from + limit);
  const next = from + limit < rows.length ? data[data.length - 1]!.id : null;
  return HttpResponse.json({
    pagination: {
      ending_before: null,
      starting_after: after,
      previous_ending_before: null,
      next_starting_after: next,
      limit,
      order: "desc",
      previous_uri: null,
      next_uri: next ? `${path}?limit=${limit}&starting_after=${next}` : null,
    },
    data,
  });
}

function accountOf(keyName: string): Account | null {
  const key = keyName.replace(/^organizations\/[^/]+\/apiKeys\//, "");
  if (key === "demo-read-only") return demoAccount(DEMO_COINBASE_PORTFOLIO);
  if (key.startsWith("demo-read-only-") || key.startsWith("sim-")) return demoAccount(uuid(`portfolio:${key}`));
  if (key === "demo-can-trade") return demoAccount(uuid(`portfolio:${key}`), true);
  if (key === "demo-can-withdraw") return demoAccount(uuid(`portfolio:${key}`), true, true);
  return null;
}

// ---------------------------------------------------------------------------------------------
// The exchange's state: public keys registered, request counts, per-key behaviours

const publicKeys = new Map<string, crypto.KeyObject>();
const perSecond = new Map<string, { second: number; count: number }>();
const scripted = new Set<string>();

/** Tests in this process: the public key a key's JWTs must verify with from now on. */
export function setCoinbasePublicKey(keyName: string, publicKey: crypto.KeyObject) {
  publicKeys.set(keyName, publicKey);
}

const unauthorized = () =>
  new HttpResponse("Unauthorized\n", { status: 401, headers: { "content-type": "text/plain" } });
const tooMany = () =>
  HttpResponse.json({ errors: [{ id: "rate_limit_exceeded", message: "Too many requests" }] }, { status: 429 });

function decode(part: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The JWT's checks, then the per-second limit. */
function authorized(request: Request): { account: Account; key: string } | Response {
  const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  const parts = token?.split(".");
  if (!parts || parts.length !== 3) return unauthorized();
  const [h, p, s] = parts as [string, string, string];
  const header = decode(h);
  const claims = decode(p);
  if (!header || !claims || typeof header.kid !== "string" || claims.sub !== header.kid) return unauthorized();
  const key = header.kid;
  const account = accountOf(key);
  if (!account) return unauthorized();
  const now = Math.floor(Date.now() / 1000);
  const nbf = Number(claims.nbf);
  const exp = Number(claims.exp);
  if (!(exp - nbf <= 120 && nbf <= now + 5 && exp > now)) return unauthorized();
  const url = new URL(request.url);
  const uri = `${request.method} ${url.host}${url.pathname}`;
  const said = typeof claims.uri === "string" ? claims.uri : Array.isArray(claims.uris) ? claims.uris[0] : undefined;
  if (said !== uri) return unauthorized();
  const signature = Buffer.from(s, "base64url");
  const publicKey = publicKeys.get(key);
  const valid = publicKey
    ? crypto.verify(
        header.alg === "EdDSA" ? null : "sha256",
        Buffer.from(`${h}.${p}`),
        header.alg === "EdDSA" ? publicKey : { key: publicKey, dsaEncoding: "ieee-p1363" },
        signature,
      )
    : (header.alg === "ES256" || header.alg === "EdDSA") && signature.length === 64;
  if (!valid) return unauthorized();
  const second = Math.floor(Date.now() / 1000);
  const c = perSecond.get(key);
  const count = c && c.second === second ? c.count + 1 : 1;
  perSecond.set(key, { second, count });
  if (count > 30) return tooMany();
  return { account, key };
}

function historyCall(key: string): Response | null {
  const bare = key.replace(/^organizations\/[^/]+\/apiKeys\//, "");
  if (bare.startsWith("sim-revoked-later")) return unauthorized();
  if (bare.startsWith("sim-rate") && !scripted.has(key)) {
    scripted.add(key);
    return tooMany();
  }
  return null;
}

const url = (path: string) => `${DEMO_COINBASE_URL}${path}`;

export function coinbaseHandlers() {
  return [
    http.get(url("/api/v3/brokerage/time"), () => {
      const now = Date.now();
      return HttpResponse.json({
        iso: new Date(now).toISOString(),
        epochSeconds: String(Math.floor(now / 1000)),
        epochMillis: String(now),
      });
    }),
    http.get(url("/api/v3/brokerage/key_permissions"), async ({ request }) => {
      const a = authorized(request);
      if (a instanceof Response) return a;
      await simDelay(60);
      return HttpResponse.json({
        can_view: true,
        can_trade: a.account.can_trade,
        can_transfer: a.account.can_transfer,
        portfolio_uuid: a.account.portfolio,
        portfolio_type: "DEFAULT",
      });
    }),
    http.get(url("/api/v3/brokerage/orders/historical/fills"), async ({ request }) => {
      const a = authorized(request);
      if (a instanceof Response) return a;
      const refused = historyCall(a.key);
      if (refused) return refused;
      const q = new URL(request.url).searchParams;
      const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 100)));
      const end = q.get("end_sequence_timestamp");
      const start = q.get("start_sequence_timestamp");
      const rows = a.account.fills.filter(
        (f) =>
          (!end || Date.parse(f.sequence_timestamp) <= Date.parse(end)) &&
          (!start || Date.parse(f.sequence_timestamp) >= Date.parse(start)),
      );
      const cursor = q.get("cursor");
      const offset = cursor ? Number(Buffer.from(cursor, "base64url").toString("utf8").split(":")[1]) : 0;
      if (cursor && !Number.isFinite(offset))
        return HttpResponse.json({ error: "INVALID_ARGUMENT", message: "invalid cursor" }, { status: 400 });
      const page = rows.slice(offset, offset + limit);
      const next = offset + limit < rows.length ? Buffer.from(`fills:${offset + limit}`).toString("base64url") : "";
      await simDelay(80);
      return HttpResponse.json({ fills: page, cursor: next });
    }),
    http.get(url("/v2/accounts"), async ({ request }) => {
      const a = authorized(request);
      if (a instanceof Response) return a;
      const refused = historyCall(a.key);
      if (refused) return refused;
      await simDelay(60);
      const rows = a.account.wallets.map((w) => ({
        id: w.id,
        name: `${w.currency} Wallet`,
        primary: w.currency === "BTC",
        type: w.currency === "USD" || w.currency === "EUR" ? "fiat" : "wallet",
        currency: {
          code: w.currency,
          name: w.currency,
          type: w.currency === "USD" || w.currency === "EUR" ? "fiat" : "crypto",
        },
        balance: { amount: "0", currency: w.currency },
        created_at: new Date(DEMO_COINBASE_START - DAY).toISOString(),
        updated_at: new Date(DEMO_COINBASE_START - DAY).toISOString(),
        resource: "account",
        resource_path: `/v2/accounts/${w.id}`,
      }));
      return v2Page(request, rows, "/v2/accounts");
    }),
    http.get(url("/v2/accounts/:account/transactions"), async ({ request, params }) => {
      const a = authorized(request);
      if (a instanceof Response) return a;
      const refused = historyCall(a.key);
      if (refused) return refused;
      const rows = a.account.transactions.get(String(params.account));
      if (!rows) return HttpResponse.json({ errors: [{ id: "not_found", message: "Not found" }] }, { status: 404 });
      await simDelay(80);
      return v2Page(request, rows, `/v2/accounts/${String(params.account)}/transactions`);
    }),
    // Anything else of Coinbase's: an honest "not simulated", never the real exchange.
    http.all(url("/*"), () => HttpResponse.json({ error: "NOT_FOUND", message: "Not simulated." }, { status: 404 })),
  ];
}
