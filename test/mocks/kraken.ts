import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import { DEMO_KRAKEN_URL } from "../../app/sources/wallet-demo";
import { simDelay } from "./sim-delay";

/**
 * A simulator of Kraken's spot REST API as ccxt calls it (PROVIDERS.md §9), for demo mode and
 * tests. Private calls are POSTs to /0/private/<Method>, form-encoded with a `nonce`; they check the
 * key (API-Key: "EAPI:Invalid key"), the signature (API-Sign, base64 HMAC-SHA512 of path +
 * SHA256(nonce + body) under the base64-decoded secret: "EAPI:Invalid signature"), the nonce (above
 * the last accepted for the key: "EAPI:Invalid nonce") and the call-rate counter (Starter tier: at
 * most 15, decaying 0.33 a second; TradesHistory and Ledgers +2, others +1: "EAPI:Rate limit
 * exceeded"). Kraken answers errors with HTTP 200 and `{"error":[…]}`. TradesHistory and Ledgers
 * return 50 rows a call, newest first, paged by `ofs`, with the `count` of all. DepositStatus and
 * WithdrawStatus (+1, "Funds permissions - Query") answer a plain list without `cursor`, and with
 * it (`true` first, then the `next_cursor` given) `{ deposit | withdrawals: […], next_cursor }`,
 * `limit` a page (25 here unless asked), newest first, each row's `refid` its ledger entry's.
 *
 * Keys (any secret in valid form, unless a test set one with setKrakenSecret):
 *   demo-read-only            the demo year (DEMO_KRAKEN below), account AA37 N84G WOAK DEMO
 *   demo-read-only-<anything> another demo account: its own id, the same history
 *   demo-can-trade            a key with Create & Modify Orders and Cancel & Close Orders
 *   demo-can-withdraw         a key with Withdraw Funds too
 *   sim-revoked-later         links (read-only), then every history call answers "EAPI:Invalid key"
 *   sim-rate                  another program spent the key's counter: the first history call
 *                             finds it full (and the counter decays as Kraken's does)
 *   sim-nonce                 the first history call finds a higher nonce already used
 * (a sim-… key may have any suffix: each its own account.) Any other key: "EAPI:Invalid key".
 */

const DAY = 86_400_000;
export const DEMO_KRAKEN_START = Date.UTC(2025, 11, 1);
export const DEMO_KRAKEN_ACCOUNT = "AA37 N84G WOAK DEMO";
const READ = ["query-funds", "query-open-trades", "query-closed-trades", "query-ledger"];
const TRADE = ["modify-orders", "cancel-close-orders"];

/**
 * The demo year, small enough to compute by hand: 10,000 USD and 100 EUR deposited; 26 BTC/USD
 * round trips of 0.02 BTC every two weeks (bought at 60,000 + 500 k, sold a week later, 1,500 a
 * BTC higher, or 1,000 lower every fourth), each fill paying 0.26% in USD; 1.5 ETH bought, 1 ETH
 * moved to staking and six monthly rewards of 0.002 ETH; 250 USD of Buy Crypto for 1.5 SOL; one
 * BTC/EUR fill (no USD price: counted); 0.4 ETH withdrawn with a 0.0035 ETH fee.
 * Realized on BTC: 0.02 × (20 × 1,500 − 6 × 1,000) = 480 USD.
 */
export const DEMO_KRAKEN = {
  roundTrips: Array.from({ length: 26 }, (_, k) => {
    const buy = 60_000 + 500 * k;
    return {
      buyTime: DEMO_KRAKEN_START + 14 * k * DAY + 10 * 3_600_000,
      sellTime: DEMO_KRAKEN_START + (14 * k + 7) * DAY + 15 * 3_600_000,
      qty: 0.02,
      buy,
      sell: buy + (k % 4 === 3 ? -1_000 : 1_500),
    };
  }),
  feeRate: 0.0026,
  deposit: { time: DEMO_KRAKEN_START + 3_600_000, amount: 10_000 },
  eurDeposit: { time: DEMO_KRAKEN_START + 90 * DAY, amount: 100 },
  eth: { time: DEMO_KRAKEN_START + 3 * DAY, qty: 1.5, price: 3_000 },
  staked: { time: DEMO_KRAKEN_START + 4 * DAY, qty: 1 },
  rewards: Array.from({ length: 6 }, (_, m) => ({ time: DEMO_KRAKEN_START + (m + 1) * 30 * DAY, qty: 0.002 })),
  buyCrypto: { time: DEMO_KRAKEN_START + 60 * DAY, usd: 250, sol: 1.5 },
  eurTrade: { time: DEMO_KRAKEN_START + 100 * DAY, qty: 0.001, price: 58_000 },
  withdrawal: {
    time: DEMO_KRAKEN_START + 250 * DAY,
    amount: 0.4,
    fee: 0.0035,
    /** Where the ETH went (WithdrawStatus `info`), and its chain hash. */
    to: "0x2222222222222222222222222222222222222222",
    txid: `0x${crypto.createHash("sha256").update("kraken-demo-withdrawal").digest("hex")}`,
  },
  realizedUsd: 480,
};

const fmt = (n: number, places = 8) => n.toFixed(places);
/** Kraken's ids: "TQ4D2K-5XR7Q-6ZK3WM" for fills, "L…" for ledger entries, "F…" / "Q…" refids. */
function krakenId(prefix: string, seed: string): string {
  const h = crypto
    .createHash("sha256")
    .update(seed)
    .digest("base64")
    .replace(/[^A-Z0-9]/g, "")
    .padEnd(20, "X");
  return `${prefix}${h.slice(0, 5)}-${h.slice(5, 10)}-${h.slice(10, 16)}`;
}

type Fill = Record<string, unknown> & { txid: string; time: number };
type Entry = Record<string, unknown> & { id: string; time: number };
/** A DepositStatus / WithdrawStatus row. */
type MoveStatus = Record<string, unknown> & { refid: string; time: number };
type Account = {
  iban: string;
  permissions: string[];
  fills: Fill[];
  ledger: Entry[];
  deposits: MoveStatus[];
  withdrawals: MoveStatus[];
};

const PAIRS: Record<string, { altname: string; wsname: string; base: string; quote: string }> = {
  XXBTZUSD: { altname: "XBTUSD", wsname: "XBT/USD", base: "XXBT", quote: "ZUSD" },
  XETHZUSD: { altname: "ETHUSD", wsname: "ETH/USD", base: "XETH", quote: "ZUSD" },
  XXBTZEUR: { altname: "XBTEUR", wsname: "XBT/EUR", base: "XXBT", quote: "ZEUR" },
  SOLUSD: { altname: "SOLUSD", wsname: "SOL/USD", base: "SOL", quote: "ZUSD" },
  XETHXXBT: { altname: "ETHXBT", wsname: "ETH/XBT", base: "XETH", quote: "XXBT" },
};

function demoAccount(iban: string, permissions: string[]): Account {
  const d = DEMO_KRAKEN;
  const fills: Fill[] = [];
  const ledger: Entry[] = [];
  const balances = new Map<string, number>();
  const entry = (
    time: number,
    type: string,
    subtype: string,
    asset: string,
    amount: number,
    fee = 0,
    refid?: string,
  ) => {
    balances.set(asset, (balances.get(asset) ?? 0) + amount - fee);
    ledger.push({
      id: krakenId("L", `${iban}:l:${ledger.length}`),
      refid: refid ?? krakenId("Q", `${iban}:r:${ledger.length}`),
      time: time / 1000,
      type,
      subtype,
      aclass: "currency",
      asset,
      amount: fmt(amount, asset.startsWith("Z") ? 4 : 10),
      fee: fmt(fee, asset.startsWith("Z") ? 4 : 10),
      balance: fmt(balances.get(asset)!, asset.startsWith("Z") ? 4 : 10),
    });
  };
  const fill = (pair: string, time: number, side: "buy" | "sell", qty: number, price: number) => {
    const txid = krakenId("T", `${iban}:t:${fills.length}`);
    const cost = qty * price;
    const fee = Math.round(cost * d.feeRate * 100) / 100;
    fills.push({
      txid,
      ordertxid: krakenId("O", `${iban}:o:${fills.length}`),
      postxid: krakenId("T", `${iban}:p:${fills.length}`),
      pair,
      time: time / 1000,
      type: side,
      ordertype: "limit",
      price: fmt(price, 1),
      cost: fmt(cost, 5),
      fee: fmt(fee, 5),
      vol: fmt(qty, 8),
      margin: "0.00000",
      leverage: "0",
      misc: "",
      trade_id: 40_000_000 + fills.length,
      maker: fills.length % 2 === 0,
    });
    const { base, quote } = PAIRS[pair]!;
    entry(time, "trade", "", base, side === "buy" ? qty : -qty, 0, txid);
    entry(time, "trade", "", quote, side === "buy" ? -cost : cost, fee, txid);
  };

  entry(d.deposit.time, "deposit", "", "ZUSD", d.deposit.amount);
  fill("XETHZUSD", d.eth.time, "buy", d.eth.qty, d.eth.price);
  const staking = krakenId("B", `${iban}:stake`);
  entry(d.staked.time, "transfer", "spottostaking", "XETH", -d.staked.qty, 0, staking);
  entry(d.staked.time + 60_000, "transfer", "stakingfromspot", "ETH.S", d.staked.qty, 0, staking);
  for (const r of d.roundTrips) {
    fill("XXBTZUSD", r.buyTime, "buy", r.qty, r.buy);
    fill("XXBTZUSD", r.sellTime, "sell", r.qty, r.sell);
  }
  for (const r of d.rewards) entry(r.time, "staking", "", "ETH.S", r.qty);
  const swap = krakenId("Q", `${iban}:buycrypto`);
  entry(d.buyCrypto.time, "spend", "", "ZUSD", -d.buyCrypto.usd, 0, swap);
  entry(d.buyCrypto.time, "receive", "", "SOL", d.buyCrypto.sol, 0, swap);
  entry(d.eurDeposit.time, "deposit", "", "ZEUR", d.eurDeposit.amount);
  fill("XXBTZEUR", d.eurTrade.time, "buy", d.eurTrade.qty, d.eurTrade.price);
  entry(d.withdrawal.time, "withdrawal", "", "XETH", -d.withdrawal.amount, d.withdrawal.fee);
  // Newest first, as Kraken answers.
  fills.sort((a, b) => b.time - a.time);
  ledger.sort((a, b) => b.time - a.time);
  // Each move's status row, under its ledger entry's refid: the fiat deposits by bank, the ETH on chain.
  const status = (e: Entry, extra: Record<string, unknown>): MoveStatus => ({
    aclass: "currency",
    asset: e.asset,
    refid: e.refid as string,
    amount: String(Math.abs(Number(e.amount))),
    fee: e.fee,
    time: Math.floor(e.time),
    status: "Success",
    ...extra,
  });
  const deposits = ledger
    .filter((e) => e.type === "deposit")
    .map((e) =>
      status(e, {
        method: e.asset === "ZEUR" ? "SEPA (Instant)" : "Bank Frick (SWIFT)",
        txid: krakenId("B", `${iban}:bank:${e.refid as string}`),
        info: "",
      }),
    );
  const withdrawals = ledger
    .filter((e) => e.type === "withdrawal")
    .map((e) => status(e, { method: "Ether", network: "Ethereum", txid: d.withdrawal.txid, info: d.withdrawal.to }));
  return { iban, permissions, fills, ledger, deposits, withdrawals };
}

function ibanOf(key: string): string {
  const h = crypto
    .createHash("sha256")
    .update(key)
    .digest("base64")
    .replace(/[^A-Z0-9]/g, "")
    .padEnd(16, "K");
  return `AA${h.slice(0, 2)} ${h.slice(2, 6)} ${h.slice(6, 10)} ${h.slice(10, 14)}`;
}

function accountOf(key: string): Account | null {
  if (key === "demo-read-only") return demoAccount(DEMO_KRAKEN_ACCOUNT, READ);
  if (key.startsWith("demo-read-only-") || key.startsWith("sim-")) return demoAccount(ibanOf(key), READ);
  if (key === "demo-can-trade") return demoAccount(ibanOf(key), [...READ, ...TRADE]);
  if (key === "demo-can-withdraw") return demoAccount(ibanOf(key), [...READ, ...TRADE, "withdraw-funds"]);
  return null;
}

// ---------------------------------------------------------------------------------------------
// The exchange's state: counters, nonces, secrets learned, per-key behaviours

const MAX_COUNTER = 15;
const DECAY_PER_SECOND = 0.33;
const counters = new Map<string, { value: number; at: number }>();
const nonces = new Map<string, bigint>();
const secrets = new Map<string, string>();
const scripted = new Set<string>();

/** Tests in this process: the secret (base64) a key must be signed with from now on. */
export function setKrakenSecret(key: string, secret: string) {
  secrets.set(key, secret);
}

const krakenError = (...error: string[]) => HttpResponse.json({ error });
const ok = (result: unknown) => HttpResponse.json({ error: [], result });

/** Spends `cost` on the key's counter, which decays since its last call; false past the maximum. */
function spend(key: string, cost: number): boolean {
  const now = Date.now();
  const c = counters.get(key) ?? { value: 0, at: now };
  const value = Math.max(0, c.value - ((now - c.at) / 1000) * DECAY_PER_SECOND);
  if (value + cost > MAX_COUNTER) {
    counters.set(key, { value, at: now });
    return false;
  }
  counters.set(key, { value: value + cost, at: now });
  return true;
}

/** The private call's checks, in Kraken's order: key, signature, nonce, counter. */
async function privateCall(
  request: Request,
  method: string,
  cost: number,
): Promise<{ account: Account; key: string; form: URLSearchParams } | Response> {
  const key = request.headers.get("api-key") ?? "";
  const sign = request.headers.get("api-sign") ?? "";
  const body = await request.text();
  const account = key ? accountOf(key) : null;
  if (!account) return krakenError("EAPI:Invalid key");
  const form = new URLSearchParams(body);
  const nonce = form.get("nonce") ?? "";
  if (!/^\d+$/.test(nonce)) return krakenError("EAPI:Invalid nonce");
  const known = secrets.get(key);
  const path = `/0/private/${method}`;
  const valid =
    known !== undefined
      ? crypto
          .createHmac("sha512", Buffer.from(known, "base64"))
          .update(
            Buffer.concat([
              Buffer.from(path),
              crypto
                .createHash("sha256")
                .update(nonce + body)
                .digest(),
            ]),
          )
          .digest("base64") === sign
      : /^[A-Za-z0-9+/]{86}==$/.test(sign);
  if (!valid) return krakenError("EAPI:Invalid signature");
  const last = nonces.get(key) ?? 0n;
  if (BigInt(nonce) <= last) return krakenError("EAPI:Invalid nonce");
  nonces.set(key, BigInt(nonce));
  if (!spend(key, cost)) return krakenError("EAPI:Rate limit exceeded");
  return { account, key, form };
}

/** The history calls of sim-revoked-later, sim-rate and sim-nonce behave as their names say. */
function historyCall(key: string, form: URLSearchParams): Response | null {
  if (key.startsWith("sim-revoked-later")) return krakenError("EAPI:Invalid key");
  if (key.startsWith("sim-rate") && !scripted.has(key)) {
    scripted.add(key);
    counters.set(key, { value: MAX_COUNTER, at: Date.now() });
    return krakenError("EAPI:Rate limit exceeded");
  }
  if (key.startsWith("sim-nonce") && !scripted.has(key)) {
    scripted.add(key);
    // Another program's call with a higher nonce got there first.
    nonces.set(key, BigInt(form.get("nonce")!) + 1n);
    return krakenError("EAPI:Invalid nonce");
  }
  return null;
}

/** A page of newest-first rows by `ofs`, within `start`/`end` (exclusive, unix seconds). */
function page<T extends { time: number }>(rows: T[], form: URLSearchParams): { rows: T[]; count: number } {
  const start = form.has("start") ? Number(form.get("start")) : -Infinity;
  const end = form.has("end") ? Number(form.get("end")) : Infinity;
  const within = rows.filter((r) => r.time > start && r.time < end);
  const ofs = Number(form.get("ofs") ?? 0);
  return { rows: within.slice(ofs, ofs + 50), count: within.length };
}

const url = (path: string) => `${DEMO_KRAKEN_URL}${path}`;

export function krakenHandlers() {
  return [
    http.get(url("/0/public/Time"), () => {
      const now = Date.now();
      return ok({ unixtime: Math.floor(now / 1000), rfc1123: new Date(now).toUTCString() });
    }),
    http.get(url("/0/public/AssetPairs"), async ({ request }) => {
      await simDelay(60);
      const asked = new URL(request.url).searchParams.get("pair");
      const names = asked ? asked.split(",") : Object.keys(PAIRS);
      const result: Record<string, unknown> = {};
      for (const name of names) {
        const found = Object.entries(PAIRS).find(([k, p]) => k === name || p.altname === name);
        if (!found) return krakenError("EQuery:Unknown asset pair");
        result[found[0]] = {
          ...found[1],
          aclass_base: "currency",
          aclass_quote: "currency",
          lot: "unit",
          pair_decimals: 1,
          lot_decimals: 8,
          status: "online",
        };
      }
      return ok(result);
    }),
    http.post(url("/0/private/GetApiKeyInfo"), async ({ request }) => {
      const s = await privateCall(request, "GetApiKeyInfo", 1);
      if (s instanceof Response) return s;
      await simDelay(60);
      return ok({
        apiKeyName: "grader",
        apiKey: s.key,
        nonce: String(nonces.get(s.key) ?? 0n),
        nonceWindow: 0,
        permissions: s.account.permissions,
        iban: s.account.iban,
        validUntil: "0",
        queryFrom: "0",
        queryTo: "0",
        createdTime: String(Math.floor(DEMO_KRAKEN_START / 1000) - 30 * 86_400),
        modifiedTime: String(Math.floor(DEMO_KRAKEN_START / 1000) - 30 * 86_400),
        ipAllowlist: [],
        lastUsed: String(Math.floor(Date.now() / 1000)),
      });
    }),
    http.post(url("/0/private/TradesHistory"), async ({ request }) => {
      const s = await privateCall(request, "TradesHistory", 2);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key, s.form);
      if (refused) return refused;
      if (!s.account.permissions.includes("query-closed-trades")) return krakenError("EGeneral:Permission denied");
      await simDelay(80);
      const { rows, count } = page(s.account.fills, s.form);
      return ok({ trades: Object.fromEntries(rows.map(({ txid, ...t }) => [txid, t])), count });
    }),
    http.post(url("/0/private/Ledgers"), async ({ request }) => {
      const s = await privateCall(request, "Ledgers", 2);
      if (s instanceof Response) return s;
      const refused = historyCall(s.key, s.form);
      if (refused) return refused;
      if (!s.account.permissions.includes("query-ledger")) return krakenError("EGeneral:Permission denied");
      await simDelay(80);
      const { rows, count } = page(s.account.ledger, s.form);
      return ok({ ledger: Object.fromEntries(rows.map(({ id, ...l }) => [id, l])), count });
    }),
    ...(["DepositStatus", "WithdrawStatus"] as const).map((method) =>
      http.post(url(`/0/private/${method}`), async ({ request }) => {
        const s = await privateCall(request, method, 1);
        if (s instanceof Response) return s;
        const refused = historyCall(s.key, s.form);
        if (refused) return refused;
        if (!s.account.permissions.includes("query-funds")) return krakenError("EGeneral:Permission denied");
        await simDelay(60);
        const start = s.form.has("start") ? Number(s.form.get("start")) : -Infinity;
        const end = s.form.has("end") ? Number(s.form.get("end")) : Infinity;
        const rows = (method === "DepositStatus" ? s.account.deposits : s.account.withdrawals)
          .filter((r) => r.time >= start && r.time <= end)
          .sort((a, b) => b.time - a.time);
        const cursor = s.form.get("cursor");
        if (cursor === null || cursor === "false") return ok(rows);
        let ofs = 0;
        if (cursor !== "true") {
          ofs = Number(Buffer.from(cursor, "base64").toString("utf8").replace(/^ofs:/, ""));
          if (!Number.isInteger(ofs) || ofs < 0) return krakenError("EGeneral:Invalid arguments:cursor");
        }
        const limit = Math.max(1, Number(s.form.get("limit") ?? 25) || 25);
        const list = rows.slice(ofs, ofs + limit);
        const next = ofs + limit < rows.length ? Buffer.from(`ofs:${ofs + limit}`).toString("base64") : null;
        return ok({ [method === "DepositStatus" ? "deposit" : "withdrawals"]: list, next_cursor: next });
      }),
    ),
    // Anything else of Kraken's: an honest "not simulated", never the real exchange.
    http.all(url("/*"), () => krakenError("EGeneral:Unknown method")),
  ];
}
