import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { HoldingsTable } from "~/components/PortfolioTables";
import { traderTabSeo } from "~/lib/seo";
import { parseId } from "~/server/http/guards.server";
import { holdingsFor } from "~/web/portfolio-routes.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => traderTabSeo(args, "Holdings");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json(await holdingsFor(request, parseId(params.id), viewer.id, "page"));
}

export default function Holdings() {
  const { data, meta, sort_by, order, amounts } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Holdings</h2>
      {meta.total === 0 ? (
        <EmptyState title="No holdings to show">This trader has no open positions at their latest grade.</EmptyState>
      ) : (
        <>
          <p className="muted small">Open positions as of the latest grade ({meta.as_of?.slice(0, 10)}).</p>
          <HoldingsTable rows={data} meta={meta} sortBy={sort_by} order={order} amounts={amounts} />
        </>
      )}
    </section>
  );
}
