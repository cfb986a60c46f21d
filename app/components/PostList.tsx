import { useLocation } from "@remix-run/react";
import { pageCount } from "~/lib/paging";
import type { PostView } from "~/server/community/posts.server";
import { EmptyState } from "./Page";
import { Pager } from "./Pager";
import { PostCard } from "./PostCard";

/** A paged list of posts (profile tabs) with previous/next links that work without JavaScript. */
export function PostList({
  posts,
  meta,
  now,
  empty,
  label,
}: {
  posts: PostView[];
  meta: { page: number; page_size: number; total: number };
  now: number;
  empty: React.ReactNode;
  label: string;
}) {
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
        <Pager label={`${label} pages`} page={meta.page} pages={pages} total={meta.total} href={href} />
      ) : null}
    </div>
  );
}

export { EmptyState };
