import { Link, useLocation } from "@remix-run/react";
import { pageCount } from "~/lib/paging";
import type { PostView } from "~/server/community/posts.server";
import { EmptyState } from "./Page";
import { PostCard } from "./PostCard";

/** A paged list of posts (profile tabs) with previous/next links that work without JavaScript. */
export function PostList({ posts, meta, now, empty, label }: { posts: PostView[]; meta: { page: number; page_size: number; total: number }; now: number; empty: React.ReactNode; label: string }) {
  const location = useLocation();
  const href = (page: number) => {
    const p = new URLSearchParams(location.search);
    p.set("page", String(page));
    return `${location.pathname}?${p}`;
  };
  if (posts.length === 0) return <>{empty}</>;
  const pages = pageCount(meta.total, meta.page_size);
  return (
    <div aria-label={label} role="region">
      {posts.map((p) => (
        <PostCard key={p.id} post={p} now={now} />
      ))}
      {pages > 1 ? (
        <nav className="pager" aria-label={`${label} pages`}>
          {meta.page > 1 ? <Link to={href(meta.page - 1)} rel="prev">← Previous</Link> : <span />}
          <span className="muted small">{`Page ${meta.page} of ${pages} · ${meta.total} in all`}</span>
          {meta.page < pages ? <Link to={href(meta.page + 1)} rel="next">Next →</Link> : <span />}
        </nav>
      ) : null}
    </div>
  );
}

export { EmptyState };
