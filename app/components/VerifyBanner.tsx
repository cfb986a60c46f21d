import { useFetcher, useLocation, useSearchParams } from "@remix-run/react";

/** Shown to signed-in users whose email is not verified yet; verification never blocks sign-in. */
export function VerifyBanner({ email }: { email: string }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const [params] = useSearchParams();
  const status = params.get("verification");
  return (
    <div className="verify-banner" role="status">
      <span>
        Please confirm your email address: we sent a link to <strong>{email}</strong>.
        {status === "sent"
          ? " A new link is on its way."
          : status === "limited"
            ? " You asked for several links already; please check your inbox."
            : null}
      </span>
      <fetcher.Form method="post" action="/verify-email/resend" preventScrollReset>
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <button type="submit" className="btn btn-ghost" disabled={fetcher.state !== "idle"}>
          Resend link
        </button>
      </fetcher.Form>
    </div>
  );
}
