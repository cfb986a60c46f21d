import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Page } from "~/components/Page";
import { PostThread, postHref } from "~/components/PostCard";
import { parsePage } from "~/lib/paging";
import { seo } from "~/lib/seo";
import { handlePostAction } from "~/web/post-actions.server";
import { getPost, repliesTo } from "~/server/community/posts.server";
import { ensureFound, parseId } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Reply · Grader", noindex: true });

// /posts/:id/:cid: reply :cid in the thread of post :id, with its own replies.
async function loadReply(request: Request, params: { id?: string; cid?: string }) {
  const user = await requireUser(request);
  const rootId = String(parseId(params.id));
  const cid = String(parseId(params.cid));
  const reply = ensureFound(await getPost(cid, user.id));
  if (reply.root_id !== rootId) throw new Response("Not Found", { status: 404 });
  return { user, reply, rootId, cid };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, reply, cid } = await loadReply(request, params);
  const parent = reply.parent_id ? await getPost(reply.parent_id, user.id) : null;
  const page = parsePage(new URL(request.url).searchParams);
  const replies = await repliesTo(cid, user.id, page);
  return json({ reply, parent, replies, canAttach: user.current_evaluation_id !== null, now: Date.now() });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, rootId, cid } = await loadReply(request, params);
  return handlePostAction(request, user.id, cid, `/posts/${rootId}/${cid}`);
}

export default function ReplyPage() {
  const { reply, parent, replies, canAttach, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <Page title="Reply">
      <p>
        {parent ? (
          <Link to={postHref(parent)}>
            ← In reply to {parent.author.username ? `@${parent.author.username}` : "a post"}
          </Link>
        ) : (
          <Link to="/community">← Community</Link>
        )}
      </p>
      <PostThread
        post={reply}
        replies={replies}
        now={now}
        canAttach={canAttach}
        error={actionData && !actionData.ok ? actionData.error : undefined}
        value={actionData?.values?.body}
      />
    </Page>
  );
}
