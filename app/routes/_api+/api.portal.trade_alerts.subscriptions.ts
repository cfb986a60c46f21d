import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { alertSubscriptionsOf, subscribeToAlerts, unsubscribeFromAlerts } from "~/server/community/trade-alerts.server";
import { apiData, apiError, readBody, requireApiUser } from "~/server/http/api.server";
import { AlertSubscriptionBody } from "~/server/http/api-schemas.server";

// GET, POST, DELETE /api/portal/trade_alerts/subscriptions — the traders whose live trade alerts
// the caller gets, as "Get live trade alerts" on a profile (the same rules: DECISIONS 215).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return apiData(await alertSubscriptionsOf(user.id), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  if (request.method === "POST") {
    const { trader_id } = await readBody(request, AlertSubscriptionBody);
    const done = await subscribeToAlerts(user.id, trader_id);
    if (!done.ok) return apiError(done.status, done.message);
    return apiData({ trader_id, subscribed: true }, { status: 201 });
  }
  if (request.method === "DELETE") {
    const { trader_id } = await readBody(request, AlertSubscriptionBody);
    await unsubscribeFromAlerts(user.id, trader_id);
    return apiData({ trader_id, subscribed: false });
  }
  return apiError(405, "Use GET, POST or DELETE for this call.", undefined, { Allow: "GET, POST, DELETE" });
}
