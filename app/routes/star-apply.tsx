import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Become a Star · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Become a Star" lead="Traders graded Gold or better can apply to be featured." narrow>
      <EmptyState title="A Gold grade is needed first" action={<Link to="/evaluate" className="btn btn-primary">Get Grade</Link>}>
        Once you hold a Gold grade or better you can apply here with a short bio, your strategy and your markets.
      </EmptyState>
    </Page>
  );
}
