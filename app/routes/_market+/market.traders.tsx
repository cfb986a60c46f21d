import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { TraderLink } from "~/components/TraderLink";
import { GradeBadge } from "~/components/GradeBadge";
import { EmptyState } from "~/components/Page";
import { PagedTable } from "~/components/PagedTable";
import type { Tier } from "~/lib/vocabulary";
import { formatCompact, formatScore } from "~/lib/format-number";
import { formatMetric, METRICS } from "~/lib/metrics";
import { seo } from "~/lib/seo";
import { leaderboardFor } from "~/web/market-routes.server";
import { ASSET_CLASS_LABELS, ASSET_CLASSES, TIERS } from "~/lib/vocabulary";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Top traders · Market · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json(await leaderboardFor(request, "page"));
}

export default function MarketTraders() {
  const { data, meta, sort_by, order, filters } = useLoaderData<typeof loader>();
  const filtered = Boolean(filters.tier || filters.asset_class);
  return (
    <section>
      <h2>Top traders</h2>
      <p className="muted small">
        Each month&rsquo;s most consistent verified traders win points: <Link to="/seasons">Seasons</Link>.
      </p>
      <Form method="get" className="filters">
        <input type="hidden" name="sort_by" value={sort_by} />
        <input type="hidden" name="order" value={order} />
        <label>
          Tier{" "}
          <select name="tier" defaultValue={filters.tier ?? ""}>
            <option value="">All tiers</option>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          Asset class{" "}
          <select name="asset_class" defaultValue={filters.asset_class ?? ""}>
            <option value="">All classes</option>
            {ASSET_CLASSES.map((c) => (
              <option key={c} value={c}>
                {ASSET_CLASS_LABELS[c]}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" className="btn btn-ghost btn-small">
          Filter
        </button>
      </Form>
      {meta.total === 0 ? (
        filtered ? (
          <EmptyState title="No traders match" action={<Link to="/market/traders">Clear filters</Link>} />
        ) : (
          <EmptyState
            title="No graded traders yet"
            action={
              <Link to="/evaluate" className="btn btn-primary">
                Get your grade
              </Link>
            }
          >
            The leaderboard ranks traders by grade score, return, drawdown and followers once traders are graded.
          </EmptyState>
        )
      ) : (
        <PagedTable
          caption="Top traders"
          rows={data}
          meta={meta}
          sortBy={sort_by}
          order={order}
          rowKey={(r) => String(r.id)}
          columns={[
            { key: "rank", label: "#", render: (r) => r.rank, numeric: true },
            {
              key: "trader",
              label: "Trader",
              render: (r) => <TraderLink trader={r} />,
            },
            {
              key: "tier",
              label: "Grade",
              render: (r) => (r.tier ? <GradeBadge tier={r.tier as Tier} stars={r.stars} /> : "—"),
            },
            { key: "score", label: "Score", sortable: true, numeric: true, render: (r) => formatScore(r.score) },
            {
              key: "return",
              label: "Return",
              sortable: true,
              numeric: true,
              render: (r) => formatMetric("twr", r.return),
            },
            {
              key: "drawdown",
              label: METRICS.maxDrawdown.label,
              sortable: true,
              numeric: true,
              render: (r) => formatMetric("maxDrawdown", r.drawdown),
            },
            {
              key: "followers",
              label: "Followers",
              sortable: true,
              numeric: true,
              render: (r) => formatCompact(r.followers),
            },
          ]}
        />
      )}
    </section>
  );
}
