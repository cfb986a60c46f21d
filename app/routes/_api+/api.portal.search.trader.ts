import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, readQuery, requireApiUser } from "~/server/http/api.server";
import { SearchQuery } from "~/server/http/api-schemas.server";
import { searchTraders } from "~/server/community/search.server";

// GET /api/portal/search/trader?keyword=… → { data: [{ id, first_name, last_name, username, avatar }] },
// at most 20, most relevant first. Fewer than 3 characters → 400.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  const { keyword } = readQuery(request, SearchQuery);
  return apiData(await searchTraders(keyword), { headers: { "Cache-Control": "private, no-store" } });
}
