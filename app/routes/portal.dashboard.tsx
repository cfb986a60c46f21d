import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Dashboard · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ userId: user.id });
}

export default function Route() {
  return (
    <Page title="Dashboard" lead="Your grade, your linked accounts and what to do next.">
      <div className="grid">
        <section className="card"><h2>Your grade</h2><p className="muted">No grade yet.</p><Link to="/evaluate" className="btn btn-primary">Get Grade</Link></section>
        <section className="card"><h2>Linked accounts</h2><p className="muted">None linked yet.</p><Link to="/profile/account" className="btn btn-ghost">Link an account</Link></section>
        <section className="card"><h2>Next steps</h2><ol className="muted"><li>Link a broker or wallet</li><li>Get your grade</li><li>Share your card</li></ol></section>
      </div>
    </Page>
  );
}
