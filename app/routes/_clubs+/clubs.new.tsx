import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormResult } from "~/components/Field";
import { Page } from "~/components/Page";
import { formError, formRefused, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { TIERS } from "~/lib/vocabulary";
import {
  CLUB_DESCRIPTION_MAX,
  CLUB_MARKETS_MAX,
  CLUB_NAME_MAX,
  ClubInput,
  createClub,
  creationRefusal,
} from "~/server/community/clubs.server";
import { readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Create a club · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ refusal: await creationRefusal(user.id) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(ClubInput, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const result = await createClub(user.id, parsed.data);
  if (!result.ok) return json(formError(result.message, parsed.values), { status: result.status });
  return redirect(`/clubs/${result.slug}?notice=created`, 303);
}

export default function NewClub() {
  const { refusal } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const v = reply?.values ?? {};
  return (
    <Page
      title="Create a club"
      narrow
      lead="A place for traders who share your markets. You become its owner and first moderator."
    >
      <p>
        <Link to="/clubs">← Clubs</Link>
      </p>
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : (
        <Form method="post" className="stack" noValidate>
          <FormResult error={reply?.formError} />
          <Field
            label="Name"
            name="name"
            required
            maxLength={CLUB_NAME_MAX}
            defaultValue={v.name}
            error={reply?.errors.name}
          />
          <Field
            as="textarea"
            label="Description"
            name="description"
            rows={4}
            required
            maxLength={CLUB_DESCRIPTION_MAX}
            defaultValue={v.description}
            error={reply?.errors.description}
            hint="What the club talks about, and who it is for."
          />
          <Field
            label="Markets"
            name="markets"
            maxLength={CLUB_MARKETS_MAX}
            defaultValue={v.markets}
            error={reply?.errors.markets}
            hint="For example: US tech stocks, BTC, options."
          />
          <Field
            as="select"
            label="Minimum verified grade to join"
            name="min_tier"
            defaultValue={v.min_tier ?? ""}
            error={reply?.errors.min_tier}
            options={[["", "None: anyone can join"], ...TIERS.map((t) => [t, `${t} or better`] as const)]}
          />
          <fieldset className="field">
            <legend>Who can join</legend>
            <label className="checkbox">
              <input type="radio" name="join_policy" value="open" defaultChecked={v.join_policy !== "request"} /> Open:
              anyone who meets the grade joins at once
            </label>
            <label className="checkbox">
              <input type="radio" name="join_policy" value="request" defaultChecked={v.join_policy === "request"} /> By
              request: you or a moderator approves each member
            </label>
            {reply?.errors.join_policy ? <p className="field-error">{reply.errors.join_policy}</p> : null}
          </fieldset>
          <button type="submit" className="btn btn-primary">
            Create the club
          </button>
        </Form>
      )}
    </Page>
  );
}
