import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import Stripe from "stripe";
import { demoPriceId, PASSES } from "../../app/server/billing/passes";

/**
 * A simulator of the Stripe API (https://api.stripe.com) for demo mode and tests, answering the
 * Checkout calls the real `stripe` SDK makes: POST /v1/checkout/sessions and GET
 * /v1/checkout/sessions/:id. Sessions live in memory. DEMO_PAY plays the customer on the stand-in
 * checkout page (app/routes/demo.checkout.$sessionId.tsx): a test card either completes and pays the
 * session and answers the checkout.session.completed event signed as Stripe signs webhooks, or is
 * declined with Stripe's card_error.
 *   4242 4242 4242 4242 → paid;  4000 0000 0000 0002 → card_declined;
 *   4000 0000 0000 0077 → complete but unpaid (an async method still processing).
 */
export const STRIPE_API = "https://api.stripe.com";
export const DEMO_SECRET_KEY = "sk_test_demo_grader";
export const DEMO_WEBHOOK_SECRET = "whsec_demo_grader_webhook_secret";
export const SUCCESS_CARD = "4242424242424242";
export const DECLINED_CARD = "4000000000000002";
export const PROCESSING_CARD = "4000000000000077";

type Session = Record<string, unknown> & { id: string; status: string; payment_status: string };

const randomId = (prefix: string, n = 24) =>
  `${prefix}_${crypto.randomBytes(n).toString("base64url").replace(/[-_]/g, "x").slice(0, n)}`;

function stripeError(status: number, error: Record<string, unknown>) {
  return HttpResponse.json({ error }, { status, headers: { "request-id": randomId("req", 14) } });
}

function demoPrices(): Map<string, { amount: number; currency: string }> {
  return new Map(PASSES.map((p) => [demoPriceId(p.id), { amount: p.priceCents, currency: p.currency }]));
}

/** Signs an event body exactly as Stripe does (Stripe-Signature header value). */
export function signDemoEvent(payload: string, timestamp?: number) {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: DEMO_WEBHOOK_SECRET,
    ...(timestamp ? { timestamp } : {}),
  });
}

export function stripeHandlers() {
  const sessions = new Map<string, Session>();
  const prices = demoPrices();

  function authed(request: Request): Response | null {
    if (request.headers.get("authorization") !== `Bearer ${DEMO_SECRET_KEY}`) {
      return stripeError(401, { type: "invalid_request_error", message: "Invalid API Key provided." });
    }
    return null;
  }

  function event(type: string, session: Session) {
    const payload = JSON.stringify(
      {
        id: randomId("evt", 24),
        object: "event",
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: session },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      },
      null,
      2,
    );
    return { payload, signature: signDemoEvent(payload) };
  }

  return [
    http.post(`${STRIPE_API}/v1/checkout/sessions`, async ({ request }) => {
      const denied = authed(request);
      if (denied) return denied;
      const form = new URLSearchParams(await request.text());
      const priceId = form.get("line_items[0][price]") ?? "";
      const quantity = Number(form.get("line_items[0][quantity]") ?? "1");
      const price = prices.get(priceId);
      if (!price) {
        return stripeError(400, {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "line_items[0][price]",
          message: `No such price: '${priceId}'`,
        });
      }
      const uiMode = form.get("ui_mode") ?? "hosted_page";
      const id = randomId("cs_test", 58);
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const successUrl = form.get("success_url");
      const returnUrl = form.get("return_url");
      const origin = new URL(successUrl ?? returnUrl ?? "http://localhost:3000").origin;
      const session: Session = {
        id,
        object: "checkout.session",
        amount_subtotal: price.amount * quantity,
        amount_total: price.amount * quantity,
        cancel_url: form.get("cancel_url"),
        client_reference_id: form.get("client_reference_id"),
        client_secret: uiMode === "embedded_page" ? `${id}_secret_${crypto.randomBytes(12).toString("hex")}` : null,
        created: Math.floor(Date.now() / 1000),
        currency: price.currency,
        customer_email: form.get("customer_email"),
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
        livemode: false,
        metadata,
        mode: form.get("mode") ?? "payment",
        payment_intent: null,
        payment_status: "unpaid",
        return_url: returnUrl,
        status: "open",
        success_url: successUrl,
        ui_mode: uiMode,
        // Hosted Checkout's page: in demo mode the local stand-in.
        url: uiMode === "hosted_page" ? `${origin}/demo/checkout/${id}` : null,
      };
      sessions.set(id, session);
      return HttpResponse.json(session);
    }),

    http.get(`${STRIPE_API}/v1/checkout/sessions/:id`, ({ request, params }) => {
      const denied = authed(request);
      if (denied) return denied;
      const session = sessions.get(String(params.id));
      if (!session)
        return stripeError(404, {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "id",
          message: `No such checkout.session: '${params.id}'`,
        });
      return HttpResponse.json(session);
    }),

    // Demo only: the customer pays on the stand-in checkout page.
    http.post(`${STRIPE_API}/demo/checkout/sessions/:id/pay`, async ({ request, params }) => {
      const denied = authed(request);
      if (denied) return denied;
      const session = sessions.get(String(params.id));
      if (!session)
        return stripeError(404, {
          type: "invalid_request_error",
          code: "resource_missing",
          message: "No such checkout session.",
        });
      if (session.status !== "open")
        return stripeError(400, {
          type: "invalid_request_error",
          code: "checkout_session_not_open",
          message: "This checkout session is no longer open.",
        });
      const card = (new URLSearchParams(await request.text()).get("card_number") ?? "").replace(/[\s-]/g, "");
      if (card === DECLINED_CARD) {
        return stripeError(402, {
          type: "card_error",
          code: "card_declined",
          decline_code: "generic_decline",
          message: "Your card was declined.",
        });
      }
      if (card !== SUCCESS_CARD && card !== PROCESSING_CARD) {
        return stripeError(402, {
          type: "card_error",
          code: "incorrect_number",
          message: "Your card number is incorrect. In demo mode use 4242 4242 4242 4242.",
        });
      }
      session.status = "complete";
      session.payment_status = card === SUCCESS_CARD ? "paid" : "unpaid";
      session.payment_intent = randomId("pi", 24);
      return HttpResponse.json({ session, webhook: event("checkout.session.completed", session) });
    }),
  ];
}
