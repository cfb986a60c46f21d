import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { OAuthButtons } from "~/components/OAuthButtons";
import { Field, FormResult, Honeypot } from "~/components/Field";
import { notify } from "~/components/Toaster";
import { SigninSchema } from "~/lib/auth-schemas";
import { formError, formRefused, parseForm } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { redirectIfSignedIn, tooManyRequests } from "~/server/http/auth.server";
import { signIn } from "~/server/accounts/login.server";
import { readForm } from "~/server/http/guards.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Log in · Grader",
    description: "Log in to Grader to see your grade, share your performance card and talk with verified traders.",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return null;
}

// Same message and status for an unknown email and a wrong password (no enumeration).
const LOGIN_FAILED = "Wrong email or password.";

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseForm(SigninSchema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const { email, password, next } = parsed.data;
  const values = { email, next: next ?? "" };
  const login = await signIn(request, email, password);
  if (!login.ok && login.reason === "throttled") return tooManyRequests(login.retryAfter, login.message);
  if (!login.ok) return json(formError(LOGIN_FAILED, values), { status: 400 });
  const headers = new Headers();
  for (const cookie of login.cookies) headers.append("Set-Cookie", cookie);
  return redirect(safeRedirect(next), { headers });
}

// /signin?error=… from the Google and Apple sign-in callbacks (app/server/oauth).
const OAUTH_ERRORS: Record<string, string> = {
  google: "We couldn't sign you in with Google. Please try again.",
  apple: "We couldn't sign you in with Apple. Please try again.",
  "google-cancelled": "Google sign-in was cancelled.",
  "apple-cancelled": "Apple sign-in was cancelled.",
  "google-unverified":
    "Google hasn't verified that email address, so we can't connect it to the Grader account that uses it. Log in with your password instead.",
  "apple-unverified":
    "Apple hasn't verified that email address, so we can't connect it to the Grader account that uses it. Log in with your password instead.",
  "oauth-rate": "Too many sign-in attempts. Please wait a minute and try again.",
};

export default function Signin() {
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const toastId = useRef<string | null>(null);
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/signin");

  // PRODUCT §8 toasts, when JavaScript runs: progress, then success or failure.
  useEffect(() => {
    if (submitting && !toastId.current) toastId.current = notify.loading("Signing in, please wait...");
  }, [submitting]);
  useEffect(() => {
    if (navigation.state !== "idle" || !toastId.current) return;
    notify.dismiss(toastId.current);
    toastId.current = null;
    if (data) notify.error("Failed to log in!");
  }, [navigation.state, data]);
  useEffect(() => {
    // A redirect after the POST means the login worked.
    if (
      navigation.state === "loading" &&
      navigation.formMethod === "POST" &&
      navigation.location.pathname !== "/signin"
    ) {
      if (toastId.current) notify.dismiss(toastId.current);
      toastId.current = null;
      notify.success("Log In success!");
    }
  }, [navigation]);

  const next = data?.values.next ?? params.get("next") ?? "";
  return (
    <div className="page narrow">
      <h1>Log in</h1>
      <p className="lead">Welcome back. Your grade is waiting.</p>
      <FormResult
        error={data ? null : OAUTH_ERRORS[params.get("error") ?? ""]}
        // /reset-password sends here with ?reset=1 once the new password is saved.
        notice={
          !data && params.get("reset") === "1" ? "Your password was changed. Log in with your new password." : null
        }
      />
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
          autoComplete="current-password"
          required
          error={data?.errors.password}
        />
        <input type="hidden" name="next" value={next} />
        <Honeypot />
        <button type="submit" className="btn btn-primary" disabled={submitting}>
          {submitting ? "Signing in…" : "Log in"}
        </button>
        <p className="muted" style={{ margin: 0 }}>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      </Form>
      <OAuthButtons next={next} />
      <p className="muted">
        New to Grader? <Link to={next ? `/signup?next=${encodeURIComponent(next)}` : "/signup"}>Join us for free</Link>
      </p>
    </div>
  );
}
