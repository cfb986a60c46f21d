import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { NavLink, Outlet } from "@remix-run/react";
import { Page } from "~/components/Page";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Market · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Market() {
  return (
    <Page title="Market" lead="The graded traders worth watching, and what they trade.">
      <nav className="tabs" aria-label="Market">
        <NavLink to="/market/traders">Traders</NavLink>
        <NavLink to="/market/trades">Trades</NavLink>
      </nav>
      <Outlet />
    </Page>
  );
}
