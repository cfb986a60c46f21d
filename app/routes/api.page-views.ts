import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, apiError } from "~/server/api.server";
import { countPageViews, isTrackedPath } from "~/server/page-views.server";

// GET /api/page-views?path=/blogs/Aq7TrX8B → { data: { path, views } } for public, tracked pages.
export async function loader({ request }: LoaderFunctionArgs) {
  const path = new URL(request.url).searchParams.get("path") ?? "";
  if (!isTrackedPath(path)) return apiError(400, "path: must be a tracked public page such as /blogs/{id}.");
  return apiData({ path, views: await countPageViews(path) }, { headers: { "Cache-Control": "no-store" } });
}
