import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ConnectOptions } from "~/components/ConnectOptions";
import { evaluatedOf } from "~/lib/evaluation-outcome";
import { GradeBadge } from "~/components/GradeBadge";
import { LoadingOverlay } from "~/components/LoadingOverlay";
import { Page } from "~/components/Page";
import { TipsBox } from "~/components/Tips";
import { seo } from "~/lib/seo";
import { outcomeJson } from "~/web/evaluation-api.server";
import { currentEvaluation, evaluateUser, triesLeft } from "~/server/grades/evaluation.server";
import { listLinkedAccounts } from "~/server/linking/imports.server";
import { reimportForEvaluation } from "~/server/linking/linking.server";
import { readForm } from "~/server/http/guards.server";
import { formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Get your grade · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [accounts, tries, current] = await Promise.all([
    listLinkedAccounts(user.id),
    triesLeft(user.id),
    currentEvaluation(user.id),
  ]);
  return json({
    accounts: accounts.map((a) => ({ id: a.id, kind: a.kind, label: a.label, status: a.status })),
    triesLeft: tries,
    current: current
      ? { tier: current.result.tier, stars: current.result.stars?.overall ?? 0, createdAt: current.createdAt }
      : null,
  });
}

const EvaluateForm = z.object({ answer: formText });

// The form behind "Get Grade" / "Refresh Grade". A page's form (with or without JavaScript) is
// redirected to the stats on success or shown the Tips box here. GetGradeButton's fetcher, which
// shows a toast or the Tips dialog in place, asks for the outcome itself with answer=outcome.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let wantsOutcome = false;
  if (request.headers.get("content-type")) {
    const parsed = parseForm(EvaluateForm, await readForm(request));
    wantsOutcome = parsed.ok && parsed.data.answer === "outcome";
  }
  const outcome = await evaluateUser(user.id, "all", reimportForEvaluation);
  const body = outcomeJson(outcome);
  if (wantsOutcome) return json(body);
  if (outcome.code === 200 || outcome.code === 2002)
    return redirect(`/profile/stats?evaluated=${evaluatedOf(outcome.code)}`);
  return json(body);
}

export default function Evaluate() {
  const { accounts, triesLeft, current } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <Page
      title="Get your grade"
      lead="We import your latest trades from your linked accounts and grade them: ROI, holding period and risk."
      narrow
    >
      <LoadingOverlay show={busy} label="Evaluating your trades…" />
      {result && "message" in result && result.message ? <TipsBox code={result.code} message={result.message} /> : null}
      {accounts.length === 0 ? (
        <section className="card">
          <h2>Get Your Grade</h2>
          <p className="muted">Connect Your Accounts With Get Grade: choose where your trades are.</p>
          <ConnectOptions />
        </section>
      ) : (
        <section className="card stack">
          <h2>Confirm To Update Your Grade</h2>
          {current?.tier ? (
            <p>
              Your current grade: <GradeBadge tier={current.tier} stars={current.stars} />
            </p>
          ) : null}
          <p className="muted">
            We'll import the latest history of{" "}
            {accounts.length === 1 ? "your linked account" : `your ${accounts.length} linked accounts`} (
            {accounts.map((a) => a.label).join(", ")}) and grade it. A new grade uses one try when something changed;
            you have {triesLeft} left.
          </p>
          <Form method="post">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? "Evaluating…" : current ? "Refresh Grade" : "Get Grade"}
            </button>{" "}
            <Link to="/profile/account" className="btn btn-ghost">
              Manage accounts
            </Link>
          </Form>
        </section>
      )}
    </Page>
  );
}
