import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Community · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Community" lead="Talk trades with traders whose results are verified.">
      <nav className="tabs" aria-label="Feed">
        <Link to="/community" className="active">Latest</Link>
        <Link to="/community?view=following">Following</Link>
      </nav>
      <EmptyState title="No posts yet" action={<Link to="/market/traders" className="btn btn-ghost">Find traders to follow</Link>}>
        Posts from you and the traders you follow will appear here. Get your grade first so others can see what your words are worth.
      </EmptyState>
    </Page>
  );
}
