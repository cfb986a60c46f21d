import { sql } from "kysely";
import { z } from "zod";
import { setPostHidden } from "../community/posts.server";
import { getDb } from "../platform/db.server";
import { getSessionUser, type SessionUser } from "../http/session.server";
import { reviewStarApplicationOf } from "../community/stars.server";
import { normalizeEmail } from "./users.server";

/**
 * Operators in the product (/admin). The role is a column read on every request, so granting or
 * revoking (`npm run admin -- grant|revoke <email>`, or another admin on /admin/users) takes
 * effect at once, without a restart. Everyone else, signed in or not, gets a 404: the area is
 * not advertised.
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user?.is_admin) throw new Response("Not Found", { status: 404 });
  return user;
}

/** Grants or revokes the role by e-mail; the user id, or null when no account has that e-mail. */
export async function setAdminByEmail(email: string, on: boolean): Promise<number | null> {
  const db = await getDb();
  const row = await db
    .updateTable("users")
    .set({ is_admin: on })
    .where("email", "=", normalizeEmail(email))
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function listAdmins() {
  const db = await getDb();
  return db
    .selectFrom("users")
    .select(["id", "email", "username"])
    .where("is_admin", "=", true)
    .orderBy("id")
    .execute();
}

/** The counts on the area's tabs. */
export async function adminCounts() {
  const db = await getDb();
  const [reports, stars] = await Promise.all([
    db
      .selectFrom("reports")
      .select((eb) => eb.fn.count<string>(sql`distinct post_id`).as("n"))
      .where("reviewed_at", "is", null)
      .where("post_id", "is not", null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("star_applications")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow(),
  ]);
  return { openReports: Number(reports.n), pendingStars: Number(stars.n) };
}

// ---------------------------------------------------------------------------------------------
// Reports

export const REPORTS_PAGE = 20;

/** Reported posts with open (unreviewed) reports, most reported first, with their reasons. */
export async function openReportedPosts(page: number) {
  const db = await getDb();
  const rows = await db
    .selectFrom("reports")
    .innerJoin("posts", "posts.id", "reports.post_id")
    .innerJoin("users", "users.id", "posts.author_id")
    .where("reports.reviewed_at", "is", null)
    .select([
      "posts.id",
      "posts.body",
      "posts.hidden_at",
      "posts.deleted_at",
      "posts.created_at",
      "users.id as author_id",
      "users.username as author_username",
      (eb) => eb.fn.countAll<string>().as("reports"),
      sql<string[]>`(array_agg(reports.reason order by reports.created_at desc))[1:5]`.as("reasons"),
      (eb) => eb.fn.max("reports.created_at").as("last_reported_at"),
    ])
    .groupBy(["posts.id", "users.id"])
    .orderBy(sql`count(*) desc`)
    .orderBy(sql`max(reports.created_at) desc`)
    .limit(REPORTS_PAGE + 1)
    .offset((page - 1) * REPORTS_PAGE)
    .execute();
  return {
    posts: rows.slice(0, REPORTS_PAGE).map((r) => ({
      ...r,
      id: String(r.id),
      reports: Number(r.reports),
      hidden: r.hidden_at !== null,
      deleted: r.deleted_at !== null,
    })),
    more: rows.length > REPORTS_PAGE,
  };
}

export const ModerationInput = z.object({
  post_id: z.string().regex(/^\d{1,18}$/, "Not a post id."),
  decision: z.enum(["hide", "restore", "dismiss"], {
    errorMap: () => ({ message: "Choose hide, restore or dismiss." }),
  }),
});

/**
 * Decides a reported post in one transaction: hide it, restore it (visible again, its report
 * count zeroed) or dismiss the reports (visibility unchanged, count zeroed). Every open report
 * on the post is closed with the decision. False when there is no such post.
 */
export async function moderatePost(
  postId: string,
  decision: z.infer<typeof ModerationInput>["decision"],
): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    if (decision === "dismiss") {
      const row = await trx
        .updateTable("posts")
        .set({ report_count: 0 })
        .where("id", "=", postId)
        .returning("id")
        .executeTakeFirst();
      if (!row) return false;
    } else if (!(await setPostHidden(trx, postId, decision === "hide"))) {
      return false;
    }
    const resolution = decision === "hide" ? "hidden" : decision === "restore" ? "restored" : "dismissed";
    await trx
      .updateTable("reports")
      .set({ reviewed_at: sql`now()`, resolution })
      .where("post_id", "=", postId)
      .where("reviewed_at", "is", null)
      .execute();
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Stars

export const StarReviewInput = z.object({
  user_id: z
    .string()
    .regex(/^\d{1,10}$/, "Not a user id.")
    .transform(Number),
  decision: z.enum(["approved", "rejected"], { errorMap: () => ({ message: "Choose approve or reject." }) }),
});

export async function reviewStar(userId: number, decision: "approved" | "rejected"): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => (await reviewStarApplicationOf(trx, userId, decision)) !== null);
}

// ---------------------------------------------------------------------------------------------
// Users

export const USERS_PAGE = 50;

/** Users, newest first, optionally matching `q` in e-mail, username or names; one page and whether there is another. */
export async function listUsers(q: string, page: number) {
  const db = await getDb();
  const needle = q.trim().toLowerCase();
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom("users")
    .leftJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "users.id",
      "users.email",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.created_at",
      "users.email_verified_at",
      "users.is_admin",
      "users.followers_count",
      "evaluations.tier",
      "evaluations.demo",
    ])
    .$if(needle.length > 0, (qb) =>
      qb.where(
        sql<boolean>`(users.email like ${pattern} or lower(coalesce(users.username, '')) like ${pattern} or lower(coalesce(users.first_name, '') || ' ' || coalesce(users.last_name, '')) like ${pattern})`,
      ),
    )
    .orderBy("users.id", "desc")
    .limit(USERS_PAGE + 1)
    .offset((page - 1) * USERS_PAGE)
    .execute();
  return { users: rows.slice(0, USERS_PAGE), more: rows.length > USERS_PAGE };
}

export const RoleInput = z.object({
  user_id: z
    .string()
    .regex(/^\d{1,10}$/, "Not a user id.")
    .transform(Number),
  role: z.enum(["grant", "revoke"], { errorMap: () => ({ message: "Choose grant or revoke." }) }),
});

/** Grants or revokes the role from /admin/users. An admin cannot revoke themselves (someone must stay). */
export async function setAdminRole(actorId: number, userId: number, on: boolean): Promise<"ok" | "not_found" | "self"> {
  if (!on && actorId === userId) return "self";
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("users")
      .set({ is_admin: on })
      .where("id", "=", userId)
      .returning("id")
      .executeTakeFirst();
    return row ? "ok" : "not_found";
  });
}

/** A page number from ?page= (1 when absent or not a small whole number). */
export function pageParam(url: URL): number {
  const raw = url.searchParams.get("page") ?? "1";
  return /^\d{1,5}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : 1;
}
