import type { ActionFunctionArgs } from "@remix-run/node";
import { WebhookRejected } from "~/sources/plaid.server";
import { handlePlaidWebhook, verifyPlaidWebhook } from "~/server/linking/providers/plaid.server";
import { apiData, apiError } from "~/server/http/api.server";
import { log } from "~/server/platform/log.server";

// POST /api/finance/plaid/webhook: Plaid's signed webhooks (exempt from the Origin check; the
// Plaid-Verification JWT authenticates them). Anything that fails verification answers 400.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
  const raw = await request.text(); // the exact bytes Plaid hashed
  if (raw.length > 100_000) return apiError(400, "Webhook rejected.");
  let hook;
  try {
    hook = await verifyPlaidWebhook(raw, request.headers);
  } catch (error) {
    log("info", "plaid webhook rejected", {
      reason: error instanceof WebhookRejected ? error.message : "verification error",
    });
    return apiError(400, "Webhook rejected.");
  }
  const result = await handlePlaidWebhook(hook);
  log("info", "plaid webhook", { type: hook.webhook_type, code: hook.webhook_code, ...result });
  return apiData({ received: true, ...result });
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
