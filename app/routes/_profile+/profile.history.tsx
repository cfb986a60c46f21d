import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { TradesTable } from "~/components/PortfolioTables";
import { seo } from "~/lib/seo";
import { tradesFor } from "~/web/portfolio-routes.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Your grade history · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json(await tradesFor(request, viewer.id, viewer.id, "page"));
}

export default function Trades() {
  const { data, meta, sort_by, order } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>History</h2>
      {meta.total === 0 ? (
        <EmptyState
          title="No trades yet"
          action={
            <Link to="/evaluate" className="btn btn-primary">
              Get Grade
            </Link>
          }
        >
          Your imported trades appear here, newest first, after you link an account.
        </EmptyState>
      ) : (
        <TradesTable rows={data} meta={meta} sortBy={sort_by} order={order} />
      )}
    </section>
  );
}
