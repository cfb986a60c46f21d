import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Field } from "~/components/Field";
import { fieldError, formRefused, parseForm } from "~/lib/forms";
import { EXPERIENCE, EXPERIENCE_LABELS, MARKET_LABELS, MARKETS, OnboardingSchema } from "~/lib/profile-schemas";
import { getProfile, updateProfile } from "~/server/accounts/profile.server";
import { requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Tell us about you · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ profile: await getProfile(user.id) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(OnboardingSchema, await readForm(request), { arrays: ["markets"] });
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const result = await updateProfile(user.id, { ...parsed.data, onboarded: true });
  if (result === "username-taken") {
    return json(fieldError("username", "That username is taken. Try another.", parsed.values), { status: 400 });
  }
  return redirect("/community");
}

export default function UserQuestions() {
  const { profile } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const v = (k: string, fallback: string | null | undefined) => data?.values[k] ?? fallback ?? "";
  const chosenMarkets = data?.values.markets !== undefined ? data.values.markets.split(",") : profile.markets;
  return (
    <div className="page narrow">
      <h1>Tell us about you</h1>
      <p className="lead">A few answers so other traders know who is behind the grade.</p>
      <Form method="post" className="stack card" noValidate>
        <Field
          label="Username"
          name="username"
          required
          defaultValue={v("username", profile.username)}
          hint="3 to 30 characters: lowercase letters, digits and _."
          error={data?.errors.username}
          autoComplete="username"
        />
        <Field
          label="First name"
          name="first_name"
          defaultValue={v("first_name", profile.first_name)}
          error={data?.errors.first_name}
          autoComplete="given-name"
        />
        <Field
          label="Last name"
          name="last_name"
          defaultValue={v("last_name", profile.last_name)}
          error={data?.errors.last_name}
          autoComplete="family-name"
        />
        <fieldset className="field">
          <legend>Markets you trade</legend>
          {MARKETS.map((m) => (
            <label key={m} className="check">
              <input type="checkbox" name="markets" value={m} defaultChecked={chosenMarkets.includes(m)} />{" "}
              {MARKET_LABELS[m]}
            </label>
          ))}
          {data?.errors.markets ? <p className="field-error">Choose from the listed markets.</p> : null}
        </fieldset>
        <Field
          as="select"
          label="Trading experience"
          name="experience"
          defaultValue={v("experience", profile.experience)}
          options={EXPERIENCE.map((e) => [e, EXPERIENCE_LABELS[e]] as const)}
          error={data?.errors.experience}
        >
          <option value="">Choose…</option>
        </Field>
        <button type="submit" className="btn btn-primary">
          Continue
        </button>
      </Form>
    </div>
  );
}
