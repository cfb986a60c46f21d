import { json } from "@remix-run/node";
import { parsePaging } from "~/lib/paging";
import { apiError } from "./api.server";
import { HOLDING_SORTS, pagedHoldings, pagedTrades, showsAmounts, TRADE_SORTS } from "./portfolio.server";

// Shared by /profile/*, /u/:id/* and the JSON API: one parse, one privacy rule, one query.
export async function tradesFor(request: Request, ownerId: number, viewerId: number, asApi = false) {
  const paged = parsePaging(new URL(request.url).searchParams, TRADE_SORTS, { sort_by: "time", order: "desc" });
  if (!paged.ok) throw asApi ? apiError(400, paged.message) : json({ message: paged.message }, { status: 400 });
  const result = await pagedTrades(ownerId, paged.paging, { amounts: await showsAmounts(ownerId, viewerId), account: ownerId === viewerId });
  return { ...result, sort_by: paged.paging.sort_by, order: paged.paging.order };
}

export async function holdingsFor(request: Request, ownerId: number, viewerId: number, asApi = false) {
  const paged = parsePaging(new URL(request.url).searchParams, HOLDING_SORTS, { sort_by: "weight", order: "desc" });
  if (!paged.ok) throw asApi ? apiError(400, paged.message) : json({ message: paged.message }, { status: 400 });
  const result = await pagedHoldings(ownerId, paged.paging, await showsAmounts(ownerId, viewerId));
  return { ...result, sort_by: paged.paging.sort_by, order: paged.paging.order };
}
