import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, apiError, requireApiUser } from "~/server/api.server";
import { normalizeKeyword, SEARCH_MIN_CHARS, searchTraders } from "~/server/community/search.server";

// GET /api/portal/search/trader?keyword=… → { data: [{ id, first_name, last_name, username, avatar }] },
// at most 20, most relevant first. Fewer than 3 characters → 400.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  const keyword = normalizeKeyword(new URL(request.url).searchParams.get("keyword"));
  if (keyword.length < SEARCH_MIN_CHARS) return apiError(400, `keyword: type at least ${SEARCH_MIN_CHARS} characters.`);
  return apiData(await searchTraders(keyword), { headers: { "Cache-Control": "private, no-store" } });
}
