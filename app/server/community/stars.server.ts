import { sql } from "kysely";
import { z } from "zod";
import { getDb, type DB } from "../platform/db.server";
import { currentGradeSummary } from "../grades/evaluation.server";
import { flushPageViews } from "./page-views.server";

/**
 * Stars: traders graded Gold or better who applied (bio, strategy, markets) and were approved by an
 * operator (`npm run admin -- stars:approve <username>`). /stars lists them, /star-profile shows one,
 * /star-personal is a star's own dashboard.
 */
export const STAR_TIERS = ["Gold", "Master", "Legend"] as const;

export const StarApplicationSchema = z.object({
  bio: z
    .string()
    .trim()
    .min(20, "Write at least 20 characters about yourself.")
    .max(500, "Keep your bio under 500 characters."),
  strategy: z
    .string()
    .trim()
    .min(20, "Describe your strategy in at least 20 characters.")
    .max(1000, "Keep your strategy under 1,000 characters."),
  markets: z.string().trim().min(2, "Name the markets you trade.").max(200, "Keep the markets under 200 characters."),
});

export function isStarTier(tier: string | null | undefined): boolean {
  return STAR_TIERS.includes((tier ?? "") as (typeof STAR_TIERS)[number]);
}

export async function starApplication(userId: number) {
  const db = await getDb();
  return db.selectFrom("star_applications").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

export type ApplyResult = { ok: true } | { ok: false; reason: "not_graded" | "tier_too_low"; tier: string | null };

/** Applies (or updates a pending/rejected application; an approved star only updates the text). */
export async function submitStarApplication(
  userId: number,
  input: z.infer<typeof StarApplicationSchema>,
): Promise<ApplyResult> {
  const grade = await currentGradeSummary(userId);
  if (!grade) return { ok: false, reason: "not_graded", tier: null };
  if (!isStarTier(grade.tier)) return { ok: false, reason: "tier_too_low", tier: grade.tier };
  const db = await getDb();
  await db
    .insertInto("star_applications")
    .values({ user_id: userId, bio: input.bio, strategy: input.strategy, markets: input.markets })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        bio: input.bio,
        strategy: input.strategy,
        markets: input.markets,
        status: sql`case when star_applications.status = 'approved' then 'approved' else 'pending' end`,
      }),
    )
    .execute();
  return { ok: true };
}

/** Operator review: approves or rejects by username. Returns the user id, or null when there is no application. */
export async function reviewStarApplication(username: string, status: "approved" | "rejected"): Promise<number | null> {
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(username)`, "=", username.trim().toLowerCase())
    .executeTakeFirst();
  if (!user) return null;
  return reviewStarApplicationOf(db, user.id, status);
}

/** Operator review by user id (/admin/stars, inside its transaction); null when there is no application. */
export async function reviewStarApplicationOf(
  exec: DB,
  userId: number,
  status: "approved" | "rejected",
): Promise<number | null> {
  const row = await exec
    .updateTable("star_applications")
    .set({ status, reviewed_at: sql`now()` })
    .where("user_id", "=", userId)
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}

export async function listStarApplications(status?: "pending" | "approved" | "rejected") {
  const db = await getDb();
  return db
    .selectFrom("star_applications")
    .innerJoin("users", "users.id", "star_applications.user_id")
    .leftJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "users.id",
      "users.username",
      "users.email",
      "star_applications.status",
      "star_applications.created_at",
      "star_applications.bio",
      "star_applications.strategy",
      "star_applications.markets",
      "evaluations.tier",
    ])
    .$if(Boolean(status), (q) => q.where("star_applications.status", "=", status!))
    .orderBy("star_applications.created_at")
    .execute();
}

const starColumns = [
  "users.id",
  "users.username",
  "users.first_name",
  "users.last_name",
  "users.name",
  "users.avatar_url",
  "star_applications.bio",
  "star_applications.strategy",
  "star_applications.markets",
  "star_applications.reviewed_at",
  "evaluations.tier",
  "evaluations.score",
  "evaluations.verification_code",
] as const;

/** Approved stars, each with their user and current evaluation (if any). */
async function approvedStars() {
  const db = await getDb();
  return db
    .selectFrom("star_applications")
    .innerJoin("users", "users.id", "star_applications.user_id")
    .leftJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([...starColumns])
    .where("star_applications.status", "=", "approved");
}

/** Approved stars with their current grade (best score first). */
export async function listStars(limit = 100) {
  return (await approvedStars())
    .orderBy(sql`evaluations.score desc nulls last`)
    .orderBy("users.id")
    .limit(limit)
    .execute();
}

export async function starByUsername(username: string) {
  return (await approvedStars())
    .where(sql<string>`lower(users.username)`, "=", username.trim().toLowerCase())
    .executeTakeFirst();
}

async function tableExists(name: string): Promise<boolean> {
  const db = await getDb();
  const row = await sql<{ ok: boolean }>`select to_regclass(${`public.${name}`}) is not null as ok`.execute(db);
  return Boolean(row.rows[0]?.ok);
}

/**
 * A star's own numbers: followers by week (from the community's follows table when it exists:
 * current followers by the week they followed), card views by day and by share source from the
 * page-view events of /share/open_graph/<id>.
 */
export async function starDashboard(userId: number) {
  const db = await getDb();
  await flushPageViews();
  const cardPath = `/share/open_graph/${userId}`;
  const views = db
    .selectFrom("page_views")
    .where((eb) =>
      eb.or([eb("path", "=", cardPath), eb("path", "like", `${cardPath}/%`), eb("path", "like", `${cardPath}?%`)]),
    );
  const [byDay, bySource, total] = await Promise.all([
    views
      .select([
        sql<string>`to_char(date_trunc('day', created_at), 'YYYY-MM-DD')`.as("day"),
        (eb) => eb.fn.countAll<string>().as("n"),
      ])
      .where("created_at", ">", new Date(Date.now() - 30 * 86_400_000))
      .groupBy(sql`date_trunc('day', created_at)`)
      .orderBy(sql`date_trunc('day', created_at)`)
      .execute(),
    views
      .select([sql<string>`coalesce(source, 'direct')`.as("source"), (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy(sql`coalesce(source, 'direct')`)
      .orderBy(sql`count(*) desc`)
      .limit(20)
      .execute(),
    views.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst(),
  ]);
  let followers: { week: string; total: number }[] | null = null;
  if (await tableExists("follows")) {
    const rows = await sql<{ week: string; n: string }>`
      select to_char(date_trunc('week', created_at), 'YYYY-MM-DD') as week, count(*) as n
      from follows where followee_id = ${userId} and follower_id <> ${userId}
      group by 1 order by 1`.execute(db);
    let running = 0;
    followers = rows.rows.map((r) => ({ week: r.week, total: (running += Number(r.n)) }));
  }
  return {
    cardViews: Number(total?.n ?? 0),
    viewsByDay: byDay.map((r) => ({ day: r.day, views: Number(r.n) })),
    viewsBySource: bySource.map((r) => ({ source: r.source, views: Number(r.n) })),
    followers,
  };
}
