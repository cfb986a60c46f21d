import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormResult, Honeypot } from "~/components/Field";
import { email, honeypot } from "~/lib/auth-schemas";
import { formRefused, parseForm } from "~/lib/forms";
import { requestPasswordReset } from "~/server/accounts/account.server";
import { tooManyRequests } from "~/server/http/auth.server";
import { clientIp, hitLimit } from "~/server/http/rate-limit.server";
import { readForm } from "~/server/http/guards.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Forgot password · Grader", description: "Reset the password of your Grader account." });

const Schema = z.object({ email, website: honeypot });

export async function action({ request }: ActionFunctionArgs) {
  const ipLimit = await hitLimit("forgot-ip", clientIp(request));
  if (!ipLimit.ok) return tooManyRequests(ipLimit.retryAfter);
  const parsed = parseForm(Schema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const emailLimit = await hitLimit("forgot-email", parsed.data.email);
  // Over the per-email limit we still answer the same way, without sending another mail.
  if (emailLimit.ok) await requestPasswordReset(parsed.data.email);
  return redirect("/forgot-request-success");
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>();
  return (
    <div className="page narrow">
      <h1>Forgot your password?</h1>
      <p className="lead">Enter your email and we'll send you a link to choose a new one.</p>
      <Form method="post" className="stack card" noValidate>
        <FormResult error={data?.formError} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={data?.values.email ?? ""}
          error={data?.errors.email}
        />
        <Honeypot />
        <button type="submit" className="btn btn-primary">
          Send reset link
        </button>
      </Form>
      <p className="muted">
        <Link to="/signin">Back to log in</Link>
      </p>
    </div>
  );
}
