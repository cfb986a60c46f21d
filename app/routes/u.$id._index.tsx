import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Posts · Grader", noindex: true });

export default function Tab() {
  return (
    <section>
      <h2>Posts</h2>
      <EmptyState title="No posts yet">This trader has not posted yet.</EmptyState>
    </section>
  );
}
