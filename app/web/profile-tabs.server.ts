import { pagingSchema, parsePaging } from "~/lib/paging";
import { FOLLOW_SORTS, followList } from "~/server/community/follows.server";
import { likedBy, postsBy } from "~/server/community/posts.server";
import { badQuery } from "./answer.server";

// Shared by /profile/* and /u/:id/* tabs. Posts and replies are public to signed-in users; likes and
// follow lists are shown on one's own profile. Paging follows PRODUCT §3 (400 on bad values).
const POSTS_QUERY = pagingSchema(["created_at"] as const, { sort_by: "created_at", order: "desc", page_size: 20 });
const FOLLOWS_QUERY = pagingSchema(FOLLOW_SORTS, { sort_by: "followed_at", order: "desc", page_size: 20 });

function pageOf(request: Request) {
  const paged = parsePaging(new URL(request.url).searchParams, POSTS_QUERY);
  if (!paged.ok) throw badQuery(paged.message, "page");
  return paged.paging;
}

export async function postsTab(request: Request, authorId: number, viewerId: number, kind: "posts" | "replies") {
  const p = pageOf(request);
  return { ...(await postsBy(authorId, viewerId, kind, p.page, p.page_size)), now: Date.now() };
}

export async function likesTab(request: Request, userId: number) {
  const p = pageOf(request);
  return { ...(await likedBy(userId, p.page, p.page_size)), now: Date.now() };
}

export async function followTab(request: Request, userId: number, direction: "following" | "followers") {
  const paged = parsePaging(new URL(request.url).searchParams, FOLLOWS_QUERY);
  if (!paged.ok) throw badQuery(paged.message, "page");
  return {
    ...(await followList(userId, direction, paged.paging)),
    sort_by: paged.paging.sort_by,
    order: paged.paging.order,
  };
}
