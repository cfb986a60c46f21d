import { sql } from "kysely";
import { z } from "zod";
import { getDb, type DB } from "../platform/db.server";
import type { ClubJoinPolicy, ClubMemberStatus, ClubRole } from "../platform/db/schema";
import { clubModerators, raiseClubLive, raiseClubModerators } from "./club-live.server";
import { notify } from "./notifications.server";
import { PostBody, setPostHidden } from "./posts.server";
import type { Refusal } from "~/lib/refusal";
import { TIERS, type Tier } from "~/lib/vocabulary";
import { displayName } from "~/lib/display-name";

/**
 * Trader clubs (issue 34 point 4, DECISIONS 216). A Gold-or-better verified trader or an approved
 * Star creates one; others join an open club at once or ask to join one by request; the owner and
 * the moderators approve, decline, remove and appoint. Rights are per club: a moderator of one club
 * has none in another. A club's feed is community posts with its id (posts.server.ts).
 */
export const CLUB_NAME_MIN = 3;
export const CLUB_NAME_MAX = 60;
export const CLUB_DESCRIPTION_MAX = 1000;
export const CLUB_MARKETS_MAX = 200;
/** Clubs one person may own: enough for a few focuses, few enough that names are not squatted. */
export const CLUBS_PER_OWNER = 3;
/** Clubs one person may be in (active or asking), so a script cannot join them all. */
export const MEMBERSHIPS_MAX = 50;
export const CLUBS_PAGE = 20;
/** The tiers that may create a club (the same as may apply to be a Star). */
export const CREATOR_TIERS: readonly Tier[] = ["Gold", "Master", "Legend"];
/** Paths under /clubs that are pages, so never a club's slug. */
const RESERVED_SLUGS = new Set(["new", "mine", "search"]);

const optionalTier = z.preprocess(
  (v) => (v === "" || v === "none" || v === undefined || v === null ? null : v),
  z.enum(TIERS, { errorMap: () => ({ message: `Choose one of ${TIERS.join(", ")}, or none.` }) }).nullable(),
);

export const ClubInput = z.object({
  name: z
    .string({ required_error: "Give the club a name." })
    .transform((s) => s.replace(/\s+/g, " ").trim())
    .pipe(
      z
        .string()
        .min(CLUB_NAME_MIN, `The name needs at least ${CLUB_NAME_MIN} characters.`)
        .max(CLUB_NAME_MAX, `Keep the name under ${CLUB_NAME_MAX} characters.`)
        .regex(/[\p{L}\p{N}]/u, "The name needs a letter or a digit."),
    ),
  description: z
    .string({ required_error: "Say what the club is about." })
    .transform((s) => s.replace(/\r\n/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(10, "Say what the club is about in at least 10 characters.")
        .max(CLUB_DESCRIPTION_MAX, `Keep the description under ${CLUB_DESCRIPTION_MAX} characters.`),
    ),
  markets: z
    .string()
    .trim()
    .max(CLUB_MARKETS_MAX, `Keep the markets under ${CLUB_MARKETS_MAX} characters.`)
    .default(""),
  min_tier: optionalTier.default(null),
  join_policy: z.enum(["open", "request"], { errorMap: () => ({ message: "Choose open or by request." }) }),
});
export type ClubInputData = z.infer<typeof ClubInput>;

export const ClubSearch = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  page: z.coerce.number().int().min(1).max(1000).catch(1).default(1),
});

/** The JSON API's query (GET /api/portal/clubs): strict, so a bad value is a 400 that says which. */
export const CLUBS_QUERY = z.object({
  q: z.string().trim().max(100, "At most 100 characters.").optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});

/** "Crypto Swing Traders!" → "crypto-swing-traders"; letters outside a–z become dashes (or "club" if none is left). */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return s || "club";
}

export type ClubView = {
  id: number;
  slug: string;
  name: string;
  description: string;
  markets: string;
  min_tier: Tier | null;
  join_policy: ClubJoinPolicy;
  member_count: number;
  created_at: string;
  owner: {
    id: number;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
    avatar: string | null;
  };
};

export type Membership = { role: ClubRole; status: ClubMemberStatus } | null;

const tierRank = (tier: string | null | undefined) => (tier ? TIERS.indexOf(tier as Tier) : -1);

function clubQuery(db: DB) {
  return db
    .selectFrom("clubs")
    .innerJoin("users", "users.id", "clubs.owner_id")
    .select([
      "clubs.id",
      "clubs.slug",
      "clubs.name",
      "clubs.description",
      "clubs.markets",
      "clubs.min_tier",
      "clubs.join_policy",
      "clubs.member_count",
      "clubs.created_at",
      "clubs.owner_id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name as owner_name",
      "users.avatar_url as owner_avatar",
    ]);
}

type ClubRow = Awaited<ReturnType<ReturnType<typeof clubQuery>["executeTakeFirstOrThrow"]>>;

function toClub(r: ClubRow): ClubView {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    markets: r.markets,
    min_tier: (r.min_tier as Tier | null) ?? null,
    join_policy: r.join_policy,
    member_count: r.member_count,
    created_at: new Date(r.created_at).toISOString(),
    owner: {
      id: r.owner_id,
      username: r.username,
      first_name: r.first_name,
      last_name: r.last_name,
      name: r.owner_name,
      avatar: r.owner_avatar,
    },
  };
}

/** The verified tier: the current grade on the market leaderboard (self-reported grades are not on it). */
export async function verifiedTier(exec: DB, userId: number): Promise<Tier | null> {
  const row = await exec
    .selectFrom("market_leaderboard")
    .select("tier")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return (row?.tier as Tier | null | undefined) ?? null;
}

async function isStar(exec: DB, userId: number): Promise<boolean> {
  const row = await exec
    .selectFrom("star_applications")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("status", "=", "approved")
    .executeTakeFirst();
  return Boolean(row);
}

/** Whether `userId` may create a club, and if not, the sentence that says why. */
export async function creationRefusal(userId: number, exec?: DB): Promise<string | null> {
  const db = exec ?? (await getDb());
  const [tier, star] = await Promise.all([verifiedTier(db, userId), isStar(db, userId)]);
  if (star || CREATOR_TIERS.includes(tier as Tier)) return null;
  return tier
    ? `Creating a club takes a verified Gold grade or better, or being a Star. Your verified grade is ${tier}.`
    : "Creating a club takes a verified Gold grade or better, or being a Star. Get your grade first.";
}

export type CreateClubResult = { ok: true; slug: string } | Refusal<403 | 409>;

/** Creates the club with its owner as its first member, in one transaction. */
export async function createClub(ownerId: number, input: ClubInputData): Promise<CreateClubResult> {
  const slug = slugify(input.name);
  if (RESERVED_SLUGS.has(slug)) return { ok: false, status: 409, message: "That name is taken. Choose another." };
  const db = await getDb();
  try {
    return await db.transaction().execute(async (trx) => {
      // The owner's row, locked, serialises one person's creations so the limit holds under races.
      await trx.selectFrom("users").select("id").where("id", "=", ownerId).forUpdate().executeTakeFirstOrThrow();
      const refusal = await creationRefusal(ownerId, trx);
      if (refusal) return { ok: false as const, status: 403 as const, message: refusal };
      const owned = await trx
        .selectFrom("clubs")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("owner_id", "=", ownerId)
        .executeTakeFirstOrThrow();
      if (Number(owned.n) >= CLUBS_PER_OWNER)
        return {
          ok: false as const,
          status: 409 as const,
          message: `You already own ${CLUBS_PER_OWNER} clubs, the most one person can.`,
        };
      const taken = await trx
        .selectFrom("clubs")
        .select("id")
        .where((eb) => eb.or([eb("slug", "=", slug), eb(sql`lower(name)`, "=", input.name.toLowerCase())]))
        .executeTakeFirst();
      if (taken) return { ok: false as const, status: 409 as const, message: "That name is taken. Choose another." };
      const club = await trx
        .insertInto("clubs")
        .values({
          slug,
          name: input.name,
          description: input.description,
          markets: input.markets,
          min_tier: input.min_tier,
          join_policy: input.join_policy,
          owner_id: ownerId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("club_members")
        .values({ club_id: club.id, user_id: ownerId, role: "owner", status: "active" })
        .execute();
      return { ok: true as const, slug };
    });
  } catch (e) {
    // Two people creating the same name at once: the unique index decides, the loser is told.
    if ((e as { code?: string }).code === "23505")
      return { ok: false, status: 409, message: "That name is taken. Choose another." };
    throw e;
  }
}

/** A club's name and slug by id: where a club post's page links back to. */
export async function clubRef(clubId: number): Promise<{ slug: string; name: string } | null> {
  const db = await getDb();
  return (await db.selectFrom("clubs").select(["slug", "name"]).where("id", "=", clubId).executeTakeFirst()) ?? null;
}

export async function getClub(slug: string): Promise<ClubView | null> {
  const db = await getDb();
  const row = await clubQuery(db).where("clubs.slug", "=", slug).executeTakeFirst();
  return row ? toClub(row) : null;
}

export async function membershipOf(clubId: number, userId: number, exec?: DB): Promise<Membership> {
  const row = await (exec ?? (await getDb()))
    .selectFrom("club_members")
    .select(["role", "status"])
    .where("club_id", "=", clubId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ?? null;
}

export const isModerator = (m: Membership) =>
  m !== null && m.status === "active" && (m.role === "owner" || m.role === "moderator");

/** Clubs by member count, searched by name, description and markets (words, any order). */
export async function listClubs(q: string, page = 1, pageSize = CLUBS_PAGE) {
  const db = await getDb();
  let base = db.selectFrom("clubs");
  const words = q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
    .map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  for (const w of words)
    base = base.where(sql<boolean>`(clubs.name || ' ' || clubs.description || ' ' || clubs.markets) ilike ${w}`);
  const [rows, total] = await Promise.all([
    clubQuery(db)
      .where("clubs.id", "in", base.select("clubs.id"))
      .orderBy("clubs.member_count", "desc")
      .orderBy("clubs.id", "asc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(toClub), meta: { page, page_size: pageSize, total: Number(total.n) } };
}

/** The clubs a person is in or has asked to join, with their role. */
export async function clubsOf(userId: number) {
  const db = await getDb();
  const rows = await clubQuery(db)
    .innerJoin("club_members", "club_members.club_id", "clubs.id")
    .select(["club_members.role", "club_members.status as member_status"])
    .where("club_members.user_id", "=", userId)
    .where("club_members.status", "in", ["active", "pending"])
    .orderBy("clubs.name")
    .execute();
  return rows.map((r) => ({ ...toClub(r), role: r.role, status: r.member_status }));
}

export type JoinResult = { ok: true; status: "active" | "pending" } | Refusal<403 | 404 | 409>;

/** Joins an open club, or asks to join one by request; the minimum tier is checked against the verified grade. */
export async function joinClub(userId: number, slug: string): Promise<JoinResult> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const club = await trx
      .selectFrom("clubs")
      .select(["id", "name", "min_tier", "join_policy"])
      .where("slug", "=", slug)
      .forUpdate()
      .executeTakeFirst();
    if (!club) return { ok: false as const, status: 404 as const, message: "There is no such club." };
    const existing = await membershipOf(club.id, userId, trx);
    if (existing?.status === "active")
      return { ok: false as const, status: 409 as const, message: "You are already a member of this club." };
    if (existing?.status === "pending")
      return {
        ok: false as const,
        status: 409 as const,
        message: "You already asked to join; a moderator will answer.",
      };
    if (existing?.status === "removed")
      return {
        ok: false as const,
        status: 403 as const,
        message: "A moderator removed you from this club, so you cannot join it again.",
      };
    if (club.min_tier) {
      const tier = await verifiedTier(trx, userId);
      if (tierRank(tier) < tierRank(club.min_tier))
        return {
          ok: false as const,
          status: 403 as const,
          message: tier
            ? `This club is for traders with a verified ${club.min_tier} grade or better. Yours is ${tier}.`
            : `This club is for traders with a verified ${club.min_tier} grade or better. Get your grade first.`,
        };
    }
    const mine = await trx
      .selectFrom("club_members")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", userId)
      .where("status", "in", ["active", "pending"])
      .executeTakeFirstOrThrow();
    if (Number(mine.n) >= MEMBERSHIPS_MAX)
      return {
        ok: false as const,
        status: 409 as const,
        message: `You are in ${MEMBERSHIPS_MAX} clubs already, the most one person can. Leave one first.`,
      };
    const status = club.join_policy === "open" ? ("active" as const) : ("pending" as const);
    await trx.insertInto("club_members").values({ club_id: club.id, user_id: userId, status }).execute();
    if (status === "active")
      await trx
        .updateTable("clubs")
        .set({ member_count: sql`member_count + 1` })
        .where("id", "=", club.id)
        .execute();
    // Open pages reload: the members' (a new member) or the moderators' (a request waiting).
    if (status === "active") await raiseClubLive(trx, club.id, "members", [userId]);
    else {
      await raiseClubModerators(trx, club.id, [userId]);
      // The owner and moderators hear of a request in the bell (and by push and digest, per their settings).
      await notify(trx, {
        to: await clubModerators(trx, club.id),
        kind: "club_request",
        actorId: userId,
        subject: `club:${club.id}`,
        url: `/clubs/${slug}?tab=manage`,
        data: { club: club.name },
      });
    }
    return { ok: true as const, status };
  });
}

/** Leaves a club or withdraws a request. The owner cannot leave the club they own. */
export async function leaveClub(userId: number, slug: string): Promise<{ ok: true } | Refusal<400 | 404>> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const club = await trx.selectFrom("clubs").select("id").where("slug", "=", slug).forUpdate().executeTakeFirst();
    if (!club) return { ok: false as const, status: 404 as const, message: "There is no such club." };
    const m = await membershipOf(club.id, userId, trx);
    if (!m || m.status === "removed")
      return { ok: false as const, status: 400 as const, message: "You are not a member of this club." };
    if (m.role === "owner")
      return { ok: false as const, status: 400 as const, message: "You own this club, so you cannot leave it." };
    await trx.deleteFrom("club_members").where("club_id", "=", club.id).where("user_id", "=", userId).execute();
    if (m.status === "active")
      await trx
        .updateTable("clubs")
        .set({ member_count: sql`greatest(member_count - 1, 0)` })
        .where("id", "=", club.id)
        .execute();
    if (m.status === "active") await raiseClubLive(trx, club.id, "members", [userId]);
    else await raiseClubModerators(trx, club.id, [userId]);
    return { ok: true as const };
  });
}

export const MODERATION_ACTIONS = ["approve", "decline", "remove", "appoint", "demote", "readmit"] as const;
export type ClubModeration = (typeof MODERATION_ACTIONS)[number];

export const ModerateInput = z.object({
  action: z.enum(MODERATION_ACTIONS, { errorMap: () => ({ message: "Unknown action." }) }),
  user_id: z.coerce.number({ invalid_type_error: "Not a member." }).int().positive().max(2_147_483_647),
});

/**
 * A moderator's action on one person of their club. The owner and moderators approve or decline
 * requests, remove members and appoint moderators; only the owner demotes or removes a moderator.
 * Nobody acts on the owner or on themselves. A moderator of another club is refused.
 */
export async function moderateMember(
  actorId: number,
  slug: string,
  targetId: number,
  action: ClubModeration,
): Promise<{ ok: true } | Refusal<400 | 403 | 404>> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const club = await trx
      .selectFrom("clubs")
      .select(["id", "name"])
      .where("slug", "=", slug)
      .forUpdate()
      .executeTakeFirst();
    if (!club) return { ok: false as const, status: 404 as const, message: "There is no such club." };
    const actor = await membershipOf(club.id, actorId, trx);
    if (!isModerator(actor))
      return {
        ok: false as const,
        status: 403 as const,
        message: "Only this club's owner and moderators can do that.",
      };
    if (targetId === actorId)
      return { ok: false as const, status: 400 as const, message: "You cannot do that to yourself." };
    const target = await membershipOf(club.id, targetId, trx);
    const refuse = (message: string) => ({ ok: false as const, status: 400 as const, message });
    if (!target) return refuse("That person is not in this club.");
    if (target.role === "owner") return refuse("Nobody can do that to the club's owner.");
    const ownerOnly = () => ({
      ok: false as const,
      status: 403 as const,
      message: "Only the club's owner can do that to a moderator.",
    });
    const member = trx.updateTable("club_members").where("club_id", "=", club.id).where("user_id", "=", targetId);
    const count = (delta: number) =>
      trx
        .updateTable("clubs")
        .set({ member_count: sql`greatest(member_count + ${delta}, 0)` })
        .where("id", "=", club.id)
        .execute();
    switch (action) {
      case "approve":
        if (target.status !== "pending") return refuse("There is no request from that person to approve.");
        await member.set({ status: "active" }).execute();
        await count(1);
        await notify(trx, {
          to: targetId,
          kind: "club_joined",
          actorId,
          subject: `club:${club.id}`,
          url: `/clubs/${slug}`,
          data: { club: club.name },
        });
        break;
      case "decline":
        if (target.status !== "pending") return refuse("There is no request from that person to decline.");
        await trx.deleteFrom("club_members").where("club_id", "=", club.id).where("user_id", "=", targetId).execute();
        break;
      case "remove":
        if (target.status !== "active") return refuse("That person is not a member.");
        if (target.role === "moderator" && actor!.role !== "owner") return ownerOnly();
        await member.set({ status: "removed", role: "member" }).execute();
        await count(-1);
        break;
      case "appoint":
        if (target.status !== "active") return refuse("Only a member can be made a moderator.");
        if (target.role === "moderator") return refuse("That member is a moderator already.");
        await member.set({ role: "moderator" }).execute();
        break;
      case "demote":
        if (target.role !== "moderator" || target.status !== "active") return refuse("That member is not a moderator.");
        if (actor!.role !== "owner") return ownerOnly();
        await member.set({ role: "member" }).execute();
        break;
      case "readmit":
        // Lets a removed person join again (they still have to join or ask).
        if (target.status !== "removed") return refuse("That person was not removed.");
        await trx.deleteFrom("club_members").where("club_id", "=", club.id).where("user_id", "=", targetId).execute();
        break;
    }
    // Open pages reload; a declined or readmitted person was never a member the others see.
    if (action === "decline" || action === "readmit") await raiseClubModerators(trx, club.id, [targetId]);
    else await raiseClubLive(trx, club.id, "members", [targetId]);
    return { ok: true as const };
  });
}

export type ClubPerson = {
  id: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar: string | null;
  role: ClubRole;
  status: ClubMemberStatus;
  /** The verified tier (self-reported grades are not shown as one). */
  tier: string | null;
  stars: number;
  score: number | null;
  return: number | null;
  drawdown: number | null;
};

function people(db: DB, clubId: number) {
  return db
    .selectFrom("club_members")
    .innerJoin("users", "users.id", "club_members.user_id")
    .leftJoin("market_leaderboard", "market_leaderboard.user_id", "club_members.user_id")
    .select([
      "users.id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.avatar_url",
      "club_members.role",
      "club_members.status",
      "market_leaderboard.tier",
      "market_leaderboard.stars",
      "market_leaderboard.score",
      "market_leaderboard.twr",
      "market_leaderboard.max_drawdown",
    ])
    .where("club_members.club_id", "=", clubId);
}

const toPerson = (r: Awaited<ReturnType<ReturnType<typeof people>["execute"]>>[number]): ClubPerson => ({
  id: r.id,
  username: r.username,
  first_name: r.first_name,
  last_name: r.last_name,
  name: r.name,
  avatar: r.avatar_url,
  role: r.role,
  status: r.status,
  tier: r.tier,
  stars: Number(r.stars ?? 0),
  score: r.score,
  return: r.twr,
  drawdown: r.max_drawdown,
});

export const MEMBERS_PAGE = 50;

/** Active members, owner and moderators first, then by when they joined; paged. */
export async function clubMembers(clubId: number, page = 1) {
  const db = await getDb();
  const rows = await people(db, clubId)
    .where("club_members.status", "=", "active")
    .orderBy(sql`case club_members.role when 'owner' then 0 when 'moderator' then 1 else 2 end`)
    .orderBy("club_members.created_at")
    .orderBy("users.id")
    .limit(MEMBERS_PAGE)
    .offset((page - 1) * MEMBERS_PAGE)
    .execute();
  return rows.map(toPerson);
}

/** Requests waiting and people removed: what the moderators see. */
export async function clubQueue(clubId: number) {
  const db = await getDb();
  const rows = await people(db, clubId)
    .where("club_members.status", "in", ["pending", "removed"])
    .orderBy("club_members.created_at")
    .limit(200)
    .execute();
  return rows.map(toPerson);
}

/** The members with a verified grade, best score first (the market leaderboard's figures). */
export async function clubLeaderboard(clubId: number, limit = 100) {
  const db = await getDb();
  const rows = await people(db, clubId)
    .where("club_members.status", "=", "active")
    .where("market_leaderboard.score", "is not", null)
    .orderBy("market_leaderboard.score", "desc")
    .orderBy("users.id")
    .limit(limit)
    .execute();
  return rows.map((r, i) => ({ rank: i + 1, ...toPerson(r) }));
}

/** Reported posts of the club with open reports: the club's moderators see these (and /admin sees every report). */
export async function clubReports(clubId: number) {
  const db = await getDb();
  const rows = await db
    .selectFrom("reports")
    .innerJoin("posts", "posts.id", "reports.post_id")
    .innerJoin("users", "users.id", "posts.author_id")
    .where("posts.club_id", "=", clubId)
    .where("reports.reviewed_at", "is", null)
    .groupBy(["posts.id", "users.id"])
    .select([
      "posts.id",
      "posts.body",
      "posts.root_id",
      "posts.hidden_at",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      (eb) => eb.fn.countAll<string>().as("reports"),
      sql<string[]>`(array_agg(reports.reason order by reports.created_at desc))[1:3]`.as("reasons"),
    ])
    .orderBy(sql`max(reports.created_at) desc`)
    .limit(100)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    root_id: r.root_id === null ? null : String(r.root_id),
    body: r.body,
    hidden: Boolean(r.hidden_at),
    reports: Number(r.reports),
    reasons: r.reasons,
    author: { username: r.username, first_name: r.first_name, last_name: r.last_name, name: r.name },
  }));
}

export const ClubReportInput = z.object({
  post_id: z.string().regex(/^\d{1,18}$/, "Not a post id."),
  decision: z.enum(["hide", "restore", "dismiss"], {
    errorMap: () => ({ message: "Choose hide, restore or dismiss." }),
  }),
});

/**
 * A club moderator's decision on a reported post of their club, as /admin decides any post: hide,
 * restore or dismiss, closing the post's open reports. A post of another club is not theirs.
 */
export async function decideClubReport(
  actorId: number,
  slug: string,
  postId: string,
  decision: z.infer<typeof ClubReportInput>["decision"],
): Promise<{ ok: true } | Refusal<403 | 404>> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const club = await trx.selectFrom("clubs").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!club) return { ok: false as const, status: 404 as const, message: "There is no such club." };
    if (!isModerator(await membershipOf(club.id, actorId, trx)))
      return {
        ok: false as const,
        status: 403 as const,
        message: "Only this club's owner and moderators can do that.",
      };
    const post = await trx
      .selectFrom("posts")
      .select("id")
      .where("id", "=", postId)
      .where("club_id", "=", club.id)
      .executeTakeFirst();
    if (!post) return { ok: false as const, status: 404 as const, message: "That post is not in this club." };
    if (decision === "dismiss")
      await trx.updateTable("posts").set({ report_count: 0 }).where("id", "=", postId).execute();
    else await setPostHidden(trx, postId, decision === "hide");
    const resolution = decision === "hide" ? "hidden" : decision === "restore" ? "restored" : "dismissed";
    await trx
      .updateTable("reports")
      .set({ reviewed_at: sql`now()`, resolution })
      .where("post_id", "=", postId)
      .where("reviewed_at", "is", null)
      .execute();
    if (decision !== "dismiss") await raiseClubLive(trx, club.id, "feed");
    else await raiseClubModerators(trx, club.id);
    return { ok: true as const };
  });
}

export const TransferInput = z.object({
  user_id: z.coerce.number({ invalid_type_error: "Not a member." }).int().positive().max(2_147_483_647),
  confirm: z.literal("yes").optional(),
});

export const DeleteInput = z.object({
  confirm_name: z.string({ required_error: "Type the club's name to delete it." }).trim().max(200),
});

const notOwner = { ok: false as const, status: 403 as const, message: "Only the club's owner can do that." };

/**
 * The owner hands the club to an active member (DECISIONS 217): the member becomes the owner and the
 * old owner a moderator, in one transaction. Refused when the member owns CLUBS_PER_OWNER clubs
 * already (their user row is locked, as creating a club locks it, so a race cannot pass the limit).
 * `check` runs the same checks and writes nothing: the page's confirm step names the member.
 */
export async function transferClub(
  actorId: number,
  slug: string,
  newOwnerId: number,
  check = false,
): Promise<{ ok: true; name: string } | Refusal<400 | 403 | 404 | 409>> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const club = await trx
      .selectFrom("clubs")
      .select(["id", "owner_id"])
      .where("slug", "=", slug)
      .forUpdate()
      .executeTakeFirst();
    if (!club) return { ok: false as const, status: 404 as const, message: "There is no such club." };
    if (club.owner_id !== actorId) return notOwner;
    if (newOwnerId === actorId)
      return { ok: false as const, status: 400 as const, message: "You own this club already." };
    const target = await membershipOf(club.id, newOwnerId, trx);
    if (target?.status !== "active")
      return {
        ok: false as const,
        status: 400 as const,
        message: "Only a member of the club can become its owner.",
      };
    const person = await trx
      .selectFrom("users")
      .select(["id", "first_name", "last_name", "name", "username"])
      .where("id", "=", newOwnerId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const name = displayName(person) || "That member";
    const owned = await trx
      .selectFrom("clubs")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("owner_id", "=", newOwnerId)
      .executeTakeFirstOrThrow();
    if (Number(owned.n) >= CLUBS_PER_OWNER)
      return {
        ok: false as const,
        status: 409 as const,
        message: `${name} already owns ${CLUBS_PER_OWNER} clubs, the most one person can.`,
      };
    if (check) return { ok: true as const, name };
    await trx.updateTable("clubs").set({ owner_id: newOwnerId }).where("id", "=", club.id).execute();
    await trx
      .updateTable("club_members")
      .set({ role: "owner" })
      .where("club_id", "=", club.id)
      .where("user_id", "=", newOwnerId)
      .execute();
    await trx
      .updateTable("club_members")
      .set({ role: "moderator" })
      .where("club_id", "=", club.id)
      .where("user_id", "=", actorId)
      .execute();
    await raiseClubLive(trx, club.id, "members");
    return { ok: true as const, name };
  });
}

/**
 * The owner deletes the club, typing its name to confirm (DECISIONS 217). Its members, posts,
 * replies, likes and reports go with it (the tables' cascades), in one transaction; the members'
 * open pages are told first (a small club's: a big club's chain finds nobody left).
 */
export async function deleteClub(
  actorId: number,
  slug: string,
  confirmName: string,
): Promise<{ ok: true; name: string } | Refusal<400 | 403 | 404>> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const club = await trx
      .selectFrom("clubs")
      .select(["id", "name", "owner_id"])
      .where("slug", "=", slug)
      .forUpdate()
      .executeTakeFirst();
    if (!club) return { ok: false as const, status: 404 as const, message: "There is no such club." };
    if (club.owner_id !== actorId) return notOwner;
    if (confirmName.replace(/\s+/g, " ").trim().toLowerCase() !== club.name.toLowerCase())
      return {
        ok: false as const,
        status: 400 as const,
        message: `Type the club's name, ${club.name}, to delete it.`,
      };
    await raiseClubLive(trx, club.id, "members");
    await trx.deleteFrom("clubs").where("id", "=", club.id).execute();
    return { ok: true as const, name: club.name };
  });
}

/** The forms of a club's page (/clubs/:slug), one schema by `intent`. */
export const ClubPageAction = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["join", "leave"]) }),
  PostBody.extend({ intent: z.literal("post") }),
  ModerateInput.extend({ intent: z.literal("moderate") }),
  ClubReportInput.extend({ intent: z.literal("report_decision") }),
  TransferInput.extend({ intent: z.literal("transfer") }),
  DeleteInput.extend({ intent: z.literal("delete") }),
]);
