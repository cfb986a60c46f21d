import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { Composer, PostCard } from "~/components/PostCard";
import { formError, parseForm } from "~/lib/forms";
import { parseBefore } from "~/lib/paging";
import { seo } from "~/lib/seo";
import { createPost, feed, PostBody } from "~/server/community/posts.server";
import { requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Community · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const view = url.searchParams.get("view") === "following" ? "following" : "latest";
  const before = parseBefore(url.searchParams);
  const page = await feed(user.id, view, before);
  return json({
    view,
    before,
    posts: page.data,
    next: page.next,
    canAttach: user.current_evaluation_id !== null,
    now: Date.now(),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(PostBody, await readForm(request));
  if (!parsed.ok) return json(formError(parsed.errors.body ?? "Check the form.", parsed.values), { status: 400 });
  const result = await createPost(user.id, { body: parsed.data.body, attachCard: parsed.data.attach_card });
  if (!result.ok)
    return json(formError(result.message, { body: parsed.data.body }), {
      status: result.status,
      headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined,
    });
  return redirect("/community?posted=1", 303);
}

export default function Community() {
  const { view, before, posts, next, canAttach, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const base = view === "following" ? "/community?view=following" : "/community";
  return (
    <Page
      title="Community"
      lead="Talk trades with traders whose results are verified."
      actions={
        <Link to="/clubs" className="btn btn-ghost btn-small">
          Clubs
        </Link>
      }
    >
      <Composer
        action="/community"
        label="Share a thought"
        canAttach={canAttach}
        error={actionData?.formError}
        value={actionData?.values.body}
      />
      {params.get("reported") ? (
        <p role="status" className="notice">
          Thanks, your report was sent for review.
        </p>
      ) : null}
      <nav className="tabs" aria-label="Feed">
        <Link
          to="/community"
          className={view === "latest" ? "active" : undefined}
          aria-current={view === "latest" ? "page" : undefined}
        >
          Latest
        </Link>
        <Link
          to="/community?view=following"
          className={view === "following" ? "active" : undefined}
          aria-current={view === "following" ? "page" : undefined}
        >
          Following
        </Link>
      </nav>
      {posts.length === 0 ? (
        before ? (
          <EmptyState title="No older posts" action={<Link to={base}>Back to the newest</Link>} />
        ) : view === "following" ? (
          <EmptyState
            title="No posts yet"
            action={
              <Link to="/market/traders" className="btn btn-ghost">
                Find traders to follow
              </Link>
            }
          >
            Posts from you and the traders you follow will appear here.
          </EmptyState>
        ) : (
          <EmptyState title="No posts yet">
            Be the first: write something above. Get your grade first so others can see what your words are worth.
          </EmptyState>
        )
      ) : (
        <section aria-label="Posts" className="feed">
          {posts.map((p) => (
            <PostCard key={p.id} post={p} now={now} />
          ))}
          <nav className="pager" aria-label="Feed pages">
            {before ? <Link to={base}>Newest</Link> : <span />}
            {next ? (
              <Link to={`${base}${base.includes("?") ? "&" : "?"}before=${next}`} rel="next">
                Older posts →
              </Link>
            ) : (
              <span />
            )}
          </nav>
        </section>
      )}
    </Page>
  );
}
