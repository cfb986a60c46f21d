import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Stats · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Stats</h2>
      <EmptyState title="No grade yet" action={<Link to="/evaluate" className="btn btn-primary">Get Grade</Link>}>
        Link a broker or wallet and ask for an evaluation to see your dimension stars, returns, drawdown and insights here.
      </EmptyState>
    </section>
  );
}
