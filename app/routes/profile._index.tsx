import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Posts · Grader", noindex: true });

export default function Tab() {
  return (
    <section>
      <h2>Posts</h2>
      <EmptyState title="No posts yet" action={<Link to="/community" className="btn btn-ghost">Write a post</Link>}>
        Your posts will show here. Share a thought or your card in the community.
      </EmptyState>
    </section>
  );
}
