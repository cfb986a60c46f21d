import { sql } from "kysely";
import { seedCommunity } from "../../../scripts/seed";
import { getDb } from "./db.server";
import { getEnv, type Env } from "./env.server";

/** The demo community: a dozen graded traders (usernames end in _demo) with posts, replies, likes and follows. */
export const DEMO_COMMUNITY = { users: 12, posts: 60, follows: 5, graded: 1, likes: 3, tag: "demo" } as const;

/**
 * In demo mode (DEMO=1, as `npm start` runs) a database without any user gets the demo community,
 * so a fresh install does not open on an empty feed; SEED_DEMO=0 leaves it empty. The check and
 * the seeding share one transaction under an advisory lock, so restarts and replicas seed once.
 * The grades are marked demo and never enter the public grade log (only real grading appends).
 */
export async function seedDemoCommunityIfEmpty(env: Env = getEnv()): Promise<{ users: number } | null> {
  if (!env.DEMO || !env.SEED_DEMO) return null;
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('grader:seed-demo'))`.execute(trx);
    if (await trx.selectFrom("users").select("id").limit(1).executeTakeFirst()) return null;
    const result = await seedCommunity(trx, { ...DEMO_COMMUNITY, demo: true, log: () => {} });
    return { users: result.users };
  });
}
