import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { formDone, formError, formRefused, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { currentGradeSummary } from "~/server/grades/evaluation.server";
import { requireUser } from "~/server/http/session.server";
import {
  isStarTier,
  starApplication,
  StarApplicationSchema,
  submitStarApplication,
} from "~/server/community/stars.server";
import { readForm } from "~/server/http/guards.server";
import { Field, FormResult } from "~/components/Field";

export const meta: MetaFunction = (args) => seo(args, { title: "Become a Star · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [grade, application] = await Promise.all([currentGradeSummary(user.id), starApplication(user.id)]);
  return json({
    tier: grade?.tier ?? null,
    eligible: isStarTier(grade?.tier),
    hasUsername: Boolean(user.username),
    application: application
      ? {
          status: application.status,
          bio: application.bio,
          strategy: application.strategy,
          markets: application.markets,
        }
      : null,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(StarApplicationSchema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const result = await submitStarApplication(user.id, parsed.data);
  if (!result.ok) {
    const message =
      result.reason === "not_graded"
        ? "Get your grade first: Stars are graded Gold or better."
        : `Your grade is ${result.tier ?? "not set"}; Stars are graded Gold or better.`;
    return json(formError(message, parsed.data), { status: 403 });
  }
  return json(formDone(null, parsed.data));
}

export default function StarApply() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  if (!data.eligible) {
    return (
      <Page title="Become a Star" lead="Traders graded Gold or better can apply to be featured." narrow>
        <EmptyState
          title={data.tier ? `Your grade is ${data.tier}` : "A Gold grade is needed first"}
          action={
            <Link to="/evaluate" className="btn btn-primary">
              {data.tier ? "Refresh Grade" : "Get Grade"}
            </Link>
          }
        >
          {data.tier
            ? "Stars are graded Gold, Master or Legend. Keep trading and refresh your grade; once it reaches Gold you can apply here."
            : "Once you hold a Gold grade or better you can apply here with a short bio, your strategy and your markets."}
        </EmptyState>
      </Page>
    );
  }
  const status = result?.ok
    ? data.application?.status === "approved"
      ? "approved"
      : "pending"
    : data.application?.status;
  const values = result?.values ?? data.application ?? undefined;
  return (
    <Page
      title="Become a Star"
      lead={`Your grade is ${data.tier}: you can apply to be featured in the Stars directory.`}
      narrow
    >
      {status ? (
        <p className="card" role="status" data-status={status}>
          {status === "pending" &&
            "Your application is under review. We'll feature you once it is approved; you can still edit it below."}
          {status === "approved" && (
            <>
              You are a Star! See <Link to="/star-personal">your dashboard</Link>. Edits below update your showcase.
            </>
          )}
          {status === "rejected" && "Your last application was not approved. You can edit it and apply again."}
        </p>
      ) : null}
      <FormResult error={result?.formError} />
      {!data.hasUsername ? (
        <p className="muted">
          Tip: set a username in <Link to="/user/settings">settings</Link> so your showcase gets its own link.
        </p>
      ) : null}
      <Form method="post" className="card stack" noValidate>
        <Field
          as="textarea"
          label="Short bio"
          name="bio"
          error={result?.errors.bio}
          defaultValue={values?.bio}
          rows={3}
        />
        <Field
          as="textarea"
          label="Your strategy"
          name="strategy"
          error={result?.errors.strategy}
          defaultValue={values?.strategy}
          rows={5}
        />
        <Field
          label="Markets you trade"
          name="markets"
          placeholder="US stocks, ETFs, crypto"
          defaultValue={values?.markets}
          error={result?.errors.markets}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {data.application ? "Update application" : "Apply"}
        </button>
      </Form>
    </Page>
  );
}
