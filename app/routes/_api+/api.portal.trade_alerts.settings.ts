import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getTradeAlertSettings, saveTradeAlertSettings } from "~/server/community/trade-alerts.server";
import type { TradeAlertSettings } from "~/server/community/trade-alerts.server";
import { apiData, apiError, readBody, requireApiUser } from "~/server/http/api.server";
import { TradeAlertSettingsBody } from "~/server/http/api-schemas.server";

// GET, PATCH /api/portal/trade_alerts/settings — "Share my trades live" as the settings page has
// it (DECISIONS 215); PATCH changes only the fields sent (docs/API.md).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return apiData(view(await getTradeAlertSettings(user.id)), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  if (request.method !== "PATCH")
    return apiError(405, "Use GET or PATCH for this call.", undefined, { Allow: "GET, PATCH" });
  const change = await readBody(request, TradeAlertSettingsBody);
  await saveTradeAlertSettings(user.id, {
    enabled: change.enabled,
    delay: change.delay,
    hideSizes: change.hide_sizes,
  });
  return apiData(view(await getTradeAlertSettings(user.id)));
}

function view(s: TradeAlertSettings) {
  return { enabled: s.enabled, delay: s.delay, hide_sizes: s.hideSizes, since: s.since, time_zone: s.timeZone };
}
