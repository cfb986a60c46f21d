import type { MetaFunction } from "@remix-run/node";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Transactions · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Transactions</h2>
      <EmptyState title="No transactions to show">Recent transactions appear here once this trader is graded, as far as their privacy choice allows.</EmptyState>
    </section>
  );
}
