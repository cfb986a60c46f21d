import { json } from "@remix-run/node";
import { pagingSchema, parsePaging } from "~/lib/paging";
import { apiError } from "../http/api.server";
import {
  LEADERBOARD_SORTS,
  leaderboard,
  MARKET_TRADE_SORTS,
  parseLeaderboardFilters,
  recentTrades,
} from "./market.server";

// The query schemas, also the JSON API's documented parameters (openapi.server.ts).
export const LEADERBOARD_QUERY = pagingSchema(LEADERBOARD_SORTS, { sort_by: "score", order: "desc", page_size: 20 });
export const MARKET_TRADES_QUERY = pagingSchema(MARKET_TRADE_SORTS, { sort_by: "time", order: "desc", page_size: 20 });

// One parse and one query for the market pages and their JSON forms (bad query → 400).
export async function leaderboardFor(request: Request, asApi = false) {
  const params = new URL(request.url).searchParams;
  const paged = parsePaging(params, LEADERBOARD_QUERY);
  const filters = parseLeaderboardFilters(params);
  const problem = !paged.ok ? paged.message : !filters.ok ? filters.message : null;
  if (problem || !paged.ok || !filters.ok)
    throw asApi ? apiError(400, problem ?? "Bad query.") : json({ message: problem }, { status: 400 });
  const result = await leaderboard(paged.paging, filters.filters);
  return { ...result, sort_by: paged.paging.sort_by, order: paged.paging.order, filters: filters.filters };
}

export async function marketTradesFor(request: Request, viewerId: number, asApi = false) {
  const paged = parsePaging(new URL(request.url).searchParams, MARKET_TRADES_QUERY);
  if (!paged.ok) throw asApi ? apiError(400, paged.message) : json({ message: paged.message }, { status: 400 });
  const result = await recentTrades(viewerId, paged.paging);
  return { ...result, sort_by: paged.paging.sort_by, order: paged.paging.order };
}
