import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/server/http/api.server";
import { csvResponse } from "~/server/http/csv.server";
import { allOwnTrades, type TradeRow } from "~/server/grades/portfolio.server";

const COLUMNS: (keyof TradeRow)[] = [
  "id",
  "time",
  "symbol",
  "asset_class",
  "side",
  "quantity",
  "price",
  "fee",
  "currency",
  "account",
];

// Every imported trade of the caller, as CSV: the rows of GET /api/portal/trades, unpaged.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return csvResponse("trades.csv", COLUMNS, await allOwnTrades(user.id));
}
