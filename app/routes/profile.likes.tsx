import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Likes · Grader", noindex: true });

export default function Tab() {
  return (
    <section>
      <h2>Likes</h2>
      <EmptyState title="No likes yet">
        Posts you like will be collected here.
      </EmptyState>
    </section>
  );
}
