import type { MetaFunction } from "@remix-run/node";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = () => [{ title: "Posts · Grader" }];

export default function Tab() {
  return (
    <section>
      <h2>Posts</h2>
      <EmptyState title="No posts yet">This trader has not posted yet.</EmptyState>
    </section>
  );
}
