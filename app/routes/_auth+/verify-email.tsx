import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { verifyEmail } from "~/server/accounts/account.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Verify your email · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const verified = token ? await verifyEmail(token) : false;
  return json({ verified }, { status: verified ? 200 : 400 });
}

export default function VerifyEmail() {
  const { verified } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow">
      <h1>{verified ? "Email verified" : "This link can't be used"}</h1>
      <p className="lead">
        {verified
          ? "Thanks, your email address is confirmed."
          : "Verification links work once and for 24 hours. Log in and ask for a new one from the banner."}
      </p>
      <Link to="/community" className="btn btn-primary">
        Continue
      </Link>
    </div>
  );
}
