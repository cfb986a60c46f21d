import type { LoaderFunctionArgs } from "@remix-run/node";
import { ROUND_TRIP_COLUMNS, roundTripApiRow } from "~/analytics/journal";
import { ownJournal } from "~/server/grades/analytics.server";
import { apiError, requireApiUser } from "~/server/http/api.server";
import { csvResponse } from "~/server/http/csv.server";

// Every round trip of the caller's current grade matching the journal's filters, as CSV (the
// rows of GET /api/portal/round_trips, unpaged).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const found = await ownJournal(user.id, new URL(request.url).searchParams, false);
  if (!found.ok) throw apiError(400, found.message, found.errors);
  return csvResponse("round_trips.csv", ROUND_TRIP_COLUMNS, found.rows.map(roundTripApiRow));
}
