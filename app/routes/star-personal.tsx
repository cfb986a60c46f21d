import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Star dashboard · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Star dashboard" lead="Followers over time, card views and where your shares come from.">
      <EmptyState title="You are not a Star yet" action={<Link to="/star-apply" className="btn btn-ghost">Apply</Link>}>
        Approved Stars see their audience figures here.
      </EmptyState>
    </Page>
  );
}
