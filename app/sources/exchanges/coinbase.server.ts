import type { Exchange } from "ccxt";
import { EXCHANGE_VIEWS } from "~/lib/exchanges";
import type { ImportedCashFlow, ImportedEvent, ImportedTrade } from "../imported";
import {
  ccxtClient,
  rebase,
  type AssetPrice,
  type ExchangeEntry,
  type FetchedPage,
  type HistoryTask,
  type MappedExchange,
  type StoredPage,
} from "../exchange.server";
import { USD_STABLES } from "./binance.server";

// Coinbase Advanced Trade (PROVIDERS.md §8; docs/SOURCES.md "Coinbase"). A CDP key (its name
// "organizations/…/apiKeys/…" and an EC P-256 PEM or Ed25519 secret) signs a JWT per request
// (ccxt does it). One stream holds the trades: every fill of the key's portfolio, by cursor,
// under an end fixed at the import's start. Deposits, withdrawals, converts and rewards are not in
// Advanced Trade: they are the v2 accounts' transactions (`GET /v2/accounts`, then
// `GET /v2/accounts/:id/transactions` per account, 100 a call, newest first, paged by
// `pagination.next_starting_after`), one stream per account found (DECISIONS 218).

const FILLS_PER_CALL = 100;
/** v2 lists: `limit` 1–100 (default 25). */
const V2_PER_CALL = 100;
/** v2 transaction types that are a reward: income in kind. */
const REWARDS = new Set(["staking_reward", "inflation_reward", "interest", "earn_payout", "incentives_rewards_payout"]);
/**
 * v2 transaction types that change nothing the ledger reads: Advanced Trade's fills (read from
 * the fills stream) and moves between one's own Coinbase accounts (spot ↔ staked, portfolios).
 */
const OWN_MOVES = new Set(["advanced_trade_fill", "transfer", "staking_transfer", "unstaking_transfer"]);
/** 30 private requests a second per user: a 429 waits a second. */
const RATE_WAIT_SECONDS = 1;
const HELP = EXCHANGE_VIEWS.coinbase.readOnlyKeyHelp;

type Permissions = {
  can_view?: boolean;
  can_trade?: boolean;
  can_transfer?: boolean;
  portfolio_uuid?: string;
  portfolio_type?: string;
};
export type CoinbaseFill = {
  entry_id: string;
  trade_id: string;
  order_id: string;
  trade_time: string;
  trade_type: string;
  price: string;
  size: string;
  commission: string;
  product_id: string;
  sequence_timestamp: string;
  liquidity_indicator: string;
  size_in_quote: boolean;
  user_id: string;
  side: "BUY" | "SELL";
  retail_portfolio_id?: string;
};

type Money = { amount: string; currency: string };
/** A row of `GET /v2/accounts` (one wallet per currency). */
export type CoinbaseAccount = {
  id: string;
  name?: string;
  type?: string;
  currency: { code: string } | string;
  balance?: Money;
};
/** A row of `GET /v2/accounts/:id/transactions` (docs.cdp.coinbase.com "Transactions"). */
export type CoinbaseTransaction = {
  id: string;
  type: string;
  status: string;
  /** Positive a credit, negative a debit, in the account's currency. */
  amount: Money;
  native_amount?: Money;
  created_at: string;
  /** A crypto send's chain: its hash, and (outgoing) the fee on top of `transaction_amount`. */
  network?: { status?: string; hash?: string; transaction_fee?: Money; transaction_amount?: Money };
  to?: { resource?: string; address?: string; email?: string };
  from?: { resource?: string; address?: string; email?: string };
  /** A convert's two legs (one per account) share `trade.id`. */
  trade?: { id: string };
};

/** Read-only or not, from `GET /api/v3/brokerage/key_permissions` (pure; exported for tests). */
export function readCoinbasePermissions(
  p: Permissions,
): { permission: "trade" | "withdraw" | "read"; message: string } | null {
  if (p.can_transfer)
    return {
      permission: "withdraw",
      message: `This key can withdraw. Create a read-only key: ${HELP} (untick Transfer).`,
    };
  if (p.can_trade)
    return { permission: "trade", message: `This key can trade. Create a read-only key: ${HELP} (untick Trade).` };
  if (!p.can_view)
    return { permission: "read", message: `This key cannot read the account. Create a read-only key: ${HELP}` };
  return null;
}

/**
 * A PEM pasted into a one-line field arrives without its line breaks (or with them as "\\n"):
 * put them back, or the key cannot be read to sign.
 */
export function pemLines(secret: string): string {
  const text = secret.trim().replace(/\\n/g, "\n");
  const m = /^(-----BEGIN [A-Z ]+-----)\s*([A-Za-z0-9+/=\s]+?)\s*(-----END [A-Z ]+-----)$/.exec(text);
  if (!m || text.includes("\n")) return text;
  const body = m[2]!.replace(/\s+/g, "");
  return [m[1], ...(body.match(/.{1,64}/g) ?? []), m[3]].join("\n") + "\n";
}

type V2Page = { data?: unknown[]; pagination?: { next_starting_after?: string | null } };

async function fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
  if (task.stream === "accounts" || task.stream === "transactions") {
    const request = { limit: V2_PER_CALL, ...(task.cursor ? { starting_after: task.cursor } : {}) };
    const answer = (
      task.stream === "accounts"
        ? await client.v2PrivateGetAccounts(request)
        : await client.v2PrivateGetAccountsAccountIdTransactions({ account_id: task.symbol, ...request })
    ) as V2Page;
    const rows = answer.data ?? [];
    const cursor = answer.pagination?.next_starting_after;
    return { rows, next: rows.length && cursor ? { ...task, cursor } : null };
  }
  if (task.stream !== "fills") throw new Error(`unknown Coinbase stream ${task.stream}`);
  const answer = (await client.v3PrivateGetBrokerageOrdersHistoricalFills({
    limit: FILLS_PER_CALL,
    ...(task.end ? { end_sequence_timestamp: new Date(task.end).toISOString() } : {}),
    ...(task.cursor ? { cursor: task.cursor } : {}),
  })) as { fills?: CoinbaseFill[]; cursor?: string };
  const rows = answer.fills ?? [];
  return { rows, next: rows.length && answer.cursor ? { ...task, cursor: answer.cursor } : null };
}

/**
 * Coinbase's fills as ledger rows (pure; docs/SOURCES.md "Coinbase"). A product "BTC-USD" is base
 * and quote; the fill's value is its quote amount at the quote's USD price (USD at 1), its
 * commission (in the quote) a fee event. A fill twice (pages that met again) is one.
 */
export function mapCoinbase(pages: StoredPage[], priceAt: AssetPrice): MappedExchange {
  const trades: ImportedTrade[] = [];
  const events: ImportedEvent[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const usd = (asset: string, time: Date) => (asset === "USD" ? 1 : priceAt(asset, time));
  const seen = new Set<string>();
  for (const page of pages) {
    if (page.task.stream !== "fills") continue;
    for (const row of page.rows as CoinbaseFill[]) {
      if (seen.has(row.entry_id)) continue;
      seen.add(row.entry_id);
      const time = new Date(row.trade_time);
      const [base, quote] = row.product_id.split("-") as [string, string | undefined];
      if (!quote || row.trade_type !== "FILL") {
        skip(
          quote ? `Coinbase ${row.trade_type.toLowerCase()} entry` : "fill of a derivative product (not graded yet)",
        );
        continue;
      }
      const price = Number(row.price);
      // size is in the quote currency when size_in_quote says so.
      const qty = row.size_in_quote ? Number(row.size) / price : Number(row.size);
      const cost = qty * price;
      if (USD_STABLES.has(base) && USD_STABLES.has(quote)) {
        skip("trade between dollars and dollar stablecoins");
        continue;
      }
      const quoteUsd = usd(quote, time);
      if (quoteUsd === undefined || !(qty > 0)) {
        skip(`trade in ${quote} without a USD price`);
        continue;
      }
      const side = row.side === "BUY" ? "buy" : "sell";
      const id = `coinbase:t:${row.entry_id}`;
      trades.push({
        externalId: id,
        time,
        symbol: base,
        assetClass: "crypto",
        side,
        quantity: qty,
        price: (cost * quoteUsd) / qty,
        fee: 0,
      });
      if (!USD_STABLES.has(quote))
        trades.push({
          externalId: `${id}:q`,
          time,
          symbol: quote,
          assetClass: "crypto",
          side: side === "buy" ? "sell" : "buy",
          quantity: cost,
          price: quoteUsd,
          fee: 0,
        });
      const commission = Number(row.commission);
      // Paid in a coin (ETH-BTC's BTC): its units sold from their position, the proceeds the fee (DECISIONS 184).
      if (commission > 0 && !USD_STABLES.has(quote))
        trades.push({
          externalId: `coinbase:f:${row.entry_id}:k`,
          time,
          symbol: quote,
          assetClass: "crypto",
          side: "sell",
          quantity: commission,
          price: quoteUsd,
          fee: 0,
        });
      if (commission > 0)
        events.push({ externalId: `coinbase:f:${row.entry_id}`, time, kind: "fee", amount: commission * quoteUsd });
    }
  }
  const cashFlows = mapTransactions(pages, usd, trades, events, skip);
  return { batch: { trades, cashFlows, marks: [], events }, skipped };
}

/**
 * The v2 accounts' transactions (pure; docs/SOURCES.md "Coinbase"): a completed crypto `send` or
 * `receive` in is a deposit, out a withdrawal (its network fee on top of what arrived, sold from
 * the position); a dollar's or a dollar stablecoin's a cash flow, another coin's a `receive` /
 * `send` in kind naming its chain hash and the address at the other end, so the ledger can pair
 * it with a linked wallet; `fiat_deposit` / `fiat_withdrawal` a cash flow; a `trade` (a convert:
 * two legs sharing `trade.id`) a swap valued through its dollar side when it has one; a reward
 * income worth the coin then and the coin bought with it (as Kraken's). Fills (read from Advanced
 * Trade) and moves between one's own Coinbase accounts change nothing; anything else is counted.
 */
function mapTransactions(
  pages: StoredPage[],
  usd: (asset: string, time: Date) => number | undefined,
  trades: ImportedTrade[],
  events: ImportedEvent[],
  skip: (reason: string) => void,
): ImportedCashFlow[] {
  const cashFlows: ImportedCashFlow[] = [];
  const trade = (id: string, time: Date, asset: string, side: "buy" | "sell", quantity: number, price: number) => {
    if (USD_STABLES.has(asset)) return; // cash: the other leg moves it
    trades.push({ externalId: id, time, symbol: asset, assetClass: "crypto", side, quantity, price, fee: 0 });
  };
  const seen = new Set<string>();
  const converts = new Map<string, CoinbaseTransaction[]>();
  for (const page of pages) {
    if (page.task.stream !== "transactions") continue;
    for (const row of page.rows as CoinbaseTransaction[]) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      if (row.status !== "completed" || OWN_MOVES.has(row.type)) continue; // pending, failed: not in the account
      const time = new Date(row.created_at);
      const asset = row.amount.currency;
      const amount = Number(row.amount.amount);
      const id = `coinbase:x:${row.id}`;
      if (row.type === "trade") {
        const key = row.trade?.id ?? row.id;
        converts.set(key, [...(converts.get(key) ?? []), row]);
        continue;
      }
      if (REWARDS.has(row.type)) {
        const p = usd(asset, time);
        if (p === undefined || !(amount > 0)) {
          skip(`reward in ${asset} without a USD price`);
          continue;
        }
        // Income worth the coin at the time, and the coin bought with it: the position grows at that cost.
        events.push({ externalId: id, time, kind: "income", symbol: asset, amount: amount * p });
        trade(`${id}:b`, time, asset, "buy", amount, p);
        continue;
      }
      if (row.type === "fiat_deposit" || row.type === "fiat_withdrawal") {
        const p = usd(asset, time);
        if (p === undefined) {
          skip(`${row.type === "fiat_deposit" ? "deposit" : "withdrawal"} of ${asset} without a USD price`);
          continue;
        }
        cashFlows.push({ externalId: id, time, amount: amount * p });
        continue;
      }
      if (row.type === "send" || row.type === "receive") {
        const inbound = amount > 0;
        const what = inbound ? "deposit" : "withdrawal";
        const p = usd(asset, time);
        if (p === undefined || !amount) {
          skip(`${what} of ${asset} without a USD price`);
          continue;
        }
        // Out: the debit is what left plus the network's fee (in the same coin).
        const fee = inbound ? 0 : Number(row.network?.transaction_fee?.amount ?? 0);
        const moved = inbound ? amount : Number(row.network?.transaction_amount?.amount ?? -amount - fee);
        const other = inbound ? row.from : row.to;
        if (USD_STABLES.has(asset)) cashFlows.push({ externalId: id, time, amount: (inbound ? 1 : -1) * moved * p });
        else
          events.push({
            externalId: id,
            time,
            kind: inbound ? "receive" : "send",
            symbol: asset,
            quantity: moved,
            price: p,
            ...(row.network?.hash ? { txId: row.network.hash } : {}),
            ...(other?.address ? { address: other.address } : {}),
          });
        if (fee > 0) {
          trade(`${id}:f:k`, time, asset, "sell", fee, p);
          events.push({ externalId: `${id}:f`, time, kind: "fee", amount: fee * p });
        }
        continue;
      }
      skip(
        row.type === "buy" || row.type === "sell"
          ? "Coinbase simple buy or sell (not read yet)"
          : `Coinbase ${row.type} transaction (not read yet)`,
      );
    }
  }
  for (const [key, legs] of converts) {
    const spent = legs.find((l) => Number(l.amount.amount) < 0);
    const got = legs.find((l) => Number(l.amount.amount) > 0);
    if (!spent || !got) {
      skip("Coinbase convert without both of its legs");
      continue;
    }
    const time = new Date(got.created_at);
    const from = spent.amount.currency;
    const to = got.amount.currency;
    const fromQty = -Number(spent.amount.amount);
    const toQty = Number(got.amount.amount);
    if (USD_STABLES.has(from) && USD_STABLES.has(to)) {
      skip("convert between dollars and dollar stablecoins");
      continue;
    }
    const fromUsd = usd(from, time);
    const toUsd = usd(to, time);
    // The dollar side's value when there is one, else whichever side has a price.
    const value =
      fromUsd !== undefined && (USD_STABLES.has(from) || toUsd === undefined)
        ? fromQty * fromUsd
        : toUsd !== undefined
          ? toQty * toUsd
          : undefined;
    if (value === undefined) {
      skip("convert without a USD price");
      continue;
    }
    trade(`coinbase:c:${key}:s`, time, from, "sell", fromQty, value / fromQty);
    trade(`coinbase:c:${key}:b`, time, to, "buy", toQty, value / toQty);
  }
  return cashFlows;
}

/** One transactions stream per v2 account the accounts pages listed (pure; exported for tests). */
export function coinbaseAccountTasks(pages: StoredPage[]): HistoryTask[] {
  const ids = new Set<string>();
  for (const p of pages)
    if (p.task.stream === "accounts") for (const a of p.rows as CoinbaseAccount[]) if (a.id) ids.add(a.id);
  return [...ids].map((id) => ({ stream: "transactions", symbol: id }));
}

export const coinbase: ExchangeEntry = {
  id: "coinbase",
  client(credentials, settings) {
    const client = ccxtClient("coinbase", { ...credentials, secret: pemLines(credentials.secret) }, settings);
    rebase(client, "https://api.coinbase.com", settings.baseUrl);
    return client;
  },
  async checkKey(client) {
    const permissions = (await client.v3PrivateGetBrokerageKeyPermissions()) as Permissions;
    const refused = readCoinbasePermissions(permissions);
    if (refused) return { ok: false, ...refused };
    // A CDP key belongs to one portfolio: that is the account linked (DECISIONS 201).
    if (!permissions.portfolio_uuid) throw new Error("Coinbase did not say which portfolio this key is for.");
    return { ok: true, uid: permissions.portfolio_uuid };
  },
  // Every fill from the first, newest first by cursor, under an end fixed at the import's start;
  // then the accounts, and each account's transactions (one stream per account, newest first).
  tasks: (_fromMs, nowMs) => [{ stream: "fills", end: nowMs }, { stream: "accounts" }],
  tradeTasks: async (_client, pages) => coinbaseAccountTasks(pages),
  fetchPage,
  map: (pages, priceAt) => mapCoinbase(pages, priceAt),
  // ccxt signs with the secret as given: a PEM EC key (legacy CDP) or base64 Ed25519 (88 characters).
  credentialProblem: ({ secret }) =>
    secret.startsWith("-----BEGIN") || (/^[A-Za-z0-9+/]+={0,2}$/.test(secret) && secret.length === 88)
      ? null
      : "Coinbase's API secret is the private key that came with the key: a block starting -----BEGIN EC PRIVATE KEY----- or an 88-character Ed25519 secret.",
  rateWaitSeconds: RATE_WAIT_SECONDS,
};
