import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { Page } from "~/components/Page";
import { TipsBox } from "~/components/Tips";
import { evaluatedOf, STAY } from "~/lib/evaluation-outcome";
import { seo } from "~/lib/seo";
import { readEvaluationRun } from "~/server/grades/evaluation-runs.server";
import { parseId } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Your evaluation · Grader", noindex: true });

/** Seconds between the page's own refreshes without JavaScript, and its reads with it. */
const FOLLOW_SECONDS = 2;

// An evaluation asked for, followed until its job writes the outcome: a new grade (or nothing
// new) goes on to the stats, a refusal shows the Tips. Only the trader's own runs.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const run = await readEvaluationRun(user.id, parseId(params.id));
  if (!run) throw new Response("Not Found", { status: 404 });
  const outcome = run.state === "done" ? run.outcome : null;
  const success = outcome && (outcome.code === 200 || outcome.code === 2002) ? outcome.code : null;
  // The page goes on to the stats (with JavaScript too: its revalidation follows the redirect). The
  // Get Grade button reads with ?stay and gets the outcome, so the trader stays where they are.
  if (success && !new URL(request.url).searchParams.has(STAY))
    throw redirect(`/profile/stats?evaluated=${evaluatedOf(success)}`);
  return json(
    {
      id: run.id,
      state: run.state,
      outcome: outcome ? { code: outcome.code, message: "message" in outcome ? outcome.message : null } : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function EvaluationRunPage() {
  const run = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const done = run.state === "done";
  useEffect(() => {
    if (done) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, FOLLOW_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [done, revalidator]);
  return (
    <Page title="Your evaluation" narrow>
      {run.outcome?.message ? (
        <TipsBox code={run.outcome.code} message={run.outcome.message} />
      ) : done ? (
        <p className="muted">
          Your evaluation is done. <Link to="/profile/stats">See your grade</Link>
        </p>
      ) : (
        <section className="card stack" aria-busy="true">
          <noscript>
            <meta httpEquiv="refresh" content={String(FOLLOW_SECONDS)} />
          </noscript>
          <h2 role="status">{run.state === "queued" ? "Waiting for its turn…" : "Evaluating your trades…"}</h2>
          <p className="muted">
            We import the latest history of your linked accounts and grade it. This page follows along and takes you to
            your grade when it is ready; you can also leave it; the evaluation goes on.
          </p>
          <div className="spinner" aria-hidden="true" />
        </section>
      )}
    </Page>
  );
}
