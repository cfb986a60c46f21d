import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Airdrop · Grader", description: "Earn off-chain $GRADER points for getting graded, sharing your card and inviting friends." });

export default function Route() {
  return (
    <Page title="Airdrop" lead="Earn $GRADER points for getting graded, sharing your card and bringing friends. Points are off-chain and have no monetary value.">
      <EmptyState title="Tasks open soon" action={<Link to="/signup" className="btn btn-primary">Join us for free</Link>}>
        First grade, sharing your card, following three traders and inviting a friend will each earn points once, shown here with a leaderboard.
      </EmptyState>
    </Page>
  );
}
