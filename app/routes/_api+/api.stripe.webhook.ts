import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { handleStripeWebhook, WebhookSignatureError } from "~/server/billing/stripe.server";
import { log } from "~/server/platform/log.server";

// Stripe → us. The raw body (request.text(), never re-serialised) is what the signature covers.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST")
    return json({ error: { message: "Use POST." } }, { status: 405, headers: { Allow: "POST" } });
  const raw = await request.text();
  try {
    const outcome = await handleStripeWebhook(raw, request.headers.get("stripe-signature"));
    return json({ received: true, duplicate: outcome.duplicate });
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      log("info", "stripe webhook refused", { reason: error.message.slice(0, 120) });
      return json({ error: { message: "Invalid signature." } }, { status: 400 });
    }
    log("error", "stripe webhook failed", { error: String((error as Error).message ?? error) });
    return json({ error: { message: "Webhook handling failed." } }, { status: 500 });
  }
}

export function loader() {
  return json({ error: { message: "Use POST." } }, { status: 405, headers: { Allow: "POST" } });
}
