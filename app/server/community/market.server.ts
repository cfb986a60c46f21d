import { sql } from "kysely";
import { z } from "zod";
import { truncateScore } from "~/lib/format-number";
import { pagingSchema, type Paging } from "~/lib/paging";
import { getDb, getReadDb, type DB } from "../platform/db.server";
import { LEADERBOARD_SORTS, MARKET_TRADE_SORTS } from "~/lib/market";
import { ASSET_CLASSES, TIERS } from "~/lib/vocabulary";

export { LEADERBOARD_SORTS, MARKET_TRADE_SORTS };

// The query schemas of the market pages, also the JSON API's documented parameters (openapi.server.ts).
export const LEADERBOARD_QUERY = pagingSchema(LEADERBOARD_SORTS, { sort_by: "score", order: "desc", page_size: 20 });
export const MARKET_TRADES_QUERY = pagingSchema(MARKET_TRADE_SORTS, { sort_by: "time", order: "desc", page_size: 20 });

export const LeaderboardFilters = z.object({
  asset_class: z
    .enum(ASSET_CLASSES, { errorMap: () => ({ message: `asset_class: must be one of ${ASSET_CLASSES.join(", ")}` }) })
    .optional(),
  tier: z.enum(TIERS, { errorMap: () => ({ message: `tier: must be one of ${TIERS.join(", ")}` }) }).optional(),
});
export type LeaderboardFilter = z.infer<typeof LeaderboardFilters>;

export function parseLeaderboardFilters(
  params: URLSearchParams,
): { ok: true; filters: LeaderboardFilter } | { ok: false; message: string } {
  const raw = Object.fromEntries(["asset_class", "tier"].filter((k) => params.get(k)).map((k) => [k, params.get(k)]));
  const r = LeaderboardFilters.safeParse(raw);
  return r.success
    ? { ok: true, filters: r.data }
    : { ok: false, message: r.error.issues.map((i) => i.message).join("; ") };
}

/** The board's traders (of a tier), from market_leaderboard_counts' sums (migration 0031). */
function boardTotal(tier: string | undefined) {
  return sql<string>`(select coalesce(sum(n), 0) from market_leaderboard_counts${tier ? sql` where tier = ${tier}` : sql``})`;
}

/**
 * Folds market_leaderboard_counts into one row per tier, once it holds more than a few: the rows it
 * deletes are committed ones, and their sums go back in the same statement, so totals read during
 * or after it, and grades committed meanwhile, are unchanged. A job every minute, once per cluster
 * (jobs.server.ts); the seeds call it after their bulk writes.
 */
export async function compactLeaderboardCounts(db?: DB): Promise<void> {
  await sql`
    with gone as (
      delete from market_leaderboard_counts
      where (select count(*) from market_leaderboard_counts) > ${COMPACT_ABOVE}
      returning tier, n)
    insert into market_leaderboard_counts (tier, n)
      select tier, sum(n) from gone group by tier having sum(n) <> 0`.execute(db ?? (await getDb()));
}
const COMPACT_ABOVE = 20;

export async function compactionJob(): Promise<void> {
  await compactLeaderboardCounts();
}

export type LeaderboardRow = {
  rank: number;
  id: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar: string | null;
  tier: string | null;
  stars: number;
  score: number | null;
  return: number | null;
  drawdown: number | null;
  followers: number;
};

/**
 * Graded traders (market_leaderboard: each trader's current grade with a score, kept by a trigger
 * on users, docs/DECISIONS.md 92). Sorts: score, return (time-weighted return of the current
 * evaluation), drawdown (max drawdown, a fraction ≥ 0: "asc" = shallowest first), followers, each
 * served by an index in either direction, ties by trader id. Filters: tier, and asset class = the
 * trader has traded that class. Percentages only: no dollar figure appears here. From the read
 * database: a board seconds behind is still the board.
 */
export async function leaderboard(paging: Paging<(typeof LEADERBOARD_SORTS)[number]>, filters: LeaderboardFilter) {
  const db = await getReadDb();
  let base = db.selectFrom("market_leaderboard as board");
  if (filters.tier) base = base.where("board.tier", "=", filters.tier);
  if (filters.asset_class) {
    const cls = filters.asset_class;
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom("trades")
          .innerJoin("linked_accounts", "linked_accounts.id", "trades.linked_account_id")
          .select(sql`1`.as("one"))
          .whereRef("linked_accounts.user_id", "=", "board.user_id")
          .where("trades.asset_class", "=", cls),
      ),
    );
  }
  const column = ({ score: "score", return: "twr", drawdown: "max_drawdown", followers: "followers_count" } as const)[
    paging.sort_by
  ];
  // Spelled as the indexes are (score and followers are never null).
  const nulls = column === "twr" || column === "max_drawdown" ? sql` nulls last` : sql``;
  const dir = paging.order === "asc" ? sql`asc` : sql`desc`;
  const offset = (paging.page - 1) * paging.page_size;
  // The total in the same round trip, from the kept sums (a count of the board would scan its
  // index: 3.4 ms for 30,000 traders); the asset-class filter has no sums, so it counts.
  const [rows, counted] = await Promise.all([
    base
      .innerJoin("users", "users.id", "board.user_id")
      .select([
        "users.id",
        "users.username",
        "users.first_name",
        "users.last_name",
        "users.name",
        "users.avatar_url",
        "board.followers_count",
        "board.tier",
        "board.score",
        "board.twr",
        "board.max_drawdown",
        "board.stars",
        boardTotal(filters.tier).as("total"),
      ])
      .orderBy(sql`${sql.ref(`board.${column}`)} ${dir}${nulls}`)
      .orderBy("board.user_id", "asc")
      .limit(paging.page_size)
      .offset(offset)
      .execute(),
    filters.asset_class ? base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow() : null,
  ]);
  const total = Number(
    counted?.n ??
      rows[0]?.total ??
      // A page past the end has no row to carry the total.
      (await db.selectNoFrom(boardTotal(filters.tier).as("total")).executeTakeFirstOrThrow()).total,
  );
  const data: LeaderboardRow[] = rows.map((r, i) => ({
    rank: offset + i + 1,
    id: r.id,
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    name: r.name,
    avatar: r.avatar_url,
    tier: r.tier,
    stars: Number(r.stars ?? 0),
    score: r.score === null ? null : truncateScore(r.score),
    return: r.twr === null ? null : Number(r.twr),
    drawdown: r.max_drawdown === null ? null : Number(r.max_drawdown),
    followers: r.followers_count,
  }));
  return { data, meta: { page: paging.page, page_size: paging.page_size, total } };
}

export type MarketTradeRow = {
  id: string;
  time: string;
  symbol: string;
  asset_class: string;
  side: string;
  price: number;
  quantity: number | null;
  trader: {
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar: string | null;
  };
};

/**
 * Recent trades of graded traders who share them (users.share_trades, or show_amounts which
 * already makes their trades visible on their profile). Quantities only when the trader shows
 * amounts (or it is the viewer's own trade). From the read database: trades arrive by imports,
 * in the background, never in the request that shows them.
 */
export async function recentTrades(viewerId: number, paging: Paging<(typeof MARKET_TRADE_SORTS)[number]>) {
  const db = await getReadDb();
  const base = db
    .selectFrom("trades")
    .innerJoin("linked_accounts", "linked_accounts.id", "trades.linked_account_id")
    .innerJoin("users", "users.id", "linked_accounts.user_id")
    .where("users.current_evaluation_id", "is not", null)
    .where((eb) => eb.or([eb("users.share_trades", "=", true), eb("users.show_amounts", "=", true)]));
  const [rows, total] = await Promise.all([
    base
      .select([
        "trades.id",
        "trades.time",
        "trades.symbol",
        "trades.asset_class",
        "trades.side",
        "trades.price",
        "trades.quantity",
        "users.id as user_id",
        "users.username",
        "users.first_name",
        "users.last_name",
        "users.name",
        "users.avatar_url",
        "users.show_amounts",
      ])
      .orderBy(paging.sort_by === "symbol" ? "trades.symbol" : "trades.time", paging.order)
      .orderBy("trades.id", paging.order)
      .limit(paging.page_size)
      .offset((paging.page - 1) * paging.page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const data: MarketTradeRow[] = rows.map((r) => ({
    id: String(r.id),
    time: new Date(r.time).toISOString(),
    symbol: r.symbol,
    asset_class: r.asset_class,
    side: r.side,
    price: r.price,
    quantity: r.show_amounts || r.user_id === viewerId ? r.quantity : null,
    trader: {
      id: r.user_id,
      username: r.username,
      first_name: r.first_name,
      last_name: r.last_name,
      name: r.name,
      avatar: r.avatar_url,
    },
  }));
  return { data, meta: { page: paging.page, page_size: paging.page_size, total: Number(total.n) } };
}
