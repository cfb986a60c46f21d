import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { EmptyState } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Recent trades · Market · Grader", noindex: true });

export default function MarketTrades() {
  return (
    <section>
      <h2>Recent trades</h2>
      <EmptyState title="No shared trades yet">
        Trades appear here from graded traders who choose to share them. Amounts stay hidden unless a trader chooses to show them.
      </EmptyState>
    </section>
  );
}
