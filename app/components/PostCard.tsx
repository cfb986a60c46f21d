import { useEffect, useRef } from "react";
import { Form, Link, useFetcher, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import type { Tier } from "~/lib/vocabulary";
import { displayName } from "~/lib/display-name";
import { formatCompact } from "~/lib/format-number";
import { pageCount } from "~/lib/paging";
import { timeAgo } from "~/lib/time-ago";
import type { PostView } from "~/server/community/posts.server";
import { Avatar } from "./Avatar";
import { GradeBadge } from "./GradeBadge";
import { RichText } from "./RichText";
import { EmptyState } from "./Page";
import { Pager } from "./Pager";

type Serialized = Omit<PostView, never>;

/** The page that shows a post (and takes its forms): /posts/:id for posts, /posts/:root/:id for replies. */
export function postHref(p: { id: string; root_id: string | null }) {
  return p.root_id ? `/posts/${p.root_id}/${p.id}` : `/posts/${p.id}`;
}
/**
 * Where a post's forms post: its page. No "?index": /posts/:id has no layout route, so its index
 * route takes the post anyway, and a refused form without JavaScript would show the "?index".
 */
export function postActionHref(p: { id: string; root_id: string | null }) {
  return postHref(p);
}

/** One post or reply. Like, delete and report are plain forms (no JavaScript needed), enhanced with a fetcher. */
export function PostCard({ post, now, link = true }: { post: Serialized; now: number; link?: boolean }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  const like = useFetcher();
  const action = postActionHref(post);
  // Optimistic like state while the fetcher is busy.
  const pendingLike = like.formData?.get("intent");
  const liked = pendingLike ? pendingLike === "like" : post.liked;
  const likeCount = pendingLike ? post.like_count + (liked === post.liked ? 0 : liked ? 1 : -1) : post.like_count;
  const created = new Date(post.created_at);
  return (
    <article className="post-card" aria-labelledby={`post-${post.id}-author`}>
      <header className="post-head">
        <Link to={`/u/${post.author.id}`} className="post-author" id={`post-${post.id}-author`}>
          <Avatar user={post.author} size={36} />
          <span>
            <strong>{displayName(post.author) || "Trader"}</strong>
            {post.author.username ? <span className="muted small"> @{post.author.username}</span> : null}
          </span>
        </Link>
        <Link to={postHref(post)} className="muted small post-time">
          <time dateTime={post.created_at} title={created.toISOString()}>
            {timeAgo(created, now)}
          </time>
        </Link>
      </header>
      {post.deleted ? (
        <p className="muted post-body">This post was deleted.</p>
      ) : (
        <p className="post-body">
          <RichText text={post.body} mentions={post.mentions} />
        </p>
      )}
      {post.hidden ? <p className="small muted">Hidden after reports: only you can see this.</p> : null}
      {post.card?.image ? (
        <a className="post-card-image" href={`/share/open_graph/${post.author.id}`}>
          <img
            src={post.card.image}
            width={1200}
            height={630}
            loading="lazy"
            alt={`Performance card: ${post.card.tier}, ${post.card.stars} out of 5 stars`}
          />
        </a>
      ) : post.card ? (
        // Posts from before cards were kept with them: the grade's badge.
        <p className="post-card-attachment">
          <GradeBadge tier={post.card.tier as Tier} stars={post.card.stars} />{" "}
          <a href={`/share/open_graph/${post.author.id}`}>View performance card</a>
        </p>
      ) : null}
      {post.deleted ? null : (
        <footer className="post-actions">
          <like.Form method="post" action={action} preventScrollReset>
            <input type="hidden" name="redirect_to" value={here} />
            <input type="hidden" name="intent" value={liked ? "unlike" : "like"} />
            <button type="submit" className="btn btn-ghost btn-small" aria-pressed={liked}>
              {liked ? "♥ Liked" : "♡ Like"} <span className="visually-hidden">this post, </span>
              <span className="count">{formatCompact(likeCount)}</span>
              <span className="visually-hidden"> likes</span>
            </button>
          </like.Form>
          {link ? (
            <Link to={postHref(post)} className="btn btn-ghost btn-small">
              Reply <span className="count">{formatCompact(post.reply_count)}</span>
              <span className="visually-hidden"> replies</span>
            </Link>
          ) : (
            <span className="muted small">
              {formatCompact(post.reply_count)} {post.reply_count === 1 ? "reply" : "replies"}
            </span>
          )}
          {post.mine ? (
            <Form method="post" action={action}>
              <input type="hidden" name="redirect_to" value={here} />
              <button type="submit" name="intent" value="delete" className="btn btn-ghost btn-small">
                Delete
              </button>
            </Form>
          ) : (
            <details className="report">
              <summary className="small muted">Report</summary>
              <Form method="post" action={action} className="stack">
                <input type="hidden" name="redirect_to" value={here} />
                <label htmlFor={`report-${post.id}`}>Why are you reporting this?</label>
                <input id={`report-${post.id}`} name="reason" maxLength={500} required />
                <button type="submit" name="intent" value="report" className="btn btn-ghost btn-small">
                  Send report
                </button>
              </Form>
            </details>
          )}
        </footer>
      )}
    </article>
  );
}

/** The composer for posts and replies: a plain form with a 1,000-character limit. */
export function Composer({
  action,
  label,
  canAttach,
  error,
  value,
  intent = "post",
}: {
  action: string;
  label: string;
  canAttach: boolean;
  error?: string | null;
  value?: string;
  intent?: string;
}) {
  const id = `composer-${intent}`;
  const ref = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const was = useRef(false);
  // Clear the box once a submission finishes without an error (with JavaScript; without, the page reloads).
  useEffect(() => {
    if (was.current && !submitting && !error) ref.current?.reset();
    was.current = submitting;
  }, [submitting, error]);
  return (
    <Form method="post" action={action} className="composer stack" ref={ref}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name="body"
        maxLength={1000}
        rows={3}
        required
        defaultValue={value ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="composer-row">
        {canAttach ? (
          <label className="checkbox">
            <input type="checkbox" name="attach_card" /> Attach my current card
          </label>
        ) : (
          <span />
        )}
        <button type="submit" name="intent" value={intent} className="btn btn-primary" disabled={submitting}>
          {intent === "reply" ? "Reply" : "Post"}
        </button>
      </div>
    </Form>
  );
}

/** The body of a post's (or a reply's) own page: the post, the reply composer, its replies paged. */
export function PostThread({
  post,
  replies,
  now,
  canAttach,
  error,
  value,
}: {
  post: Serialized;
  replies: { data: Serialized[]; meta: { page: number; page_size: number; total: number } };
  now: number;
  canAttach: boolean;
  /** The failed reply's error and text (the action's answer), kept in the composer. */
  error?: string;
  value?: string;
}) {
  const [params] = useSearchParams();
  const pages = pageCount(replies.meta.total, replies.meta.page_size);
  return (
    <>
      {params.get("reported") ? (
        <p role="status" className="notice">
          Thanks, your report was sent for review.
        </p>
      ) : null}
      <PostCard post={post} now={now} link={false} />
      {post.deleted ? null : (
        <Composer
          action={postActionHref(post)}
          label="Write a reply"
          canAttach={canAttach}
          intent="reply"
          error={error}
          value={value}
        />
      )}
      <section aria-label="Replies" className="replies">
        <h2>Replies</h2>
        {replies.data.length === 0 ? (
          <EmptyState title="No replies yet">Be the first to reply.</EmptyState>
        ) : (
          replies.data.map((r) => <PostCard key={r.id} post={r} now={now} />)
        )}
        {pages > 1 ? (
          <Pager label="Reply pages" page={replies.meta.page} pages={pages} href={(page) => `?page=${page}`} />
        ) : null}
      </section>
    </>
  );
}
