import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field } from "~/components/Field";
import { parseForm } from "~/lib/forms";
import { SettingsSchema } from "~/lib/profile-schemas";
import { getProfile, updateProfile } from "~/server/profile.server";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = () => [{ title: "Settings · Grader" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ profile: await getProfile(user.id) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(SettingsSchema, await request.formData());
  if (!parsed.ok) return json({ saved: false, errors: parsed.errors, values: parsed.values }, { status: 400 });
  const result = await updateProfile(user.id, parsed.data);
  if (result === "username-taken") {
    return json({ saved: false, errors: { username: "That username is taken. Try another." } as Record<string, string>, values: {} as Record<string, string> }, { status: 400 });
  }
  return json({ saved: true, errors: {} as Record<string, string>, values: {} as Record<string, string> });
}

export default function Settings() {
  const { profile } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const v = (k: string, fallback: string | null) => data?.values[k] ?? fallback ?? "";
  return (
    <div className="page narrow">
      <h1>Settings</h1>
      <p className="lead">Signed in as {profile.email}.</p>
      <Form method="post" className="stack card" noValidate>
        {data?.saved ? <p className="form-success" role="status">Your settings are saved.</p> : null}
        <Field label="Username" name="username" required defaultValue={v("username", profile.username)} error={data?.errors.username} autoComplete="username" />
        <Field label="First name" name="first_name" defaultValue={v("first_name", profile.first_name)} error={data?.errors.first_name} autoComplete="given-name" />
        <Field label="Last name" name="last_name" defaultValue={v("last_name", profile.last_name)} error={data?.errors.last_name} autoComplete="family-name" />
        <fieldset className="field">
          <legend>What others see on your profile and card</legend>
          <label className="check">
            <input type="radio" name="show_amounts" value="percentages" defaultChecked={!profile.show_amounts} /> Percentages and grades only
          </label>
          <label className="check">
            <input type="radio" name="show_amounts" value="amounts" defaultChecked={profile.show_amounts} /> Also dollar amounts
          </label>
        </fieldset>
        <button type="submit" className="btn btn-primary">Save settings</button>
      </Form>
      <p><Link to="/user/settings/change-password">Change password</Link></p>
    </div>
  );
}
