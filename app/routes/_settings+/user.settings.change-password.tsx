import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormResult } from "~/components/Field";
import { password, PASSWORD_MAX, PASSWORD_MIN } from "~/lib/auth-schemas";
import { fieldError, formDone, formRefused, parseForm } from "~/lib/forms";
import { changePassword } from "~/server/accounts/account.server";
import { tooManyRequests } from "~/server/http/auth.server";
import { hitLimit } from "~/server/http/rate-limit.server";
import { requireUser, sessionTokenFrom } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = (args) => seo(args, { title: "Change password · Grader", noindex: true });

const Schema = z
  .object({ current: z.string().min(1, "Enter your current password.").max(1024), password, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords don't match." });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const limit = await hitLimit("change-password", user.id);
  if (!limit.ok) return tooManyRequests(limit.retryAfter);
  const parsed = parseForm(Schema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const ok = await changePassword(user.id, sessionTokenFrom(request), parsed.data.current, parsed.data.password);
  if (!ok) return json(fieldError("current", "That is not your current password."), { status: 400 });
  return json(formDone("Your password is changed."));
}

export default function ChangePassword() {
  const data = useActionData<typeof action>();
  return (
    <div className="page narrow">
      <h1>Change password</h1>
      <p className="lead">Your other devices are signed out when you change it.</p>
      <Form method="post" className="stack card" noValidate>
        {data?.ok ? (
          <p className="form-success" role="status">
            {data.notice}
          </p>
        ) : null}
        <FormResult error={data?.formError} />
        <Field
          label="Current password"
          name="current"
          type="password"
          autoComplete="current-password"
          required
          error={data?.errors.current}
        />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          required
          error={data?.errors.password}
        />
        {/* The same limit as the first field, or a pasted long password is cut in one field only and "doesn't match". */}
        <Field
          label="Repeat the new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          required
          error={data?.errors.confirm}
        />
        <button type="submit" className="btn btn-primary">
          Change password
        </button>
      </Form>
      <p>
        <Link to="/user/settings">Back to settings</Link>
      </p>
    </div>
  );
}
