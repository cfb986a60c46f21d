import { json } from "@remix-run/node";
import { pagingSchema, parsePaging } from "~/lib/paging";
import { apiError } from "../http/api.server";
import {
  HIDDEN_TRADE_SORTS,
  HOLDING_SORTS,
  pagedHoldings,
  pagedTrades,
  showsAmounts,
  TRADE_SORTS,
} from "./portfolio.server";

// The query schemas, also the JSON API's documented parameters (openapi.server.ts).
export const TRADES_QUERY = pagingSchema(TRADE_SORTS, { sort_by: "time", order: "desc" });
export const HOLDINGS_QUERY = pagingSchema(HOLDING_SORTS, { sort_by: "weight", order: "desc" });

// Shared by /profile/*, /u/:id/* and the JSON API: one parse, one privacy rule, one query.
export async function tradesFor(request: Request, ownerId: number, viewerId: number, asApi = false) {
  const paged = parsePaging(new URL(request.url).searchParams, TRADES_QUERY);
  if (!paged.ok) throw asApi ? apiError(400, paged.message) : json({ message: paged.message }, { status: 400 });
  const amounts = await showsAmounts(ownerId, viewerId);
  // Sorting by a hidden column would reveal it through the order: refused, named.
  if (!amounts && HIDDEN_TRADE_SORTS.has(paged.paging.sort_by)) {
    const message = `sort_by: ${paged.paging.sort_by} is hidden by this trader; sort by ${TRADE_SORTS.filter((s) => !HIDDEN_TRADE_SORTS.has(s)).join(", ")}`;
    throw asApi ? apiError(400, message) : json({ message }, { status: 400 });
  }
  const result = await pagedTrades(ownerId, paged.paging, { amounts, account: ownerId === viewerId });
  return { ...result, amounts, sort_by: paged.paging.sort_by, order: paged.paging.order };
}

export async function holdingsFor(request: Request, ownerId: number, viewerId: number, asApi = false) {
  const paged = parsePaging(new URL(request.url).searchParams, HOLDINGS_QUERY);
  if (!paged.ok) throw asApi ? apiError(400, paged.message) : json({ message: paged.message }, { status: 400 });
  const amounts = await showsAmounts(ownerId, viewerId);
  const result = await pagedHoldings(ownerId, paged.paging, amounts);
  return { ...result, amounts, sort_by: paged.paging.sort_by, order: paged.paging.order };
}
