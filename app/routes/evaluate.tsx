import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ConnectOptions } from "~/components/ConnectOptions";
import { evaluationRunPath } from "~/lib/evaluation-outcome";
import { GradeBadge } from "~/components/GradeBadge";
import { LoadingOverlay } from "~/components/LoadingOverlay";
import { Page } from "~/components/Page";
import { TipsBox } from "~/components/Tips";
import { seo } from "~/lib/seo";
import { outcomeJson } from "~/web/evaluation-api.server";
import { currentEvaluation, triesLeft } from "~/server/grades/evaluation.server";
import { openEvaluationRun, requestEvaluation } from "~/server/grades/evaluation-runs.server";
import { listLinkedAccounts } from "~/server/linking/imports.server";
import { readForm } from "~/server/http/guards.server";
import { formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Get your grade · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [accounts, tries, current, running] = await Promise.all([
    listLinkedAccounts(user.id),
    triesLeft(user.id),
    currentEvaluation(user.id),
    openEvaluationRun(user.id),
  ]);
  return json({
    accounts: accounts.map((a) => ({ id: a.id, kind: a.kind, label: a.label, status: a.status })),
    triesLeft: tries,
    running,
    current: current
      ? { tier: current.result.tier, stars: current.result.stars?.overall ?? 0, createdAt: current.createdAt }
      : null,
  });
}

const EvaluateForm = z.object({ answer: formText });

// The form behind "Get Grade" / "Refresh Grade". The evaluation runs as a job: a refusal answers
// at once (the Tips box here), an accepted one goes to its status page, which follows it to the
// stats. GetGradeButton's fetcher asks with answer=outcome and follows the run itself.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let wantsOutcome = false;
  if (request.headers.get("content-type")) {
    const parsed = parseForm(EvaluateForm, await readForm(request));
    wantsOutcome = parsed.ok && parsed.data.answer === "outcome";
  }
  const asked = await requestEvaluation(user.id, "all");
  if ("runId" in asked) return wantsOutcome ? json({ run: asked.runId }) : redirect(evaluationRunPath(asked.runId));
  return json(outcomeJson(asked));
}

export default function Evaluate() {
  const { accounts, triesLeft, current, running } = useLoaderData<typeof loader>();
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
      {running ? (
        <p className="form-success" role="status">
          Your evaluation is running. <Link to={evaluationRunPath(running)}>Follow it</Link>
        </p>
      ) : null}
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
