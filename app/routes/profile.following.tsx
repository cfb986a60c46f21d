import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Following · Grader", noindex: true });

export default function Tab() {
  return (
    <section>
      <h2>Following</h2>
      <EmptyState title="You are not following anyone yet" action={<Link to="/market/traders" className="btn btn-ghost">Browse traders</Link>}>
        Follow traders from their profiles or the market to see their posts in your feed.
      </EmptyState>
    </section>
  );
}
