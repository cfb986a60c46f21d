import { sql } from "kysely";
import { demoPriceSeries, gradeAndPostDemoTraders, insertDemoTraders } from "../../../scripts/demo-community";
import { getDb } from "./db.server";
import { getEnv, type Env } from "./env.server";

/**
 * In demo mode (DEMO=1, as `npm start` runs) a database without any user gets the demo community
 * (scripts/demo-community.ts), so a fresh install does not open on an empty feed; SEED_DEMO=0
 * leaves it empty. The prices come first (the app's price source, cached); the check and the
 * traders with their histories share one transaction under an advisory lock, so restarts and
 * replicas seed once; each trader is then graded by the engine from the history they hold (a
 * grade marked demo, never in the public grade log), and the posts are written. A seeded trader
 * left ungraded (the process stopped between the two) is graded at the next start.
 */
export async function seedDemoCommunityIfEmpty(env: Env = getEnv()): Promise<{ users: number; graded: number } | null> {
  if (!env.DEMO || !env.SEED_DEMO) return null;
  const db = await getDb();
  const anyUser = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  const ungraded = anyUser
    ? await db
        .selectFrom("users")
        .select("id")
        .where("email", "like", "seed-demo-%@seed.invalid")
        .where("current_evaluation_id", "is", null)
        .limit(1)
        .executeTakeFirst()
    : undefined;
  if (anyUser && !ungraded) return null;
  const { series, last } = await demoPriceSeries();
  const seeded = anyUser
    ? []
    : await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('grader:seed-demo'))`.execute(trx);
        if (await trx.selectFrom("users").select("id").limit(1).executeTakeFirst()) return null;
        return insertDemoTraders(trx, series, last);
      });
  if (seeded === null) return null;
  const graded = await gradeAndPostDemoTraders(db, series, last);
  return { users: seeded.length, graded };
}
