import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { searchKeywords } from "./keywords";

// Speed at 100,000 traders (issue 18), in process on the service functions, one client: trader
// search, the market leaderboard and the percentile of a grade, each beside a bare `select 1` (the
// floor: one round trip), in one run. The queries they replaced were measured beside them when
// the change was made (docs/PERFORMANCE.md keeps those figures; DECISIONS 156: no copies here).
// Needs a seeded database: `npm run seed -- --users 100000` with DATABASE_URL (PGlite: the
// bench seeds BENCH_SCALE_USERS, default 10,000, in memory).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
  return { n: s.length, p50: at(50), p95: at(95), max: at(100) };
}

// Interleaved (the query, then the floor, for each input) so load on the shared machine hits both alike.
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
  const search = await compare(keywords, { after: (k) => searchTraders(k), floor });

  const SORTS = ["score", "return", "drawdown", "followers"] as const;
  const TIERS = [undefined, undefined, undefined, "Gold", "Silver"];
  const views = Array.from({ length: Math.min(iterations, 200) }, () => ({
    sort: pick([...SORTS]),
    order: pick(["asc", "desc"] as const),
    tier: pick(TIERS),
  }));
  const market = await compare(views, {
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
  const percentile = await compare(asks, {
    after: (a) => percentileAmongCurrentGrades(a.id, a.score),
    floor,
  });

  const result = {
    database: kind,
    scale: Object.fromEntries(Object.entries(scale.rows[0]!).map(([k, v]) => [k, Number(v)])),
    ms: { search, market, percentile },
    targets: { searchP95: 10, marketP50: 20, percentileP50: 5 },
  };
  await closeDb();
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchScale(), null, 2));
  process.exit(0);
}
