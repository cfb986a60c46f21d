import type { MetaFunction } from "@remix-run/node";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Holdings · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Holdings</h2>
      <EmptyState title="No holdings to show">Holdings appear here once this trader is graded, as far as their privacy choice allows.</EmptyState>
    </section>
  );
}
