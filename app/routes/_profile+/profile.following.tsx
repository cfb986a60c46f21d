import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { FollowTable } from "~/components/FollowTable";
import { seo } from "~/lib/seo";
import { followTab } from "~/web/profile-tabs.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Who you follow · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ ...(await followTab(request, user.id, "following")), now: Date.now() });
}

export default function Tab() {
  const { data, meta, sort_by, order, now } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Following</h2>
      {meta.total === 0 ? (
        <EmptyState
          title="You are not following anyone yet"
          action={
            <Link to="/market/traders" className="btn btn-ghost">
              Browse traders
            </Link>
          }
        >
          Follow traders from their profiles or the market to see their posts in your feed.
        </EmptyState>
      ) : (
        <FollowTable caption="Following" rows={data} meta={meta} sortBy={sort_by} order={order} now={now} />
      )}
    </section>
  );
}
