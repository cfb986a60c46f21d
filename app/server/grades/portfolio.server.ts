import { pagingSchema, type Paging } from "~/lib/paging";
import type { Refusal } from "~/lib/refusal";
import { getDb } from "../platform/db.server";
import type { LinkedAccountKind } from "../platform/db/schema";
import { currentEvaluation } from "./evaluation.server";

export const TRADE_SORTS = ["time", "symbol", "side", "quantity", "price"] as const;
/** Sort keys that are amounts: only for the owner, or when the trader shows amounts. */
export const HIDDEN_TRADE_SORTS: ReadonlySet<(typeof TRADE_SORTS)[number]> = new Set(["quantity"]);
export const HOLDING_SORTS = ["symbol", "value", "weight", "unrealized"] as const;

// The query schemas of the portfolio tabs, also the JSON API's documented parameters (openapi.server.ts).
export const TRADES_QUERY = pagingSchema(TRADE_SORTS, { sort_by: "time", order: "desc" });
export const HOLDINGS_QUERY = pagingSchema(HOLDING_SORTS, { sort_by: "weight", order: "desc" });

export type TradeRow = {
  id: string;
  time: string;
  symbol: string;
  asset_class: string;
  side: string;
  quantity: number | null;
  price: number;
  fee: number | null;
  /** The currency of price and fee (ISO 4217, as the provider gave it). */
  currency: string;
  account: string;
};
export type HoldingRow = {
  symbol: string;
  asset_class: string;
  quantity: number | null;
  avg_cost: number | null;
  mark: number;
  value: number | null;
  weight: number;
  unrealized: number | null;
};

/** A user's imported trades, paged; quantities and fees only when amounts may be shown. */
// Other people see which kind of account a trade came from, never its name or number (a broker
// login name and the last digits, or a wallet address).
const PUBLIC_ACCOUNT_LABEL: Record<LinkedAccountKind, string> = {
  plaid: "Broker account",
  evm: "EVM wallet",
  solana: "Solana wallet",
  binance: "Binance account",
  ibkr: "Interactive Brokers account",
  kraken: "Kraken account",
  coinbase: "Coinbase account",
  okx: "OKX account",
  bybit: "Bybit account",
  statement: "Statement (self-reported)",
};

export async function pagedTrades(
  userId: number,
  paging: Paging<(typeof TRADE_SORTS)[number]>,
  view: { amounts: boolean; account: boolean },
) {
  const db = await getDb();
  const base = db
    .selectFrom("trades")
    .innerJoin("linked_accounts", "linked_accounts.id", "trades.linked_account_id")
    .where("linked_accounts.user_id", "=", userId);
  const [rows, total] = await Promise.all([
    base
      .select([
        "trades.id",
        "trades.time",
        "trades.symbol",
        "trades.asset_class",
        "trades.side",
        "trades.quantity",
        "trades.price",
        "trades.fee",
        "trades.currency",
        "linked_accounts.label",
        "linked_accounts.kind",
      ])
      .orderBy(`trades.${paging.sort_by}`, paging.order)
      .orderBy("trades.id", paging.order)
      .limit(paging.page_size)
      .offset((paging.page - 1) * paging.page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const data = rows.map((r) => tradeRow(r, view));
  return { data, meta: { page: paging.page, page_size: paging.page_size, total: Number(total.n) } };
}

type TradeSelect = {
  id: number | string;
  time: Date | string;
  symbol: string;
  asset_class: string;
  side: string;
  quantity: number;
  price: number;
  fee: number;
  currency: string;
  label: string;
  kind: LinkedAccountKind;
};

function tradeRow(r: TradeSelect, view: { amounts: boolean; account: boolean }): TradeRow {
  return {
    id: String(r.id),
    time: new Date(r.time).toISOString(),
    symbol: r.symbol,
    asset_class: r.asset_class,
    side: r.side,
    quantity: view.amounts ? r.quantity : null,
    price: r.price,
    fee: view.amounts ? r.fee : null,
    currency: r.currency,
    account: view.account ? r.label : PUBLIC_ACCOUNT_LABEL[r.kind],
  };
}

/** Every imported trade of one's own, in the API's row shape and its default order (newest first): the CSV export. */
export async function allOwnTrades(userId: number): Promise<TradeRow[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("trades")
    .innerJoin("linked_accounts", "linked_accounts.id", "trades.linked_account_id")
    .where("linked_accounts.user_id", "=", userId)
    .select([
      "trades.id",
      "trades.time",
      "trades.symbol",
      "trades.asset_class",
      "trades.side",
      "trades.quantity",
      "trades.price",
      "trades.fee",
      "trades.currency",
      "linked_accounts.label",
      "linked_accounts.kind",
    ])
    .orderBy("trades.time", "desc")
    .orderBy("trades.id", "desc")
    .execute();
  return rows.map((r) => tradeRow(r, { amounts: true, account: true }));
}

/** Open positions at the current grade's valuation time, with their share of the portfolio. */
export async function pagedHoldings(
  userId: number,
  paging: Paging<(typeof HOLDING_SORTS)[number]>,
  showAmounts: boolean,
) {
  const current = await currentEvaluation(userId);
  const positions = current?.result.positions ?? [];
  const gross = positions.reduce((sum, p) => sum + Math.abs(p.marketValue), 0) || 1;
  const all: HoldingRow[] = positions.map((p) => ({
    symbol: p.symbol,
    asset_class: p.assetClass,
    quantity: showAmounts ? p.quantity : null,
    avg_cost: showAmounts ? p.avgCost : null,
    mark: p.mark,
    value: showAmounts ? p.marketValue : null,
    weight: Math.abs(p.marketValue) / gross,
    unrealized: showAmounts ? p.unrealizedPnl : null,
  }));
  // Sorting by money uses the weight when amounts are hidden (same order, nothing revealed).
  const key = (h: HoldingRow): number | string =>
    paging.sort_by === "symbol"
      ? h.symbol
      : paging.sort_by === "unrealized"
        ? showAmounts
          ? (h.unrealized ?? 0)
          : 0
        : h.weight;
  all.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = typeof ka === "string" ? ka.localeCompare(kb as string) : ka - (kb as number);
    return paging.order === "asc" ? c : -c;
  });
  const start = (paging.page - 1) * paging.page_size;
  return {
    data: all.slice(start, start + paging.page_size),
    meta: {
      page: paging.page,
      page_size: paging.page_size,
      total: all.length,
      as_of: current?.result.asOf ?? null,
      // The positions' amounts are in the grade's base currency (engine 3.1 on; absent: USD).
      currency: current?.result.metrics.baseCurrency ?? "USD",
    },
  };
}

export async function showsAmounts(ownerId: number, viewerId: number) {
  if (ownerId === viewerId) return true;
  const db = await getDb();
  const row = await db.selectFrom("users").select("show_amounts").where("id", "=", ownerId).executeTakeFirst();
  return Boolean(row?.show_amounts);
}

/**
 * One trader's trades as this viewer may see them. Sorting by a hidden column would reveal it
 * through the order: refused, naming the sorts that remain.
 */
export async function visibleTrades(
  ownerId: number,
  viewerId: number,
  paging: Paging<(typeof TRADE_SORTS)[number]>,
): Promise<(Awaited<ReturnType<typeof pagedTrades>> & { ok: true; amounts: boolean }) | Refusal> {
  const amounts = await showsAmounts(ownerId, viewerId);
  if (!amounts && HIDDEN_TRADE_SORTS.has(paging.sort_by)) {
    const visible = TRADE_SORTS.filter((s) => !HIDDEN_TRADE_SORTS.has(s)).join(", ");
    return {
      ok: false,
      status: 400,
      message: `sort_by: ${paging.sort_by} is hidden by this trader; sort by ${visible}`,
    };
  }
  const result = await pagedTrades(ownerId, paging, { amounts, account: ownerId === viewerId });
  return { ok: true, ...result, amounts };
}

/** One trader's holdings as this viewer may see them (amounts hidden unless shown). */
export async function visibleHoldings(
  ownerId: number,
  viewerId: number,
  paging: Paging<(typeof HOLDING_SORTS)[number]>,
) {
  const amounts = await showsAmounts(ownerId, viewerId);
  return { ...(await pagedHoldings(ownerId, paging, amounts)), amounts };
}
