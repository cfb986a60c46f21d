import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = (args) => seo(args, { title: "Check your email · Grader", noindex: true });

export default function ForgotRequestSuccess() {
  return (
    <div className="page narrow">
      <h1>Check your email</h1>
      <p className="lead">
        If an account exists for that address, a reset link is on its way. It works once and expires in 30 minutes.
      </p>
      <p className="muted">
        Nothing after a few minutes? Check your spam folder, or <Link to="/forgot-password">ask again</Link>.
      </p>
      <p>
        <Link to="/signin" className="btn btn-ghost">
          Back to log in
        </Link>
      </p>
    </div>
  );
}
