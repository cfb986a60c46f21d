import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { OAuthButtons } from "~/components/OAuthButtons";
import { Field, FormResult, Honeypot } from "~/components/Field";
import { PASSWORD_MAX, PASSWORD_MIN, SignupSchema } from "~/lib/auth-schemas";
import { fieldError, formRefused, parseForm } from "~/lib/forms";
import { signUp } from "~/server/accounts/account.server";
import { redirectIfSignedIn, tooManyRequests } from "~/server/http/auth.server";
import { readForm } from "~/server/http/guards.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Join us for free · Grader",
    description: "Join Grader for free: link your broker or wallet and get your real trading performance graded.",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  // ?ref=<username>: the referral link from /airdrop, kept in a hidden field.
  return { ref: (new URL(request.url).searchParams.get("ref") ?? "").slice(0, 40) };
}

// Said when the email is taken: the person who owns it needs to know where to go, so this much
// is revealed; sign-up is rate-limited per IP and per email so it cannot be used to list accounts.
export const EMAIL_TAKEN =
  "This email can't be used to create a new account. If it's yours, log in or reset your password.";

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseForm(SignupSchema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const { email, password, ref } = parsed.data;
  const signup = await signUp(request, { email, password, ref });
  if (!signup.ok && signup.reason === "throttled") return tooManyRequests(signup.retryAfter, signup.message);
  if (!signup.ok) return json(fieldError("email", EMAIL_TAKEN, { email }), { status: 400 });
  return redirect("/user-questions", { headers: { "Set-Cookie": signup.setCookie } });
}

export default function Signup() {
  const data = useActionData<typeof action>();
  const { ref } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  return (
    <div className="page narrow">
      <h1>Join us for free</h1>
      <p className="lead">Create your account, link a broker or wallet, and get graded.</p>
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
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Any characters, spaces and emoji included.`}
          error={data?.errors.password}
        />
        {ref ? <input type="hidden" name="ref" value={ref} /> : null}
        <Honeypot />
        <button type="submit" className="btn btn-primary" disabled={submitting}>
          {submitting ? "Creating your account…" : "Create account"}
        </button>
      </Form>
      <OAuthButtons />
      <p className="muted">
        Already have an account? <Link to="/signin">Log in</Link>
      </p>
    </div>
  );
}
