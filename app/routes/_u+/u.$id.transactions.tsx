import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { TradesTable } from "~/components/PortfolioTables";
import { traderTabSeo } from "~/lib/seo";
import { parseId } from "~/server/http/guards.server";
import { tradesFor } from "~/web/portfolio-routes.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => traderTabSeo(args, "Transactions");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json(await tradesFor(request, parseId(params.id), viewer.id, "page"));
}

export default function Trades() {
  const { data, meta, sort_by, order, amounts } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Transactions</h2>
      {meta.total === 0 ? (
        <EmptyState title="No trades yet">This trader has no imported trades to show.</EmptyState>
      ) : (
        <TradesTable rows={data} meta={meta} sortBy={sort_by} order={order} amounts={amounts} />
      )}
    </section>
  );
}
