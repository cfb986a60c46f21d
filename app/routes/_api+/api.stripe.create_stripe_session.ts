import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { CheckoutBody } from "~/server/http/api-schemas.server";
import { createCheckoutSession, UnknownPriceError } from "~/server/billing/stripe.server";
import { log } from "~/server/platform/log.server";
import { hitLimit } from "~/server/http/rate-limit.server";

// PRODUCT §7: POST /api/stripe/create_stripe_session { price_id } → { client_secret } (embedded Checkout).

export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const { price_id } = await readBody(request, CheckoutBody);
  const limit = await hitLimit("checkout", user.id);
  if (!limit.ok)
    return apiError(429, "Too many checkout attempts. Please wait a moment and try again.", undefined, {
      "Retry-After": String(limit.retryAfter),
    });
  try {
    const session = await createCheckoutSession({
      userId: user.id,
      email: user.email,
      priceId: price_id,
      uiMode: "embedded",
      origin: new URL(request.url).origin,
    });
    return apiData({ client_secret: session.clientSecret, session_id: session.id });
  } catch (error) {
    if (error instanceof UnknownPriceError)
      return apiError(400, "Unknown price id.", { price_id: "No pass has this price id." });
    log("error", "stripe session failed", { error: String((error as Error).message ?? error) });
    return apiError(502, "The payment provider did not answer. Please try again shortly.");
  }
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
