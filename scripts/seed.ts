import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { TIER_MIN, TIERS, type Tier } from "../app/lib/vocabulary";
import { compactLeaderboardCounts } from "../app/server/community/market.server";

// `npm run seed -- --users 100000 [--posts 1000000] [--follows 20] [--graded 0.3] [--likes 2]`
// A realistic community in a few set-based statements (INSERT … SELECT generate_series): users with
// names, graded traders with evaluations, a follow graph, posts over the last 90 days, replies and
// likes, with every counter recomputed from the rows at the end. Seed users have no password (they
// cannot log in) and e-mails under seed-<tag>-N@seed.invalid, so a run never collides with real users.

export type SeedOptions = {
  users: number;
  posts?: number;
  follows?: number;
  graded?: number;
  likes?: number;
  tag?: string;
  log?: (msg: string) => void;
};

const FIRST = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Carlos",
  "Karen",
  "Wei",
  "Aisha",
  "Yuki",
  "Olga",
  "Mohammed",
  "Priya",
  "Lucas",
  "Emma",
  "Noah",
  "Sofia",
  "Liam",
  "Mia",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Chen",
  "Tanaka",
  "Ivanova",
  "Khan",
  "Patel",
  "Silva",
  "Muller",
  "Rossi",
  "Dubois",
  "Kim",
  "Nguyen",
];
const WORDS = [
  "bought",
  "sold",
  "holding",
  "AAPL",
  "NVDA",
  "TSLA",
  "BTC",
  "ETH",
  "SPY",
  "earnings",
  "breakout",
  "support",
  "resistance",
  "stop",
  "loss",
  "trimmed",
  "added",
  "long",
  "short",
  "the",
  "dip",
  "rally",
  "today",
  "week",
  "risk",
  "position",
  "size",
  "patience",
  "plan",
  "chart",
];

const textArray = (xs: string[]) =>
  sql.raw(`(array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(",")}]::text[])`);
// By the score `s`, highest tier first: its tier and its overall stars (the tier's rank), by the real
// bounds (app/lib/vocabulary.ts), as the engine gives them.
const byTier = (value: (tier: Tier, rank: number) => string) =>
  sql.raw(
    `(case ${TIERS.map((t, i) => `when s >= ${TIER_MIN[t]} then ${value(t, i + 1)}`)
      .reverse()
      .join(" ")} end)`,
  );
const tierSql = byTier((tier) => `'${tier}'`);
const starsSql = byTier((_tier, rank) => String(rank));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside the app (any schema version)
export async function seedCommunity(db: Kysely<any>, opts: SeedOptions) {
  const log = opts.log ?? console.log;
  const users = Math.max(2, Math.floor(opts.users));
  const posts = Math.max(0, Math.floor(opts.posts ?? users * 10));
  const follows = Math.max(0, Math.min(users - 1, Math.floor(opts.follows ?? 20)));
  const graded = Math.min(1, Math.max(0, opts.graded ?? 0.3));
  const likesPerPost = Math.max(0, opts.likes ?? 2);
  const tag = opts.tag ?? Date.now().toString(36);
  const timings: Record<string, number> = {};
  const step = async (name: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    timings[name] = Math.round(performance.now() - t);
    log(`  ${name}: ${timings[name]} ms`);
  };

  // Users: first/last names from fixed lists, usernames first_last_N (unique by N and tag).
  await step("users", () =>
    sql`insert into users (email, username, first_name, last_name, onboarded_at, email_verified_at, markets, experience, created_at)
      select 'seed-' || ${tag} || '-' || g || '@seed.invalid',
        lower(f.first || '_' || l.last) || '_' || g || ${"_" + tag},
        f.first, l.last, now(), now(), '{us-stocks}', '1-3', now() - (g % 365) * interval '1 day'
      from generate_series(1, ${users}) g
      cross join lateral (select (${textArray(FIRST)})[1 + (g * 7) % ${FIRST.length}] as first) f
      cross join lateral (select (${textArray(LAST)})[1 + (g * 13 / ${FIRST.length}) % ${LAST.length}] as last) l`.execute(
      db,
    ),
  );
  const range = await sql<{
    lo: number;
    hi: number;
  }>`select min(id) as lo, max(id) as hi from users where email like ${`seed-${tag}-%`}`.execute(db);
  const lo = Number(range.rows[0]!.lo);
  const n = users;

  // Graded traders: one evaluation each with tier, score, stars, return and drawdown.
  await step("evaluations", async () => {
    await sql`insert into evaluations (user_id, engine_version, ledger_digest, tier, score, percentile, verification_code, demo, result)
      select ${lo} + g - 1, 'seed', 'seed', ${tierSql}, s, s / 100,
        'SEED-' || ${tag} || '-' || g, false,
        jsonb_build_object('tier', ${tierSql}, 'score', s,
          'stars', jsonb_build_object('overall', ${starsSql}, 'profitability', 1 + (g * 3) % 5, 'riskControl', 1 + (g * 7) % 5,
            'consistency', 1 + (g * 11) % 5, 'discipline', 1 + (g * 13) % 5, 'experience', 1 + (g * 17) % 5),
          'metrics', jsonb_build_object('twr', round(((s - 45) / 100.0 + ((g * 37) % 11) / 50.0)::numeric, 4), 'maxDrawdown', round((0.05 + ((g * 53) % 40) / 100.0)::numeric, 4)))
      from (select g, ((g * 7919) % 1000) / 10.0 as s from generate_series(1, ${n}) g where (g * 2654435761::bigint) % 1000 < ${Math.round(graded * 1000)}) x`.execute(
      db,
    );
    await sql`update users u set current_evaluation_id = e.id from evaluations e where e.user_id = u.id and e.verification_code like ${`SEED-${tag}-%`}`.execute(
      db,
    );
    // The board's trigger wrote a +1 per graded trader: folded now, not at the server's next pass.
    await compactLeaderboardCounts(db);
  });

  // Follow graph: each user follows `follows` others, skewed toward low ids (popular traders).
  await step("follows", () =>
    sql`insert into follows (follower_id, followee_id, created_at)
      select ${lo} + g - 1, ${lo} + t, now() - (k % 200) * interval '1 hour'
      from generate_series(1, ${n}) g, generate_series(1, ${follows}) k,
        lateral (select case when k % 2 = 0 then ((g * 31 + k * k * 17) % least(${n}, 1000)) else ((g::bigint * 2654435761 + k * 40503) % ${n})::int end as t) x
      where ${lo} + t <> ${lo} + g - 1
      on conflict do nothing`.execute(db),
  );
  await step("follow counts", async () => {
    await sql`update users u set following_count = c.n from (select follower_id, count(*) n from follows where follower_id between ${lo} and ${lo + n - 1} group by 1) c where c.follower_id = u.id`.execute(
      db,
    );
    await sql`update users u set followers_count = c.n from (select followee_id, count(*) n from follows where followee_id between ${lo} and ${lo + n - 1} group by 1) c where c.followee_id = u.id`.execute(
      db,
    );
  });

  // Posts over the last 90 days (80 % top-level), replies to earlier posts, likes.
  const top = Math.round(posts * 0.8);
  await step("posts", () =>
    sql`insert into posts (author_id, body, created_at, evaluation_id)
      select ${lo} + ((g::bigint * 48271) % ${n})::int,
        initcap(w1) || ' ' || w2 || ' ' || w3 || ' ' || w4 || ' #' || g,
        now() - ((${top} - g) * (7776000.0 / greatest(${top}, 1))) * interval '1 second', null
      from generate_series(1, ${top}) g,
        lateral (select (${textArray(WORDS)})[1 + g % ${WORDS.length}] w1, (${textArray(WORDS)})[1 + (g / 7) % ${WORDS.length}] w2,
                        (${textArray(WORDS)})[1 + (g / 13) % ${WORDS.length}] w3, (${textArray(WORDS)})[1 + (g / 29) % ${WORDS.length}] w4) w`.execute(
      db,
    ),
  );
  const postRange = await sql<{
    lo: string;
    hi: string;
  }>`select min(id) as lo, max(id) as hi from posts where body like '% #%' and author_id between ${lo} and ${lo + n - 1}`.execute(
    db,
  );
  const plo = Number(postRange.rows[0]?.lo ?? 0);
  const phi = Number(postRange.rows[0]?.hi ?? 0);
  if (posts - top > 0 && phi >= plo && plo > 0) {
    await step("replies", async () => {
      await sql`insert into posts (author_id, parent_id, root_id, body, created_at)
        select ${lo} + ((g::bigint * 69621) % ${n})::int, p, p, 'Good point about ' || (${textArray(WORDS)})[1 + g % ${WORDS.length}], now() - (g % 1000) * interval '1 minute'
        from generate_series(1, ${posts - top}) g, lateral (select ${phi} - ((g::bigint * g) % (${phi - plo + 1}))::bigint as p) x`.execute(
        db,
      );
      await sql`update posts p set reply_count = c.n from (select parent_id, count(*) n from posts where parent_id between ${plo} and ${phi} group by 1) c where c.parent_id = p.id`.execute(
        db,
      );
    });
  }
  if (likesPerPost > 0 && phi >= plo && plo > 0) {
    await step("likes", async () => {
      const total = Math.round((phi - plo + 1) * likesPerPost);
      await sql`insert into post_likes (user_id, post_id)
        select ${lo} + ((g::bigint * 16807) % ${n})::int, ${phi} - ((g::bigint * 7) % (${phi - plo + 1}) * ((g::bigint * 7) % (${phi - plo + 1})) / ${phi - plo + 1})
        from generate_series(1, ${total}) g on conflict do nothing`.execute(db);
      await sql`update posts p set like_count = c.n from (select post_id, count(*) n from post_likes where post_id between ${plo} and ${phi} group by 1) c where c.post_id = p.id`.execute(
        db,
      );
    });
  }
  await step("analyze", () => sql`analyze`.execute(db));
  return { tag, users: n, firstUserId: lo, posts, follows, graded, timings };
}

function arg(name: string, fallback?: number) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} needs a number`);
  return v;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { closeDb, dbKind, getDb, migrateToLatest, withoutStatementTimeout } =
    await import("../app/server/platform/db.server");
  // Bulk statements that run for minutes at 100,000 users: not under the requests' statement timeout.
  withoutStatementTimeout();
  await migrateToLatest();
  const users = arg("users", 1000)!;
  console.log(`Seeding ${users} users on ${await dbKind()}…`);
  const t = performance.now();
  const result = await seedCommunity(await getDb(), {
    users,
    posts: arg("posts"),
    follows: arg("follows"),
    graded: arg("graded"),
    likes: arg("likes"),
  });
  // What autovacuum would do to a settled database: the visibility map lets the search
  // dictionary's lookups be index-only scans (benches measure a settled database, not a fresh load).
  await sql`vacuum`.execute(await getDb());
  console.log(JSON.stringify({ ...result, totalMs: Math.round(performance.now() - t) }, null, 2));
  await closeDb();
}
