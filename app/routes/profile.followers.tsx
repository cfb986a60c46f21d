import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Followers · Grader", noindex: true });

export default function Tab() {
  return (
    <section>
      <h2>Followers</h2>
      <EmptyState title="No followers yet">
        Traders who follow you will be listed here. A good grade and a shared card help.
      </EmptyState>
    </section>
  );
}
