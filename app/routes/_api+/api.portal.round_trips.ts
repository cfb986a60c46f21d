import type { LoaderFunctionArgs } from "@remix-run/node";
import { roundTripApiRow } from "~/analytics/journal";
import { ownJournal } from "~/server/grades/analytics.server";
import { apiData, apiError, requireApiUser } from "~/server/http/api.server";

// The caller's journal: the round trips of their current grade, filtered, sorted and paged
// (docs/API.md). The CSV twin is /api/portal/round_trips.csv.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const found = await ownJournal(user.id, new URL(request.url).searchParams, true);
  if (!found.ok) throw apiError(400, found.message, found.errors);
  return apiData(found.rows.map(roundTripApiRow), {
    meta: {
      page: found.query.page,
      page_size: found.query.page_size,
      total: found.total,
      sort_by: found.query.sort_by,
      order: found.query.order,
      evaluation_id: found.evaluationId,
    },
  });
}
