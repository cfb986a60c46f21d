import Stripe from "stripe";
import { getDb, type DB } from "../platform/db.server";
import { isSimulated } from "../platform/demo.server";
import { getEnv } from "../platform/env.server";
import { log } from "../platform/log.server";
import {
  fulfilCheckoutSession,
  markCheckoutStatus,
  type CheckoutSnapshot,
  type FulfilmentResult,
} from "./fulfilment.server";
import { passById, passByPriceId, stripePriceId, type Pass } from "./passes";

/**
 * Stripe Checkout on the official `stripe` SDK. Without STRIPE_SECRET_KEY (demo mode) the SDK uses
 * a demo key and talks to the msw simulator (test/mocks/stripe.ts), which answers like the API; the
 * stand-in checkout page (/demo/checkout/:id) plays the customer and the simulator signs the
 * webhook with DEMO_WEBHOOK_SECRET, so fulfilment runs the same code in both modes.
 */
// Duplicated in test/mocks/stripe.ts (app code never imports test/).
export const DEMO_SECRET_KEY = "sk_test_demo_grader";
export const DEMO_WEBHOOK_SECRET = "whsec_demo_grader_webhook_secret";
export const DEMO_PAY_URL = "https://api.stripe.com/demo/checkout/sessions";

export function isStripeDemo(): boolean {
  return isSimulated("stripe");
}

let client: Stripe | undefined;
export function stripe(): Stripe {
  if (client) return client;
  const env = getEnv();
  client = new Stripe(env.STRIPE_SECRET_KEY ?? DEMO_SECRET_KEY, {
    // fetch: msw intercepts it in demo mode and tests; Node 20 has it built in.
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "Grader" },
  });
  return client;
}

/** The webhook signing secret: the configured one, or the demo one when Stripe runs in demo mode. */
export function webhookSecret(): string | undefined {
  const env = getEnv();
  if (env.STRIPE_WEBHOOK_SECRET) return env.STRIPE_WEBHOOK_SECRET;
  return isStripeDemo() ? DEMO_WEBHOOK_SECRET : undefined;
}

export type UiMode = "embedded" | "hosted";

export class UnknownPriceError extends Error {}

/**
 * Creates a Checkout session for one pass and records it (who pays for what). Embedded mode answers
 * a client_secret for Stripe.js; hosted mode a URL to redirect to. The return goes to /pay-result.
 */
export async function createCheckoutSession(opts: {
  userId: number;
  email: string;
  priceId: string;
  uiMode: UiMode;
  origin: string;
}) {
  const pass = passByPriceId(opts.priceId);
  if (!pass) throw new UnknownPriceError(`unknown price id`);
  const returnUrl = `${opts.origin}/pay-result?session_id={CHECKOUT_SESSION_ID}`;
  const base: Stripe.Checkout.SessionCreateParams = {
    mode: "payment",
    line_items: [{ price: stripePriceId(pass), quantity: 1 }],
    client_reference_id: String(opts.userId),
    customer_email: opts.email,
    metadata: { user_id: String(opts.userId), pass_id: pass.id },
  };
  const params: Stripe.Checkout.SessionCreateParams =
    opts.uiMode === "embedded"
      ? { ...base, ui_mode: "embedded_page", return_url: returnUrl }
      : { ...base, ui_mode: "hosted_page", success_url: returnUrl, cancel_url: `${opts.origin}/pricing?canceled=1` };
  const session = await stripe().checkout.sessions.create(params);
  const db = await getDb();
  await db
    .insertInto("checkout_sessions")
    .values({
      id: session.id,
      user_id: opts.userId,
      pass_id: pass.id,
      price_id: stripePriceId(pass),
      amount_cents: session.amount_total ?? pass.priceCents,
      currency: session.currency ?? pass.currency,
      ui_mode: opts.uiMode,
    })
    .execute();
  return { id: session.id, clientSecret: session.client_secret, url: session.url, pass };
}

function snapshot(session: Stripe.Checkout.Session): CheckoutSnapshot {
  return {
    id: session.id,
    status: session.status ?? null,
    paymentStatus: session.payment_status,
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
  };
}

export type PaymentView = {
  state: "paid" | "processing" | "failed" | "open" | "expired";
  pass: Pick<Pass, "id" | "name" | "evaluations" | "unlimitedDays"> | null;
  granted: boolean;
};

/**
 * The return page: retrieves the session from Stripe (never trusts the URL alone), fulfils it
 * through the same idempotent function as the webhook when it is paid, and says honestly where it
 * stands. Only the session's owner may look at it.
 */
export async function settleReturnedSession(sessionId: string, userId: number): Promise<PaymentView | null> {
  const db = await getDb();
  const ours = await db
    .selectFrom("checkout_sessions")
    .select(["id", "user_id", "pass_id", "status"])
    .where("id", "=", sessionId)
    .executeTakeFirst();
  if (!ours || ours.user_id !== userId) return null;
  const session = await stripe().checkout.sessions.retrieve(sessionId);
  const snap = snapshot(session);
  let result: FulfilmentResult | null = null;
  if (snap.status === "complete" && snap.paymentStatus === "paid") result = await fulfilCheckoutSession(snap);
  const row = await db
    .selectFrom("checkout_sessions")
    .select(["status", "pass_id"])
    .where("id", "=", sessionId)
    .executeTakeFirstOrThrow();
  const grant = await db
    .selectFrom("pass_grants")
    .select("pass_id")
    .where("checkout_session_id", "=", sessionId)
    .executeTakeFirst();
  const pass = passById(row.pass_id) ?? null;
  let state: PaymentView["state"];
  if (grant || result?.ok) state = "paid";
  else if (row.status === "failed") state = "failed";
  else if (snap.status === "expired" || row.status === "expired") state = "expired";
  else if (snap.status === "complete" || row.status === "processing") state = "processing";
  else state = "open";
  return {
    state,
    pass: pass
      ? { id: pass.id, name: pass.name, evaluations: pass.evaluations, unlimitedDays: pass.unlimitedDays }
      : null,
    granted: Boolean(grant),
  };
}

export class WebhookSignatureError extends Error {}

/**
 * POST /api/stripe/webhook: verifies Stripe-Signature over the raw body (default tolerance, 300 s),
 * records the event id once and handles it in the same transaction, so a replay does nothing and a
 * failure leaves the id unrecorded for Stripe's retry.
 */
export async function handleStripeWebhook(
  rawBody: string,
  signature: string | null,
): Promise<{ duplicate: boolean; type: string }> {
  const secret = webhookSecret();
  if (!secret) throw new Error("STRIPE_WEBHOOK_SECRET is not configured");
  let event: Stripe.Event;
  try {
    event = await Stripe.webhooks.constructEventAsync(rawBody, signature ?? "", secret);
  } catch (error) {
    throw new WebhookSignatureError(String((error as Error).message ?? error));
  }
  const db = await getDb();
  // The event id and its effects commit together: a crash in between leaves neither, so Stripe's
  // retry is processed; a concurrent duplicate waits on the primary key and then does nothing.
  const duplicate = await db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!recorded) return true;
    await handleEvent(event, trx);
    return false;
  });
  if (duplicate) return { duplicate: true, type: event.type };
  return { duplicate: false, type: event.type };
}

async function handleEvent(event: Stripe.Event, trx: DB) {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object as Stripe.Checkout.Session;
      if (session.payment_status === "paid") await fulfilCheckoutSession(snapshot(session), trx);
      else await markCheckoutStatus(session.id, "processing", trx);
      return;
    }
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object as Stripe.Checkout.Session;
      await fulfilCheckoutSession(snapshot(session), trx);
      return;
    }
    case "checkout.session.async_payment_failed":
      await markCheckoutStatus((event.data.object as Stripe.Checkout.Session).id, "failed", trx);
      return;
    case "checkout.session.expired":
      await markCheckoutStatus((event.data.object as Stripe.Checkout.Session).id, "expired", trx);
      return;
    default:
      log("debug", "stripe event ignored", { type: event.type });
  }
}

/**
 * Demo mode only: the stand-in checkout page pays with a test card at the simulator, which answers
 * the signed webhook Stripe would send; it is delivered over HTTP to our own endpoint.
 */
export async function payDemoCheckout(
  sessionId: string,
  cardNumber: string,
  webhookUrl: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!isStripeDemo()) throw new Error("not in demo mode");
  const res = await fetch(`${DEMO_PAY_URL}/${encodeURIComponent(sessionId)}/pay`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO_SECRET_KEY}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ card_number: cardNumber }),
  });
  const body = (await res.json()) as { error?: { message: string }; webhook?: { payload: string; signature: string } };
  if (!res.ok || !body.webhook)
    return { ok: false, message: body.error?.message ?? "The payment could not be completed." };
  const delivered = await fetch(webhookUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": body.webhook.signature,
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    },
    body: body.webhook.payload,
  });
  if (!delivered.ok) log("error", "demo webhook delivery failed", { status: delivered.status });
  return { ok: true };
}

/** Demo page data: the session as the simulator has it. */
export async function retrieveDemoSession(sessionId: string) {
  if (!isStripeDemo()) return null;
  try {
    const session = await stripe().checkout.sessions.retrieve(sessionId);
    return {
      id: session.id,
      status: session.status,
      paymentStatus: session.payment_status,
      amountTotal: session.amount_total,
      currency: session.currency,
      passId: session.metadata?.pass_id ?? null,
    };
  } catch {
    return null;
  }
}
