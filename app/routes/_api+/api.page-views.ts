import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, readQuery } from "~/server/http/api.server";
import { PageViewsQuery } from "~/server/http/api-schemas.server";
import { countPageViews } from "~/server/community/page-views.server";

// GET /api/page-views?path=/blogs/Aq7TrX8B → { data: { path, views } } for public, tracked pages.
export async function loader({ request }: LoaderFunctionArgs) {
  const { path } = readQuery(request, PageViewsQuery);
  return apiData({ path, views: await countPageViews(path) }, { headers: { "Cache-Control": "no-store" } });
}
