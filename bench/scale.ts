import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { searchKeywords } from "./keywords";

// Speed at 100,000 traders (issue 18), in process on the service functions, one client: trader
// search, the market leaderboard and the percentile of a grade, each beside the query it replaced
// (kept here verbatim as "before") and a bare `select 1` (the floor: one round trip), in one run.
// Needs a seeded database: `npm run seed -- --users 100000` with DATABASE_URL (PGlite: the
// bench seeds BENCH_SCALE_USERS, default 10,000, in memory).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
  return { n: s.length, p50: at(50), p95: at(95), max: at(100) };
}

// Interleaved (before, after, floor for each input) so load on the shared machine hits all alike.
async function compare<T>(inputs: T[], runs: Record<string, (x: T) => Promise<unknown>>, warmup = 20) {
  const names = Object.keys(runs);
  for (const x of inputs.slice(0, warmup)) for (const name of names) await runs[name]!(x);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const x of inputs) {
    for (const name of names) {
      const t = performance.now();
      await runs[name]!(x);
      times[name]!.push(performance.now() - t);
    }
  }
  return Object.fromEntries(names.map((n) => [n, stats(times[n]!)]));
}

// The trader search before 0027, verbatim: btree prefix candidates, then (when they do not fill
// the page) the first 200 traders the GIN trigram index lists at word similarity ≥ 0.6.
const searchText = sql<string>`lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(name, ''))`;
const fullName = sql<string>`lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`;
async function searchBefore(db: Kysely<any>, keyword: string) {
  const k = keyword.trim().replace(/\s+/g, " ").toLowerCase();
  const esc = k.replace(/[\\%_]/g, (c) => `\\${c}`);
  const contains = `%${esc}%`;
  const prefix = `${esc}%`;
  const n = 20;
  const tier = sql<number>`(case
    when lower(u.username) = ${k} then 4
    when lower(u.username) like ${prefix} then 3
    when lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) = ${k} then 2.5
    when lower(u.first_name) like ${prefix} or lower(u.last_name) like ${prefix} or lower(u.name) like ${prefix} then 2
    when ${searchText} like ${contains} then 1
    else 0 end)`;
  const ranked = async (candidates: ReturnType<typeof sql>) =>
    (
      await sql<{ id: number; tier: number; rank: number }>`
    with candidates as (${candidates}), scored as (
      select u.id, ${tier}::float8 as tier, ${tier} + word_similarity(${k}, ${searchText}) as rank
      from candidates c join users u on u.id = c.id
    )
    select * from scored where rank >= 0.3 order by rank desc, id asc limit ${n}`.execute(db)
    ).rows;
  const prefixes = sql`
    (select id from users where username like ${prefix} order by username using ~<~ limit ${n})
    union (select id from users where lower(first_name) like ${prefix} order by lower(first_name) using ~<~ limit ${n})
    union (select id from users where lower(last_name) like ${prefix} order by lower(last_name) using ~<~ limit ${n})
    union (select id from users where lower(name) like ${prefix} order by lower(name) using ~<~ limit ${n})
    union (select id from users where ${fullName} like ${prefix} order by ${fullName} using ~<~ limit ${n})`;
  let rows = await ranked(prefixes);
  if (rows.filter((r) => r.tier >= 2).length < n)
    rows = await ranked(sql`${prefixes} union (select id from users where ${k} <% ${searchText} limit 200)`);
  return rows;
}

// The old ranking of a list of traders (to compare two answers rank by rank).
async function ranksOf(db: Kysely<any>, keyword: string, ids: number[]) {
  if (ids.length === 0) return { ranks: [], tiers: [] };
  const k = keyword.trim().replace(/\s+/g, " ").toLowerCase();
  const esc = k.replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await sql<{ id: number; tier: number; rank: number }>`
    select u.id, tier, tier + word_similarity(${k}, ${searchText}) as rank from users u, lateral (select (case
      when lower(u.username) = ${k} then 4
      when lower(u.username) like ${`${esc}%`} then 3
      when lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) = ${k} then 2.5
      when lower(u.first_name) like ${`${esc}%`} or lower(u.last_name) like ${`${esc}%`} or lower(u.name) like ${`${esc}%`} then 2
      when ${searchText} like ${`%${esc}%`} then 1
      else 0 end) as tier) t
    where u.id = any(${ids}::int[])`.execute(db);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    ranks: ids.map((id) => Math.round(Number(byId.get(id)!.rank) * 1e6)),
    tiers: ids.map((id) => Number(byId.get(id)!.tier)),
  };
}

// The leaderboard before 0015: users joined to their current evaluation, figures from its JSON.
async function leaderboardBefore(db: Kysely<any>, sortBy: string, order: "asc" | "desc", tier: string | undefined) {
  const twr = sql`(evaluations.result -> 'metrics' ->> 'twr')::float8`;
  const mdd = sql`(evaluations.result -> 'metrics' ->> 'maxDrawdown')::float8`;
  let base = db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .where("evaluations.score", "is not", null);
  if (tier) base = base.where("evaluations.tier", "=", tier);
  const sortExpr =
    sortBy === "score"
      ? sql`evaluations.score`
      : sortBy === "return"
        ? twr
        : sortBy === "drawdown"
          ? mdd
          : sql`users.followers_count`;
  const dir = order === "asc" ? sql`asc nulls last` : sql`desc nulls last`;
  const [rows, total] = await Promise.all([
    base
      .select([
        "users.id",
        "users.username",
        "users.first_name",
        "users.last_name",
        "users.name",
        "users.avatar_url",
        "users.followers_count",
        "evaluations.tier",
        "evaluations.score",
      ])
      .select([twr.as("twr"), mdd.as("mdd"), sql`evaluations.result -> 'stars' ->> 'overall'`.as("stars")])
      .orderBy(sql`${sortExpr} ${dir}`)
      .orderBy("users.id", "asc")
      .limit(20)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r.id as number), total: Number(total.n) };
}

// The percentile before 0015: every other trader's current grade, joined and counted.
async function percentileBefore(db: Kysely<any>, userId: number, score: number) {
  const row = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select((eb) => [
      eb.fn.countAll<string>().as("total"),
      eb.fn.count<string>("evaluations.id").filterWhere("evaluations.score", "<", score).as("below"),
    ])
    .where("users.id", "!=", userId)
    .where("evaluations.score", "is not", null)
    .executeTakeFirstOrThrow();
  const total = Number(row.total);
  return total === 0 ? null : Number(row.below) / total;
}

export async function benchScale() {
  const { closeDb, dbKind, getDb, migrateToLatest } = await import("../app/server/platform/db.server");
  const { seedCommunity } = await import("../scripts/seed");
  const { searchTraders } = await import("../app/server/community/search.server");
  const { leaderboard } = await import("../app/server/community/market.server");
  const { percentileAmongCurrentGrades } = await import("../app/server/grades/evaluation.server");
  await migrateToLatest();
  const db = await getDb();
  const kind = await dbKind();
  const want = Number(process.env.BENCH_SCALE_USERS ?? (kind === "postgres" ? 100_000 : 10_000));
  const have = await sql<{ users: string }>`select count(*) as users from users`.execute(db);
  if (Number(have.rows[0]!.users) < want)
    await seedCommunity(db as Kysely<any>, { users: want, posts: want, log: () => {} });
  const scale = await sql<{
    users: string;
    graded: string;
    board: string;
  }>`select (select count(*) from users) as users,
    (select count(*) from users where current_evaluation_id is not null) as graded, (select count(*) from market_leaderboard) as board`.execute(
    db,
  );

  const iterations = Number(process.env.BENCH_ITERATIONS ?? 300);
  let x = 42;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const floor = () => sql`select 1`.execute(db);

  // Search keywords as bench/community.ts draws them: username prefixes, full names, last-name
  // prefixes and typos of first names, from a sample of real users.
  const users = (
    await sql<{ id: number; username: string | null; first_name: string | null; last_name: string | null }>`
    select id, username, first_name, last_name from users tablesample system (5) where username is not null limit 400`.execute(
      db,
    )
  ).rows;
  const keywords = searchKeywords(users, iterations, rand);
  // The old query on its own index: the GIN index 0027 dropped, built in a transaction that is
  // rolled back (other connections, which the new search uses, never see it).
  const search = await db.connection().execute(async (conn) => {
    const old = conn as unknown as Kysely<any>;
    await sql`begin`.execute(old);
    try {
      await sql`create index bench_users_search_gin on users using gin ((${searchText}) gin_trgm_ops)`.execute(old);
      // Keyword by keyword: the same traders in the same order; else a page of the same ranks
      // (traders of equal rank, e.g. two "Mary Smith", may differ); else the same tiers in the
      // same order (word similarity within a tier differs); else listed.
      const agreement = {
        keywords: keywords.length,
        sameTraders: 0,
        sameRanks: 0,
        sameTiers: 0,
        other: [] as string[],
      };
      for (const k of keywords) {
        const a = (await searchBefore(old, k)).map((r) => r.id);
        const b = (await searchTraders(k)).map((r) => r.id);
        const [ra, rb] = [await ranksOf(old, k, a), await ranksOf(old, k, b)];
        if (a.join() === b.join()) agreement.sameTraders++;
        else if (ra.ranks.join() === rb.ranks.join()) agreement.sameRanks++;
        else if (ra.tiers.join() === rb.tiers.join()) agreement.sameTiers++;
        else agreement.other.push(k);
      }
      const ms = await compare(keywords, {
        before: (k) => searchBefore(old, k),
        after: (k) => searchTraders(k),
        floor,
      });
      return { ms, agreement };
    } finally {
      await sql`rollback`.execute(old);
    }
  });

  const SORTS = ["score", "return", "drawdown", "followers"] as const;
  const TIERS = [undefined, undefined, undefined, "Gold", "Silver"];
  const views = Array.from({ length: Math.min(iterations, 200) }, () => ({
    sort: pick([...SORTS]),
    order: pick(["asc", "desc"] as const),
    tier: pick(TIERS),
  }));
  let sameBoard = 0;
  for (const v of views.slice(0, 40)) {
    const a = await leaderboardBefore(db as Kysely<any>, v.sort, v.order, v.tier);
    const b = await leaderboard(
      { page: 1, page_size: 20, sort_by: v.sort, order: v.order },
      v.tier ? { tier: v.tier as "Gold" } : {},
    );
    if (a.total === b.meta.total && a.ids.join() === b.data.map((r) => r.id).join()) sameBoard++;
  }
  const market = await compare(views, {
    before: (v) => leaderboardBefore(db as Kysely<any>, v.sort, v.order, v.tier),
    after: (v) =>
      leaderboard(
        { page: 1, page_size: 20, sort_by: v.sort, order: v.order },
        v.tier ? { tier: v.tier as "Gold" } : {},
      ),
    floor,
  });

  const graded = (
    await sql<{
      user_id: number;
      score: number;
    }>`select user_id, score from market_leaderboard order by random() limit 200`.execute(db)
  ).rows;
  const asks = Array.from({ length: Math.min(iterations, 200) }, () => ({
    id: pick(graded).user_id,
    score: Math.round(rand() * 1000) / 10,
  }));
  let samePercentile = 0;
  for (const a of asks.slice(0, 50))
    if (
      (await percentileBefore(db as Kysely<any>, a.id, a.score)) === (await percentileAmongCurrentGrades(a.id, a.score))
    )
      samePercentile++;
  const percentile = await compare(asks, {
    before: (a) => percentileBefore(db as Kysely<any>, a.id, a.score),
    after: (a) => percentileAmongCurrentGrades(a.id, a.score),
    floor,
  });

  const result = {
    database: kind,
    scale: Object.fromEntries(Object.entries(scale.rows[0]!).map(([k, v]) => [k, Number(v)])),
    ms: { search: search.ms, market, percentile },
    agreement: {
      search: search.agreement,
      leaderboardSamePageAndTotal: `${sameBoard}/40`,
      percentileEqual: `${samePercentile}/50`,
    },
    targets: { searchP95: 10, marketP50: 20, percentileP50: 5 },
  };
  await closeDb();
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchScale(), null, 2));
  process.exit(0);
}
