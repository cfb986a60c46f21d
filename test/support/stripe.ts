import { readFileSync } from "node:fs";
import path from "node:path";
import Stripe from "stripe";

// Stripe's webhooks as Stripe sends them, for the server in Stripe demo mode: a fixture event
// signed with the demo webhook secret over its raw bytes.
export const DEMO_WEBHOOK_SECRET = "whsec_demo_grader_webhook_secret";
const FIXTURE = readFileSync(
  path.resolve(import.meta.dirname, "../fixtures/stripe/checkout-session-completed.json"),
  "utf8",
);

/** A checkout.session.completed event (paid, the starter pass) for `sessionId`, with a fresh event id. */
export function fixtureEvent(
  sessionId: string,
  patch: { type?: string; payment_status?: string; amount_total?: number } = {},
) {
  const event = JSON.parse(FIXTURE);
  event.id = `evt_test_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  event.created = Math.floor(Date.now() / 1000);
  event.data.object.id = sessionId;
  if (patch.type) event.type = patch.type;
  if (patch.payment_status) event.data.object.payment_status = patch.payment_status;
  if (patch.amount_total !== undefined) event.data.object.amount_total = patch.amount_total;
  return JSON.stringify(event, null, 2);
}

/** The Stripe-Signature header for `payload` (now, or at `timestamp`). */
export function sign(payload: string, timestamp?: number) {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: DEMO_WEBHOOK_SECRET,
    ...(timestamp ? { timestamp } : {}),
  });
}

/** POSTs a signed delivery to a server's webhook. */
export async function deliver(base: string, payload: string, signature: string) {
  return fetch(base + "/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
}

/** Starts a Checkout session for a signed-in user; returns its id. */
export async function newCheckoutSession(base: string, cookie: string, priceId = "price_demo_starter") {
  const res = await fetch(base + "/api/stripe/create_stripe_session", {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: base },
    body: JSON.stringify({ price_id: priceId }),
  });
  if (res.status !== 200) throw new Error(`create_stripe_session: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { client_secret: string; session_id: string } }).data;
}
