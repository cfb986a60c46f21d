import { type RawBuilder, sql } from "kysely";
import { getDb } from "../db.server";

export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 20;

export type TraderSearchResult = {
  id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  avatar: string | null;
};

// The same expression as the trigram index users_search_gin (migration 0015), so the index is used.
const searchText = sql<string>`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))`;
// How many similarity matches a page is ranked from (a common inner word matches thousands).
const SIMILAR_SAMPLE = 200;
// The same expression as users_full_name_pattern (migration 0015).
const fullName = sql<string>`lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`;

export function normalizeKeyword(raw: string | null | undefined): string {
  return (raw ?? "").trim().replace(/\s+/g, " ").slice(0, 100);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

// The tiers of the ranking below; a trader's rank is its tier plus word similarity (0–1).
const tier = (k: string, prefix: string, contains: string) => sql<number>`(case
  when lower(u.username) = ${k} then 4
  when lower(u.username) like ${prefix} then 3
  when lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) = ${k} then 2.5
  when lower(u.first_name) like ${prefix} or lower(u.last_name) like ${prefix} or lower(u.name) like ${prefix} then 2
  when ${searchText} like ${contains} then 1
  else 0 end)`;

type Row = {
  id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  avatar_url: string | null;
  tier: number;
  rank: number;
};

/**
 * Traders by relevance: an exact username first, then username prefixes, then first/last/full-name
 * matches, then trigram word similarity over username and names. Exact and prefix matches come
 * first from btree indexes (the first 20 of each in index order: username, first, last, display
 * and full name). Only when they do not fill the page are traders at or above
 * pg_trgm.word_similarity_threshold (0.6 by default) added: the first 200 the GIN index lists, so
 * the work stays bounded however common a name is (docs/DECISIONS.md 91). A prefix match's rank
 * (≥ 2) is never below a similarity-only one's (≤ 2), so a page of them needs no trigram scan.
 */
export async function searchTraders(keyword: string, limit = SEARCH_LIMIT): Promise<TraderSearchResult[]> {
  const k = normalizeKeyword(keyword).toLowerCase();
  if (k.length < SEARCH_MIN_CHARS) return [];
  const db = await getDb();
  const contains = `%${escapeLike(k)}%`;
  const prefix = `${escapeLike(k)}%`;
  const n = Math.min(limit, SEARCH_LIMIT);
  const ranked = (candidates: RawBuilder<unknown>) =>
    sql<Row>`
    with candidates as (${candidates}), scored as (
      select u.id, u.first_name, u.last_name, u.username, u.avatar_url, ${tier(k, prefix, contains)}::float8 as tier,
        ${tier(k, prefix, contains)} + word_similarity(${k}, ${searchText}) as rank
      from candidates c join users u on u.id = c.id
    )
    select * from scored where rank >= 0.3 order by rank desc, id asc limit ${n}`.execute(db);
  const prefixes = sql`
    (select id from users where username like ${prefix} order by username using ~<~ limit ${n})
    union (select id from users where lower(first_name) like ${prefix} order by lower(first_name) using ~<~ limit ${n})
    union (select id from users where lower(last_name) like ${prefix} order by lower(last_name) using ~<~ limit ${n})
    union (select id from users where lower(name) like ${prefix} order by lower(name) using ~<~ limit ${n})
    union (select id from users where ${fullName} like ${prefix} order by ${fullName} using ~<~ limit ${n})`;
  let { rows } = await ranked(prefixes);
  if (rows.filter((r) => r.tier >= 2).length < n) {
    ({ rows } = await ranked(
      sql`${prefixes} union (select id from users where ${k} <% ${searchText} limit ${SIMILAR_SAMPLE})`,
    ));
  }
  return rows.map((r) => ({
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    username: r.username,
    avatar: r.avatar_url,
  }));
}
