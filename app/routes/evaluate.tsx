import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = () => [{ title: "Get your grade · Grader" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Get your grade" lead="Connect an account, we import your trades and grade them: ROI, holding period and risk." narrow>
      <section className="card">
        <h2>Get Your Grade</h2>
        <p className="muted">Connect Your Accounts With Get Grade: choose where your trades are.</p>
        <ul className="connect-options">
          <li><Link to="/profile/account" className="btn btn-ghost">Broker</Link></li>
          <li><Link to="/profile/account" className="btn btn-ghost">MetaMask Wallet</Link> <span className="tag">Desktop only</span></li>
          <li><Link to="/profile/account" className="btn btn-ghost">Phantom Wallet</Link> <span className="tag">Desktop only</span></li>
        </ul>
      </section>
    </Page>
  );
}
