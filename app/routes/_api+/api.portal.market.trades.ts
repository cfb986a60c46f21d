import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, requireApiUser } from "~/server/http/api.server";
import { marketTradesFor } from "~/web/market-routes.server";

// GET /api/portal/market/trades?page=&page_size=&sort_by=time|symbol&order= — quantities null unless the trader shows amounts.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { data, meta } = await marketTradesFor(request, viewer.id, "api");
  return apiData(data, { meta });
}
