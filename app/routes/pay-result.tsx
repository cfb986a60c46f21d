import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Payment result · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Payment result" narrow>
      <EmptyState title="No payment to show" action={<Link to="/pricing" className="btn btn-ghost">See pricing</Link>}>
        After a checkout you come back here to see whether it was paid, is processing, or failed.
      </EmptyState>
    </Page>
  );
}
