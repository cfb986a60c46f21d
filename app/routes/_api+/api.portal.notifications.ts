import type { LoaderFunctionArgs } from "@remix-run/node";
import { parsePaging } from "~/lib/paging";
import { apiData, apiError, requireApiUser } from "~/server/http/api.server";
import { listNotifications, NOTIFICATIONS_QUERY } from "~/server/community/notifications.server";

// GET /api/portal/notifications — the caller's notifications, newest first, paged; meta.unread is
// the bell's count (docs/API.md). The header polls it with page_size=1.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const parsed = parsePaging(new URL(request.url).searchParams, NOTIFICATIONS_QUERY);
  if (!parsed.ok) throw apiError(400, parsed.message);
  if (parsed.paging.order !== "desc") throw apiError(400, "order: notifications are listed newest first (desc)");
  const { data, meta } = await listNotifications(user.id, parsed.paging);
  return apiData(data, {
    meta: { ...meta, sort_by: "created_at", order: "desc" },
    headers: { "Cache-Control": "no-store" },
  });
}
