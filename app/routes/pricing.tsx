import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Page } from "~/components/Page";
import { seo } from "~/lib/seo";
import { allowanceOf } from "~/server/billing/fulfilment.server";
import { publicPasses } from "~/server/billing/passes";
import { createCheckoutSession, isStripeDemo, UnknownPriceError } from "~/server/billing/stripe.server";
import { getEnv } from "~/server/platform/env.server";
import { triesLeft } from "~/server/grades/evaluation.server";
import { log } from "~/server/platform/log.server";
import { hitLimit } from "~/server/http/rate-limit.server";
import { getSessionUser, requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";
import { FormResult } from "~/components/Field";
import { formError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Pricing · Grader", description: "Free tries and paid passes for Grader evaluations." });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const env = getEnv();
  const canceled = new URL(request.url).searchParams.get("canceled") === "1";
  let me: { triesLeft: number; unlimitedUntil: string | null } | null = null;
  if (user) {
    const allowance = await allowanceOf(user.id);
    const until = allowance.unlimited_until ? new Date(allowance.unlimited_until) : null;
    me = {
      triesLeft: await triesLeft(user.id),
      unlimitedUntil: until && until > new Date() ? until.toISOString() : null,
    };
  }
  // Embedded Checkout needs real keys (Stripe.js cannot load in demo mode); without them, or
  // without JavaScript, or if Stripe.js fails to load, the same form falls back to hosted Checkout.
  const embeddedKey = !isStripeDemo() && env.STRIPE_PUBLISHABLE_KEY ? env.STRIPE_PUBLISHABLE_KEY : null;
  return json({
    passes: publicPasses(),
    freeTries: env.FREE_TRIES,
    daily: env.DAILY_EVALUATIONS,
    me,
    demo: isStripeDemo(),
    canceled,
    embeddedKey,
  });
}

const CheckoutForm = z.object({ price_id: formText });

// Without JavaScript (and, for now, with it): the pass's form creates a hosted Checkout session and
// redirects to Stripe's page (in demo mode, the local stand-in /demo/checkout/:id).
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  // An unknown price is refused by createCheckoutSession (UnknownPriceError), in the words below.
  const parsed = parseForm(CheckoutForm, await readForm(request));
  const priceId = parsed.ok ? parsed.data.price_id : "";
  const limit = await hitLimit("checkout", user.id);
  if (!limit.ok)
    return json(formError("Too many checkout attempts. Please wait a moment and try again."), {
      status: 429,
      headers: { "Retry-After": String(limit.retryAfter) },
    });
  try {
    const session = await createCheckoutSession({
      userId: user.id,
      email: user.email,
      priceId,
      uiMode: "hosted",
      origin: new URL(request.url).origin,
    });
    if (!session.url) throw new Error("no checkout url");
    return redirect(session.url);
  } catch (error) {
    if (error instanceof UnknownPriceError)
      return json(formError("That pass does not exist. Pick one of the passes below."), { status: 400 });
    log("error", "checkout redirect failed", { error: String((error as Error).message ?? error) });
    return json(formError("The payment provider did not answer. Nothing was charged; please try again shortly."), {
      status: 502,
    });
  }
}

type EmbeddedCheckout = { mount: (el: HTMLElement) => void; destroy: () => void };

/**
 * With JavaScript and real keys: intercepts a pass's form, asks our API for an embedded Checkout
 * session (PRODUCT §7) and mounts Stripe's embedded checkout. Any failure (Stripe.js blocked or
 * unreachable, API error) submits the form natively instead: the hosted-checkout redirect.
 */
function useEmbeddedCheckout(publishableKey: string | null) {
  const container = useRef<HTMLDivElement>(null);
  const current = useRef<EmbeddedCheckout | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => () => current.current?.destroy(), []);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!publishableKey) return;
    event.preventDefault();
    const form = event.currentTarget;
    const priceId = String(new FormData(form).get("price_id") ?? "");
    try {
      current.current?.destroy();
      const { loadStripe } = await import("@stripe/stripe-js/pure");
      const stripe = await loadStripe(publishableKey);
      if (!stripe || !container.current) throw new Error("Stripe.js unavailable");
      const checkout = await stripe.createEmbeddedCheckoutPage({
        fetchClientSecret: async () => {
          const res = await fetch("/api/stripe/create_stripe_session", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ price_id: priceId }),
          });
          if (!res.ok) throw new Error(`create_stripe_session ${res.status}`);
          return ((await res.json()) as { data: { client_secret: string } }).data.client_secret;
        },
      });
      current.current = checkout;
      checkout.mount(container.current);
      setOpen(priceId);
      container.current.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch {
      form.submit();
    }
  }
  function close() {
    current.current?.destroy();
    current.current = null;
    setOpen(null);
  }
  return { container, open, onSubmit, close };
}

export default function Pricing() {
  const { passes, freeTries, daily, me, demo, canceled, embeddedKey } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" ? navigation.formData?.get("price_id") : null;
  const embedded = useEmbeddedCheckout(embeddedKey);
  return (
    <Page
      title="Pricing"
      lead="Every account starts with free tries. Passes add evaluations, and some lift the daily limit for a while."
    >
      {me ? (
        <p className="card" data-testid="tries-left">
          You have <strong data-testid="tries-count">{me.triesLeft}</strong>{" "}
          {me.triesLeft === 1 ? "evaluation" : "evaluations"} left
          {me.unlimitedUntil ? (
            <> and no daily limit until {new Date(me.unlimitedUntil).toUTCString().slice(0, 16)}</>
          ) : (
            <>, up to {daily} a day</>
          )}
          .
        </p>
      ) : null}
      {canceled ? (
        <p className="card" role="status">
          Checkout was canceled. Nothing was charged.
        </p>
      ) : null}
      <FormResult error={result?.formError} />
      {demo ? (
        <p className="muted">
          Demo data: no Stripe keys are configured, so checkout goes to a local stand-in page that takes Stripe's test
          cards. Nothing is charged.
        </p>
      ) : null}
      <div className="grid">
        <article className="card plan">
          <h2>Free</h2>
          <p className="price">$0</p>
          <p className="muted">
            {freeTries} evaluations to start, up to {daily} a day.
          </p>
          {me ? null : (
            <Link to="/signup" className="btn btn-ghost">
              Join us for free
            </Link>
          )}
        </article>
        {passes.map((pass) => (
          <article className="card plan" key={pass.id} data-pass={pass.id}>
            <h2>{pass.name}</h2>
            <p className="price">{pass.price}</p>
            <p className="muted">{pass.blurb}</p>
            <ul>
              <li>+{pass.evaluations} evaluations</li>
              {pass.unlimitedDays ? <li>{pass.unlimitedDays} days without the daily limit</li> : null}
              <li>One-time payment, no subscription</li>
            </ul>
            {me ? (
              <Form method="post" onSubmit={embedded.onSubmit}>
                <input type="hidden" name="price_id" value={pass.priceId} />
                <button type="submit" className="btn btn-primary btn-wrap" disabled={pending === pass.priceId}>
                  {pending === pass.priceId ? "Opening checkout…" : `Buy ${pass.name} · ${pass.price}`}
                </button>
              </Form>
            ) : (
              <Link to="/signin" className="btn btn-ghost">
                Log in to buy
              </Link>
            )}
          </article>
        ))}
      </div>
      <section hidden={!embedded.open} aria-label="Checkout">
        <div ref={embedded.container} id="embedded-checkout" />
        <button type="button" className="btn btn-ghost" onClick={embedded.close}>
          Cancel checkout
        </button>
      </section>
    </Page>
  );
}
