import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "History · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>History</h2>
      <EmptyState title="No trade history yet" action={<Link to="/evaluate" className="btn btn-primary">Get Grade</Link>}>
        Your imported trades appear here, newest first, after you link an account.
      </EmptyState>
    </section>
  );
}
