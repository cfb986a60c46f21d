import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Top traders · Market · Grader" }];

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
