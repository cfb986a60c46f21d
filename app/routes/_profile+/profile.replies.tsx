import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { PostList } from "~/components/PostList";
import { seo } from "~/lib/seo";
import { postsTab } from "~/web/profile-tabs.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Your replies · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await postsTab(request, user.id, user.id, "replies"));
}

export default function Tab() {
  const { data, meta, now } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Replies</h2>
      <PostList
        posts={data}
        meta={meta}
        now={now}
        label="Replies"
        empty={
          <EmptyState
            title="No replies yet"
            action={
              <Link to="/community" className="btn btn-ghost">
                Go to the community
              </Link>
            }
          >
            Replies you write to other traders' posts will show here.
          </EmptyState>
        }
      />
    </section>
  );
}
