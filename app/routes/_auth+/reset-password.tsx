import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormResult } from "~/components/Field";
import { password, PASSWORD_MAX, PASSWORD_MIN } from "~/lib/auth-schemas";
import { formError, formRefused, parseForm } from "~/lib/forms";
import { resetPassword } from "~/server/accounts/account.server";
import { getDb } from "~/server/platform/db.server";
import { peekToken } from "~/server/accounts/tokens.server";
import { readForm } from "~/server/http/guards.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Choose a new password · Grader", noindex: true });

const Schema = z
  .object({ token: z.string().min(1).max(100), password, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords don't match." });

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await peekToken(await getDb(), token, "reset");
  return json({ token, valid });
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseForm(Schema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const ok = await resetPassword(parsed.data.token, parsed.data.password);
  if (!ok)
    return json(formError("This reset link has expired or was already used. Ask for a new one."), { status: 400 });
  return redirect("/signin?reset=1");
}

export default function ResetPassword() {
  const { token, valid } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  if (!valid && !data) {
    return (
      <div className="page narrow">
        <h1>This link has expired</h1>
        <p className="lead">Reset links work once and for 30 minutes.</p>
        <Link to="/forgot-password" className="btn btn-primary">
          Ask for a new link
        </Link>
      </div>
    );
  }
  return (
    <div className="page narrow">
      <h1>Choose a new password</h1>
      <Form method="post" className="stack card" noValidate>
        <FormResult error={data?.formError} />
        <input type="hidden" name="token" value={token} />
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
          Save new password
        </button>
      </Form>
    </div>
  );
}
