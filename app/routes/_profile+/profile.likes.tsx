import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { PostList } from "~/components/PostList";
import { seo } from "~/lib/seo";
import { likesTab } from "~/web/profile-tabs.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Your likes · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await likesTab(request, user.id));
}

export default function Tab() {
  const { data, meta, now } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Likes</h2>
      <PostList
        posts={data}
        meta={meta}
        now={now}
        label="Likes"
        empty={<EmptyState title="No likes yet">Posts you like will be collected here.</EmptyState>}
      />
    </section>
  );
}
