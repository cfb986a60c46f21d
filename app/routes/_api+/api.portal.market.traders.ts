import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser } from "~/server/http/api.server";
import { leaderboardFor } from "~/web/market-routes.server";

// GET /api/portal/market/traders?page=&page_size=&sort_by=score|return|drawdown|followers&order=&tier=&asset_class=
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  const { data, meta } = await leaderboardFor(request, "api");
  return apiData(data, { meta });
}
