import { type RawBuilder, sql } from "kysely";
import { truncateScore } from "~/lib/format-number";
import type { Tier } from "~/lib/vocabulary";
import { getReadDb } from "../platform/db.server";

export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 20;

export type TraderSearchResult = {
  id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  avatar: string | null;
  /** The trader's current grade, as the leaderboard shows it; null before a first grade. */
  tier: Tier | null;
  score: number | null;
};

// What a trader's rank is measured against: username and names, lower case.
const searchText = sql<string>`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))`;
// How many similarity matches a page is ranked from (a common name is held by thousands).
const SIMILAR_SAMPLE = 200;
// How many dictionary words one keyword word may stand for (the most similar first).
const WORDS_PER_KEYWORD = 2;

/** A keyword's words as the dictionary splits names (migration 0027): at spaces, _ . - and digits. */
export function keywordWords(k: string): string[] {
  return [...new Set(k.split(/[\s_.0-9-]+/).filter((w) => w.length >= 2))];
}
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
  grade_tier: Tier | null;
  grade_score: number | null;
};

/**
 * Traders by relevance: an exact username first, then username prefixes, then first/last/full-name
 * matches, then trigram word similarity over username and names. Exact and prefix matches come
 * first from btree indexes (the first 20 of each in index order: username, first, last, display
 * and full name). Only when they do not fill the page are traders with a word similar to a
 * keyword word added, from the dictionary of name words (migration 0027; docs/DECISIONS.md 138):
 * at most 200, kept when at or above pg_trgm.word_similarity_threshold (0.6), so the work stays
 * bounded however common a name is. A prefix match's rank (≥ 2) is
 * never below a similarity-only one's (≤ 2), so a page of them needs no trigram scan. From the
 * read database: a name changed seconds ago may be found a little later.
 */
export async function searchTraders(keyword: string, limit = SEARCH_LIMIT): Promise<TraderSearchResult[]> {
  const k = normalizeKeyword(keyword).toLowerCase();
  if (k.length < SEARCH_MIN_CHARS) return [];
  const db = await getReadDb();
  const contains = `%${escapeLike(k)}%`;
  const prefix = `${escapeLike(k)}%`;
  const n = Math.min(limit, SEARCH_LIMIT);
  const ranked = (candidates: RawBuilder<unknown>) =>
    sql<Row>`
    with candidates as (${candidates}), scored as (
      select u.id, u.first_name, u.last_name, u.username, u.avatar_url, u.current_evaluation_id,
        ${tier(k, prefix, contains)}::float8 as tier,
        ${tier(k, prefix, contains)} + word_similarity(${k}, ${searchText}) as rank
      from candidates c join users u on u.id = c.id
    ), page as (
      select * from scored where rank >= 0.3 order by rank desc, id asc limit ${n}
    )
    -- The page's grades only: one primary-key lookup per result.
    select p.*, e.tier as grade_tier, e.score as grade_score
    from page p left join evaluations e on e.id = p.current_evaluation_id
    order by p.rank desc, p.id asc`.execute(db);
  const prefixes = sql`
    (select id from users where username like ${prefix} order by username using ~<~ limit ${n})
    union (select id from users where lower(first_name) like ${prefix} order by lower(first_name) using ~<~ limit ${n})
    union (select id from users where lower(last_name) like ${prefix} order by lower(last_name) using ~<~ limit ${n})
    union (select id from users where lower(name) like ${prefix} order by lower(name) using ~<~ limit ${n})
    union (select id from users where ${fullName} like ${prefix} order by ${fullName} using ~<~ limit ${n})`;
  let { rows } = await ranked(prefixes);
  const words = keywordWords(k);
  if (rows.filter((r) => r.tier >= 2).length < n && words.length) {
    // Each keyword word's most similar dictionary words (trigram similarity, GIN), then the traders
    // who have them, those matching more of the keyword's words first; of those, the ones whose
    // whole text is at or above pg_trgm.word_similarity_threshold (0.6) for the keyword.
    const similar = sql`unnest(${words}::text[]) as kw(k)
      cross join lateral (
        select word from search_words where word % kw.k order by word <-> kw.k, word limit ${WORDS_PER_KEYWORD}
      ) m
      join user_search_words usw on usw.word = m.word`;
    // One word: the first 200 holders (an index-only scan that stops there). Several: those
    // holding words for more of them first (a full name with a typo).
    const sample =
      words.length === 1
        ? sql`select usw.user_id as id from ${similar} limit ${SIMILAR_SAMPLE}`
        : sql`select usw.user_id as id from ${similar}
            group by usw.user_id order by count(distinct kw.k) desc, usw.user_id limit ${SIMILAR_SAMPLE}`;
    ({ rows } = await ranked(sql`${prefixes} union (
      select f.id from (${sample}) f join users on users.id = f.id where ${k} <% ${searchText})`));
  }
  return rows.map((r) => ({
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    username: r.username,
    avatar: r.avatar_url,
    tier: r.grade_tier,
    score: r.grade_score === null ? null : truncateScore(Number(r.grade_score)),
  }));
}
