import type { MetaFunction } from "@remix-run/node";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Stats · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Stats</h2>
      <EmptyState title="No grade yet">This trader has not been graded yet.</EmptyState>
    </section>
  );
}
