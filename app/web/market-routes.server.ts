import { parsePaging } from "~/lib/paging";
import {
  LEADERBOARD_QUERY,
  leaderboard,
  MARKET_TRADES_QUERY,
  parseLeaderboardFilters,
  recentTrades,
} from "~/server/community/market.server";
import { badQuery, type AnswerFormat } from "./answer.server";

// One parse and one query for the market pages and their JSON forms (bad query → 400).
export async function leaderboardFor(request: Request, format: AnswerFormat) {
  const params = new URL(request.url).searchParams;
  const paged = parsePaging(params, LEADERBOARD_QUERY);
  if (!paged.ok) throw badQuery(paged.message, format);
  const filters = parseLeaderboardFilters(params);
  if (!filters.ok) throw badQuery(filters.message, format);
  const result = await leaderboard(paged.paging, filters.filters);
  return { ...result, sort_by: paged.paging.sort_by, order: paged.paging.order, filters: filters.filters };
}

export async function marketTradesFor(request: Request, viewerId: number, format: AnswerFormat) {
  const paged = parsePaging(new URL(request.url).searchParams, MARKET_TRADES_QUERY);
  if (!paged.ok) throw badQuery(paged.message, format);
  const result = await recentTrades(viewerId, paged.paging);
  return { ...result, sort_by: paged.paging.sort_by, order: paged.paging.order };
}
