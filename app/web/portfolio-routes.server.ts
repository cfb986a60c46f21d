import { parsePaging } from "~/lib/paging";
import { HOLDINGS_QUERY, TRADES_QUERY, visibleHoldings, visibleTrades } from "~/server/grades/portfolio.server";
import { badQuery, refusalAnswer, type AnswerFormat } from "./answer.server";

// Shared by /profile/*, /u/:id/* and the JSON API: one parse, one privacy rule (the service's), one query.
export async function tradesFor(request: Request, ownerId: number, viewerId: number, format: AnswerFormat) {
  const paged = parsePaging(new URL(request.url).searchParams, TRADES_QUERY);
  if (!paged.ok) throw badQuery(paged.message, format);
  const trades = await visibleTrades(ownerId, viewerId, paged.paging);
  if (!trades.ok) throw refusalAnswer(trades, format);
  const { data, meta, amounts } = trades;
  return { data, meta, amounts, sort_by: paged.paging.sort_by, order: paged.paging.order };
}

export async function holdingsFor(request: Request, ownerId: number, viewerId: number, format: AnswerFormat) {
  const paged = parsePaging(new URL(request.url).searchParams, HOLDINGS_QUERY);
  if (!paged.ok) throw badQuery(paged.message, format);
  const { data, meta, amounts } = await visibleHoldings(ownerId, viewerId, paged.paging);
  return { data, meta, amounts, sort_by: paged.paging.sort_by, order: paged.paging.order };
}
