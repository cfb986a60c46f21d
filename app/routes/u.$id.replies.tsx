import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Replies · Grader", noindex: true });

export default function Tab() {
  return (
    <section>
      <h2>Replies</h2>
      <EmptyState title="No replies yet">This trader has not replied to anyone yet.</EmptyState>
    </section>
  );
}
