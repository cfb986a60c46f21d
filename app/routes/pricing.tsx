import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Pricing · Grader", description: "Free tries and paid passes for Grader evaluations." });

export default function Route() {
  return (
    <Page title="Pricing" lead="Every account starts with free tries. Passes add evaluations when you need more.">
      <div className="grid">
        <article className="card"><h2>Free</h2><p className="price">$0</p><p className="muted">3 evaluations to start, up to 5 a day.</p><Link to="/signup" className="btn btn-ghost">Join us for free</Link></article>
      </div>
    </Page>
  );
}
