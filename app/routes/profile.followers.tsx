import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { EmptyState } from "~/components/Page";
import { PagedTable } from "~/components/PagedTable";
import { displayName } from "~/lib/display-name";
import { seo } from "~/lib/seo";
import { timeAgo } from "~/lib/time-ago";
import { followTab } from "~/server/community/profile-tabs.server";
import { requireUser } from "~/server/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Followers · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ ...(await followTab(request, user.id, "followers")), now: Date.now() });
}

export default function Tab() {
  const { data, meta, sort_by, order, now } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Followers</h2>
      {meta.total === 0 ? (
        <EmptyState title="No followers yet" action={<Link to="/market/traders" className="btn btn-ghost">Browse traders</Link>}>Traders who follow you will be listed here. A good grade and a shared card help.</EmptyState>
      ) : (
        <PagedTable
          caption="Followers"
          rows={data}
          meta={meta}
          sortBy={sort_by}
          order={order}
          rowKey={(r) => String(r.id)}
          columns={[
            {
              key: "username",
              label: "Trader",
              sortable: true,
              render: (r) => (
                <Link to={`/u/${r.id}`} className="trader-row">
                  <Avatar user={r} size={28} />
                  <span>
                    {displayName(r) || "Trader"}
                    {r.username ? <span className="muted small"> @{r.username}</span> : null}
                  </span>
                </Link>
              ),
            },
            { key: "followed_at", label: "Since", sortable: true, render: (r) => timeAgo(r.followed_at, now) },
          ]}
        />
      )}
    </section>
  );
}
