import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, readQuery } from "~/server/http/api.server";
import { GradeLogQuery } from "~/server/http/api-schemas.server";
import { gradeLogPage } from "~/server/grades/grade-log.server";

// GET /api/grades/log?after=N: the public grade log in order, from the entry after seq N (0 or
// absent: from the start). meta.next is the `after` of the next page (null at the end).
export async function loader({ request }: LoaderFunctionArgs) {
  const { after } = readQuery(request, GradeLogQuery);
  const page = await gradeLogPage(after);
  return apiData(page.entries, {
    meta: { next: page.next, head: page.head },
    headers: { "Cache-Control": "public, max-age=10", "Access-Control-Allow-Origin": "*" },
  });
}
