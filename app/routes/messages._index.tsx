import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Messages · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Messages" lead="Direct conversations with other traders.">
      <EmptyState title="No conversations yet" action={<Link to="/market/traders" className="btn btn-ghost">Find traders</Link>}>
        Start a conversation from a trader's profile. Messages from people you don't follow arrive as requests you can accept or decline.
      </EmptyState>
    </Page>
  );
}
