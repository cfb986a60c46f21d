import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Outlet } from "@remix-run/react";
import { RouteErrorPanel } from "~/components/RouteError";
import { Tabs } from "~/components/Tabs";
import { Page } from "~/components/Page";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Market · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Market() {
  return (
    <Page title="Market" lead="The graded traders worth watching, and what they trade.">
      <Tabs label="Market" tabs={TABS} />
      <Outlet />
    </Page>
  );
}

const TABS = [
  ["/market/traders", "Traders"],
  ["/market/trades", "Trades"],
] as const;

// A failing tab keeps the market's title and tabs.
export function ErrorBoundary() {
  return (
    <Page title="Market" lead="The graded traders worth watching, and what they trade.">
      <Tabs label="Market" tabs={TABS} />
      <RouteErrorPanel />
    </Page>
  );
}
