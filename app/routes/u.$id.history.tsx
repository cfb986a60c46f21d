import type { MetaFunction } from "@remix-run/node";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "History · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>History</h2>
      <EmptyState title="No history to show">Grade history appears here once this trader is graded.</EmptyState>
    </section>
  );
}
