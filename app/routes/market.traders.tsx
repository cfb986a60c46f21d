import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Top traders · Market · Grader", noindex: true });

export default function MarketTraders() {
  return (
    <section>
      <h2>Top traders</h2>
      <EmptyState title="No graded traders yet" action={<Link to="/evaluate" className="btn btn-primary">Get your grade</Link>}>
        The leaderboard ranks traders by grade score, return, drawdown and followers once traders are graded.
      </EmptyState>
    </section>
  );
}
