import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Holdings · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Holdings</h2>
      <EmptyState title="No holdings yet" action={<Link to="/evaluate" className="btn btn-primary">Get Grade</Link>}>
        Your current positions appear here after your first import.
      </EmptyState>
    </section>
  );
}
