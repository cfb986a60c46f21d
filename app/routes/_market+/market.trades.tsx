import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { PagedTable } from "~/components/PagedTable";
import { displayName } from "~/lib/display-name";
import { formatNumber, formatUsd, sideLabel } from "~/lib/format-number";
import { useLocale } from "~/lib/locale-context";
import { seo } from "~/lib/seo";
import { timeAgo } from "~/lib/time-ago";
import { marketTradesFor } from "~/web/market-routes.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Recent trades · Market · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ ...(await marketTradesFor(request, user.id, "page")), now: Date.now() });
}

export default function MarketTrades() {
  const { data, meta, sort_by, order, now } = useLoaderData<typeof loader>();
  const locale = useLocale();
  return (
    <section>
      <h2>Recent trades</h2>
      <p className="muted small">
        Graded traders who choose to share their trades. Yours can be listed too:{" "}
        <Link to="/user/settings">Settings</Link>.
      </p>
      {meta.total === 0 ? (
        <EmptyState title="No shared trades yet">
          Trades appear here from graded traders who choose to share them. Amounts stay hidden unless a trader chooses
          to show them.
        </EmptyState>
      ) : (
        <PagedTable
          caption="Recent trades"
          rows={data}
          meta={meta}
          sortBy={sort_by}
          order={order}
          rowKey={(r) => r.id}
          columns={[
            {
              key: "time",
              label: "When",
              sortable: true,
              render: (r) => <time dateTime={r.time}>{timeAgo(r.time, now)}</time>,
            },
            {
              key: "trader",
              label: "Trader",
              render: (r) => <Link to={`/u/${r.trader.id}`}>{displayName(r.trader) || "Trader"}</Link>,
            },
            { key: "side", label: "Side", render: (r) => sideLabel(r.side) },
            { key: "symbol", label: "Symbol", sortable: true, render: (r) => r.symbol },
            { key: "asset_class", label: "Class", render: (r) => r.asset_class },
            {
              key: "quantity",
              label: "Quantity",
              numeric: true,
              render: (r) =>
                r.quantity === null ? <span className="muted">hidden</span> : formatNumber(r.quantity, 6, 0, locale),
            },
            { key: "price", label: "Price", numeric: true, render: (r) => formatUsd(r.price, locale) },
          ]}
        />
      )}
    </section>
  );
}
