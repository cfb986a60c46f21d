import type { Exchange } from "ccxt";
import { EXCHANGE_VIEWS } from "~/lib/exchanges";
import type { ImportedEvent, ImportedTrade } from "../imported";
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
// under an end fixed at the import's start.

const FILLS_PER_CALL = 100;
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

async function fetchPage(client: Exchange, task: HistoryTask): Promise<FetchedPage> {
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
  return { batch: { trades, cashFlows: [], marks: [], events }, skipped };
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
  // Every fill from the first, newest first by cursor, under an end fixed at the import's start.
  tasks: (_fromMs, nowMs) => [{ stream: "fills", end: nowMs }],
  tradeTasks: async () => [],
  fetchPage,
  map: (pages, priceAt) => mapCoinbase(pages, priceAt),
  // ccxt signs with the secret as given: a PEM EC key (legacy CDP) or base64 Ed25519 (88 characters).
  credentialProblem: ({ secret }) =>
    secret.startsWith("-----BEGIN") || (/^[A-Za-z0-9+/]+={0,2}$/.test(secret) && secret.length === 88)
      ? null
      : "Coinbase's API secret is the private key that came with the key: a block starting -----BEGIN EC PRIVATE KEY----- or an 88-character Ed25519 secret.",
  rateWaitSeconds: RATE_WAIT_SECONDS,
};
