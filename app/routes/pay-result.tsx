import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { seo } from "~/lib/seo";
import { settleReturnedSession, type PaymentView } from "~/server/billing/stripe.server";
import { triesLeft } from "~/server/grades/evaluation.server";
import { log } from "~/server/platform/log.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Payment result · Grader", noindex: true });

type PayResult = { view: PaymentView | null; error: string | null; triesLeft: number };

// Checkout returns here with ?session_id=…: the session is retrieved from Stripe and, when paid,
// fulfilled through the same idempotent function as the webhook (whichever comes first grants).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId))
    return json<PayResult>({ view: null, error: null, triesLeft: await triesLeft(user.id) });
  try {
    const view = await settleReturnedSession(sessionId, user.id);
    return json<PayResult>({ view, error: null, triesLeft: await triesLeft(user.id) }, { status: view ? 200 : 404 });
  } catch (error) {
    log("error", "pay-result retrieve failed", { error: String((error as Error).message ?? error) });
    return json<PayResult>(
      {
        view: null,
        error:
          "We could not reach the payment provider to check this payment. If you paid, your pass is granted as soon as Stripe tells us; reload this page in a minute.",
        triesLeft: await triesLeft(user.id),
      },
      { status: 502 },
    );
  }
}

const TEXT: Record<PaymentView["state"], { title: string; body: string }> = {
  paid: { title: "Payment successful", body: "Thank you! Your pass is active." },
  processing: {
    title: "Payment processing",
    body: "Your payment is being processed. The pass is granted as soon as it succeeds; this can take a few minutes for some payment methods.",
  },
  failed: {
    title: "Payment failed",
    body: "The payment did not go through, and nothing was granted. You can try again with another payment method.",
  },
  open: { title: "Payment not completed", body: "This checkout was not completed, so nothing was charged or granted." },
  expired: {
    title: "Checkout expired",
    body: "This checkout expired before it was paid. Nothing was charged or granted.",
  },
};

export default function PayResult() {
  const { view, error, triesLeft } = useLoaderData<typeof loader>();
  if (error) {
    return (
      <Page title="Payment result" narrow>
        <p className="form-error" role="alert">
          {error}
        </p>
      </Page>
    );
  }
  if (!view) {
    return (
      <Page title="Payment result" narrow>
        <EmptyState
          title="No payment to show"
          action={
            <Link to="/pricing" className="btn btn-ghost">
              See pricing
            </Link>
          }
        >
          After a checkout you come back here to see whether it was paid, is processing, or failed.
        </EmptyState>
      </Page>
    );
  }
  const text = TEXT[view.state];
  return (
    <Page title="Payment result" narrow>
      <section
        className={view.state === "paid" ? "card" : view.state === "processing" ? "card" : "form-error"}
        role="status"
        data-state={view.state}
      >
        <h2>{text.title}</h2>
        <p>{text.body}</p>
        {view.pass ? (
          <p className="muted">
            {view.pass.name}: +{view.pass.evaluations} evaluations
            {view.pass.unlimitedDays ? `, ${view.pass.unlimitedDays} days without the daily limit` : ""}.
          </p>
        ) : null}
      </section>
      <p>
        Evaluations left: <strong data-testid="tries-count">{triesLeft}</strong>
      </p>
      <p className="stack-row">
        {view.state === "paid" ? (
          <Link to="/evaluate" className="btn btn-primary">
            Get your grade
          </Link>
        ) : (
          <Link to="/pricing" className="btn btn-primary">
            Back to pricing
          </Link>
        )}
      </p>
    </Page>
  );
}
