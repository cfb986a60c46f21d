import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { cardExpiryError } from "~/lib/card-expiry";
import { isLoopbackUrl } from "~/lib/loopback";
import { seo } from "~/lib/seo";
import { getDb } from "~/server/platform/db.server";
import { getEnv } from "~/server/platform/env.server";
import { formatPrice, passById } from "~/server/billing/passes";
import { isStripeDemo, payDemoCheckout, retrieveDemoSession } from "~/server/billing/stripe.server";
import { requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";
import { Field, FormResult } from "~/components/Field";
import { formError, formRefused, parseForm } from "~/lib/forms";
import { z } from "zod";

export const meta: MetaFunction = (args) => seo(args, { title: "Checkout (demo) · Grader", noindex: true });

// Demo mode only: stands in for Stripe's hosted Checkout page. A server-rendered form (works without
// JavaScript); the card goes to the Stripe simulator, which completes the session and answers the
// signed checkout.session.completed event that Stripe would send; it is delivered over HTTP to our
// own /api/stripe/webhook, so the real verification and fulfilment run. Then back to /pay-result.
function requireDemo() {
  if (!isStripeDemo()) throw new Response("Not Found", { status: 404 });
}

async function ownedSession(request: Request, sessionId: string) {
  const user = await requireUser(request);
  const db = await getDb();
  const ours = await db
    .selectFrom("checkout_sessions")
    .select(["user_id", "pass_id"])
    .where("id", "=", sessionId)
    .executeTakeFirst();
  if (!ours || ours.user_id !== user.id) throw new Response("Not Found", { status: 404 });
  return ours;
}

/**
 * Where the demo "Stripe" delivers its webhook: PUBLIC_URL. Never an address from the request: a
 * Host header naming another local port made this a request to any service on the machine. Only
 * when PUBLIC_URL is this machine (the local demo, where it may name another port than the one we
 * listen on, e.g. PORT=0) does it go to loopback on the port this request was accepted on.
 */
function webhookUrl(localPort: number | undefined): string {
  const publicUrl = new URL(getEnv().PUBLIC_URL);
  const base = isLoopbackUrl(publicUrl.href) && localPort ? `http://127.0.0.1:${localPort}` : publicUrl.origin;
  return `${base}/api/stripe/webhook`;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  requireDemo();
  const sessionId = params.sessionId ?? "";
  const ours = await ownedSession(request, sessionId);
  const session = await retrieveDemoSession(sessionId);
  if (!session) throw new Response("Not Found", { status: 404 });
  if (session.status !== "open") throw redirect(`/pay-result?session_id=${sessionId}`);
  const pass = passById(ours.pass_id);
  return json({ sessionId, passName: pass?.name ?? "Pass", amount: formatPrice(session.amountTotal ?? 0) });
}

// Every field is checked and each error shown beside its field, as Stripe's page does.
const CardForm = z.object({
  card_number: z
    .string()
    .default("")
    .transform((s) => s.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "Your card number is incomplete.")),
  // A real month, not before this one: the page promises "any future expiry", as Stripe checks it.
  expiry: z
    .string()
    .default("")
    .superRefine((expiry, ctx) => {
      const error = cardExpiryError(expiry);
      if (error) ctx.addIssue({ code: z.ZodIssueCode.custom, message: error });
    }),
  cvc: z
    .string()
    .default("")
    .transform((s) => s.trim())
    .pipe(z.string().regex(/^\d{3,4}$/, "Your card's security code is incomplete.")),
});

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireDemo();
  const sessionId = params.sessionId ?? "";
  await ownedSession(request, sessionId);
  const parsed = parseForm(CardForm, await readForm(request));
  // What was typed is not sent back: a card number has no place in the page's data.
  if (!parsed.ok) return json(formRefused({ errors: parsed.errors, values: {} }), { status: 400 });
  const paid = await payDemoCheckout(sessionId, parsed.data.card_number, webhookUrl(context.localPort));
  if (!paid.ok) return json(formError(paid.message), { status: 402 });
  return redirect(`/pay-result?session_id=${sessionId}`);
}

export default function DemoCheckout() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <div className="page narrow">
      <h1>Pay Grader</h1>
      <p className="lead">
        {data.passName} · <strong>{data.amount}</strong>
      </p>
      <p className="muted">
        Demo data: no Stripe keys are configured, so this page stands in for Stripe Checkout and nothing is charged. Use
        the test card <strong>4242 4242 4242 4242</strong> (succeeds) or <strong>4000 0000 0000 0002</strong>{" "}
        (declined), any future expiry and any CVC.
      </p>
      <FormResult
        error={result?.formError ? `${result.formError} Nothing was charged and no pass was granted.` : null}
      />
      <Form method="post" className="card stack" noValidate>
        <Field
          label="Card number"
          id="card-number"
          name="card_number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          required
          error={result?.errors.card_number}
        />
        <Field
          label="Expiry (MM / YY)"
          id="card-expiry"
          name="expiry"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          required
          error={result?.errors.expiry}
        />
        <Field
          label="CVC"
          id="card-cvc"
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
          required
          error={result?.errors.cvc}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Processing…" : `Pay ${data.amount}`}
        </button>
      </Form>
      <p>
        <a href="/pricing?canceled=1">Cancel and go back</a>
      </p>
    </div>
  );
}
