import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { HoldingsTable } from "~/components/PortfolioTables";
import { seo } from "~/lib/seo";
import { holdingsFor } from "~/web/portfolio-routes.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Your holdings · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json(await holdingsFor(request, viewer.id, viewer.id, "page"));
}

export default function Holdings() {
  const { data, meta, sort_by, order } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Holdings</h2>
      {meta.total === 0 ? (
        <EmptyState
          title="No holdings to show"
          action={
            <Link to="/evaluate" className="btn btn-primary">
              Get Grade
            </Link>
          }
        >
          Your open positions appear here after your first grade.
        </EmptyState>
      ) : (
        <>
          <p className="muted small">Open positions as of the latest grade ({meta.as_of?.slice(0, 10)}).</p>
          <HoldingsTable rows={data} meta={meta} sortBy={sort_by} order={order} />
        </>
      )}
    </section>
  );
}
