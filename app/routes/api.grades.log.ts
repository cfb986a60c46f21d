import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, apiError } from "~/server/api.server";
import { gradeLogPage } from "~/server/grade-log.server";

// GET /api/grades/log?after=N: the public grade log in order, from the entry after seq N (0 or
// absent: from the start). meta.next is the `after` of the next page (null at the end).
export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("after") ?? "0";
  if (!/^\d{1,15}$/.test(raw)) return apiError(400, "after: use the last seq you have seen (a whole number, 0 for the start).", { after: "must be a whole number" });
  const page = await gradeLogPage(Number(raw));
  return apiData(page.entries, {
    meta: { next: page.next, head: page.head },
    headers: { "Cache-Control": "public, max-age=10", "Access-Control-Allow-Origin": "*" },
  });
}
