import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { PostList } from "~/components/PostList";
import { traderTabSeo } from "~/lib/seo";
import { postsTab } from "~/web/profile-tabs.server";
import { parseId } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => traderTabSeo(args, "Posts");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json(await postsTab(request, parseId(params.id), viewer.id, "posts"));
}

export default function Tab() {
  const { data, meta, now } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Posts</h2>
      <PostList
        posts={data}
        meta={meta}
        now={now}
        label="Posts"
        empty={<EmptyState title="No posts yet">This trader has not posted yet.</EmptyState>}
      />
    </section>
  );
}
