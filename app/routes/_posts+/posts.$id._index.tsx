import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Page } from "~/components/Page";
import { PostThread } from "~/components/PostCard";
import { parsePage } from "~/lib/paging";
import { seo } from "~/lib/seo";
import { handlePostAction } from "~/web/post-actions.server";
import { clubRef } from "~/server/community/clubs.server";
import { getPost, repliesTo } from "~/server/community/posts.server";
import { ensureFound, parseId } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Post · Grader", noindex: true });

// /posts/:id: a top-level post with its direct replies. A reply's id here is a 404 (it lives at /posts/:root/:id).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = String(parseId(params.id));
  const post = ensureFound(await getPost(id, user.id));
  if (post.parent_id !== null) throw new Response("Not Found", { status: 404 });
  const page = parsePage(new URL(request.url).searchParams);
  const [replies, club] = await Promise.all([
    repliesTo(id, user.id, page),
    post.club_id === null ? null : clubRef(post.club_id),
  ]);
  return json({ post, replies, club, canAttach: user.current_evaluation_id !== null, now: Date.now() });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = String(parseId(params.id));
  return handlePostAction(request, user.id, id, `/posts/${id}`);
}

export default function PostPage() {
  const { post, replies, club, canAttach, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <Page title="Post">
      <p>{club ? <Link to={`/clubs/${club.slug}`}>← {club.name}</Link> : <Link to="/community">← Community</Link>}</p>
      <PostThread
        post={post}
        replies={replies}
        now={now}
        canAttach={canAttach}
        error={actionData && !actionData.ok ? actionData.error : undefined}
        value={actionData?.values?.body}
      />
    </Page>
  );
}
