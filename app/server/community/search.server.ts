import { sql } from "kysely";
import { getDb } from "../db.server";

export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 20;

export type TraderSearchResult = { id: number; first_name: string | null; last_name: string | null; username: string | null; avatar: string | null };

// The same expression as the trigram index users_search_trgm (migration 0006), so the index is used.
const searchText = sql<string>`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))`;

export function normalizeKeyword(raw: string | null | undefined): string {
  return (raw ?? "").trim().replace(/\s+/g, " ").slice(0, 100);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Traders by relevance: an exact username first, then username prefixes, then first/last/full-name
 * matches, then trigram word similarity over username and names. Candidates: the 20 usernames
 * with that prefix (btree, index order) and the 20 nearest by word similarity among those at or
 * above pg_trgm.word_similarity_threshold (0.6 by default; GiST KNN, which the threshold prunes),
 * so the work stays bounded however common a name is; then ranked.
 */
export async function searchTraders(keyword: string, limit = SEARCH_LIMIT): Promise<TraderSearchResult[]> {
  const k = normalizeKeyword(keyword).toLowerCase();
  if (k.length < SEARCH_MIN_CHARS) return [];
  const db = await getDb();
  const contains = `%${escapeLike(k)}%`;
  const prefix = `${escapeLike(k)}%`;
  const n = Math.min(limit, SEARCH_LIMIT);
  const { rows } = await sql<{ id: number; first_name: string | null; last_name: string | null; username: string | null; avatar_url: string | null; rank: number }>`
    with candidates as (
      (select id from users where username like ${prefix} order by username using ~<~ limit ${n})
      union
      (select id from users where ${k} <% ${searchText} order by ${k} <<-> ${searchText} limit ${n})
    ), scored as (
      select u.id, u.first_name, u.last_name, u.username, u.avatar_url,
        (case
          when lower(u.username) = ${k} then 4
          when lower(u.username) like ${prefix} then 3
          when lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) = ${k} then 2.5
          when lower(u.first_name) like ${prefix} or lower(u.last_name) like ${prefix} or lower(u.name) like ${prefix} then 2
          when ${searchText} like ${contains} then 1
          else 0 end) + word_similarity(${k}, ${searchText}) as rank
      from candidates c join users u on u.id = c.id
    )
    select * from scored where rank >= 0.3 order by rank desc, id asc limit ${n}`.execute(db);
  return rows.map((r) => ({ id: r.id, first_name: r.first_name, last_name: r.last_name, username: r.username, avatar: r.avatar_url }));
}
