import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { searchKeywords } from "./keywords";

// Community latency, in process on the service functions a page calls (server time, one client):
// trader search, a feed page (Latest and Following), and a trader profile page (header + posts tab).
// PostgreSQL when DATABASE_URL is set (seeds 100,000 users and 1,000,000 posts unless already
// seeded), otherwise in-memory PGlite at a smaller scale (BENCH_COMMUNITY_USERS, default 10,000).
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
  return { n: s.length, p50: at(50), p95: at(95), max: at(100) };
}

async function timeEach<T>(inputs: T[], run: (x: T) => Promise<unknown>, warmup = 20) {
  for (const x of inputs.slice(0, warmup)) await run(x);
  const out: number[] = [];
  for (const x of inputs) {
    const t = performance.now();
    await run(x);
    out.push(performance.now() - t);
  }
  return stats(out);
}

export async function benchCommunity() {
  const { closeDb, dbKind, getDb, migrateToLatest } = await import("../app/server/platform/db.server");
  const { seedCommunity } = await import("../scripts/seed");
  const { searchTraders } = await import("../app/server/community/search.server");
  const { feed, postsBy } = await import("../app/server/community/posts.server");
  const { isFollowing } = await import("../app/server/community/follows.server");
  const { isBlockedEitherWay } = await import("../app/server/community/messages.server");
  const { currentGradeSummary } = await import("../app/server/grades/evaluation.server");
  const { findPublicProfile } = await import("../app/server/http/guards.server");
  await migrateToLatest();
  const db = await getDb();
  const kind = await dbKind();
  const wantUsers = Number(process.env.BENCH_COMMUNITY_USERS ?? (kind === "postgres" ? 100_000 : 10_000));
  const wantPosts = Number(process.env.BENCH_COMMUNITY_POSTS ?? wantUsers * 10);
  const have = await sql<{
    users: string;
    posts: string;
  }>`select (select count(*) from users) as users, (select count(*) from posts) as posts`.execute(db);
  let seeded: unknown = "reused the data already in the database";
  if (Number(have.rows[0]!.users) < wantUsers || Number(have.rows[0]!.posts) < wantPosts) {
    const t = performance.now();
    seeded = {
      ...(await seedCommunity(db, { users: wantUsers, posts: wantPosts, log: () => {} })),
      totalMs: Math.round(performance.now() - t),
    };
  }
  const scale = await sql<{
    users: string;
    posts: string;
    follows: string;
    graded: string;
  }>`select (select count(*) from users) as users, (select count(*) from posts) as posts,
    (select count(*) from follows) as follows, (select count(*) from users where current_evaluation_id is not null) as graded`.execute(
    db,
  );

  // Inputs: real users (popular and ordinary), keywords cut from real names, with a few typos.
  const sample = await sql<{
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
  }>`
    select id, username, first_name, last_name from users tablesample system (5) where username is not null limit 400`.execute(
    db,
  );
  const users = sample.rows.length
    ? sample.rows
    : (
        await sql<{
          id: number;
          username: string | null;
          first_name: string | null;
          last_name: string | null;
        }>`select id, username, first_name, last_name from users limit 400`.execute(db)
      ).rows;
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 300);
  let x = 42;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const keywords = searchKeywords(users, iterations, rand);
  const viewers = Array.from({ length: iterations }, () => pick(users).id);
  const topPosts = await sql<{
    id: string;
  }>`select id from posts where parent_id is null and hidden_at is null and deleted_at is null order by id desc limit 2000`.execute(
    db,
  );
  const befores = Array.from({ length: iterations }, () =>
    topPosts.rows.length ? String(pick(topPosts.rows).id) : null,
  );

  const search = await timeEach(keywords, (k) => searchTraders(k));
  const feedLatest = await timeEach(viewers, (v) => feed(v, "latest", null));
  const feedLatestOlder = await timeEach(
    viewers.map((v, i) => [v, befores[i]] as const),
    ([v, b]) => feed(v, "latest", b),
  );
  const feedFollowing = await timeEach(viewers, (v) => feed(v, "following", null));
  const feedFollowingOlder = await timeEach(
    viewers.map((v, i) => [v, befores[i]] as const),
    ([v, b]) => feed(v, "following", b),
  );
  // The /u/:id page: the layout loader (profile, grade, counts, follow and block state) and the posts tab, concurrently as Remix runs them.
  const profile = await timeEach(
    viewers.map((v) => [v, pick(users).id] as const),
    async ([viewer, id]) => {
      await Promise.all([
        (async () => {
          const p = await findPublicProfile(id);
          if (!p) return;
          await Promise.all([
            currentGradeSummary(id),
            db
              .selectFrom("users")
              .select(["followers_count", "following_count"])
              .where("id", "=", id)
              .executeTakeFirst(),
            isFollowing(viewer, id),
            isBlockedEitherWay(viewer, id),
          ]);
        })(),
        postsBy(id, viewer, "posts", 1, 20),
      ]);
    },
  );
  const result = {
    database: kind,
    scale: Object.fromEntries(Object.entries(scale.rows[0]!).map(([k, v]) => [k, Number(v)])),
    seeded,
    ms: { search, feedLatest, feedLatestOlder, feedFollowing, feedFollowingOlder, profile },
    targetsOnPostgres: { searchP95: 20, feedP95: 30, profileP95: 50 },
  };
  await closeDb();
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchCommunity(), null, 2));
  process.exit(0);
}
