import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Staking · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Staking" lead="Stake points for 30, 90 or 180 days for a leaderboard multiplier.">
      <EmptyState title="No staked points" action={<Link to="/airdrop" className="btn btn-ghost">Earn points</Link>}>
        Your positions, their unlock dates and multipliers will be listed here.
      </EmptyState>
    </Page>
  );
}
