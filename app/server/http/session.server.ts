import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import { parse as parseCookies } from "cookie";
import { type CompiledQuery, sql } from "kysely";
import { BROKER_KINDS } from "~/lib/account-kinds";
import { type DB, getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { clientIp } from "./rate-limit.server";
import { oncePerRequest } from "../platform/request-context.server";
import { SESSION_COOKIE } from "./session-cookie";

// DB-backed sessions: the cookie holds 256 random bits; the database holds only their SHA-256,
// so a leaked table cannot be replayed as cookies.
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * A cookie's value from the request's Cookie header (the `cookie` package: first of a repeated
 * name wins, %-escapes decoded; a value whose escapes are broken comes back as sent, which matches
 * no session, no device and no nonce).
 */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  return header ? parseCookies(header)[name] : undefined;
}

function cookieHeader(value: string, maxAgeSeconds: number): string {
  const env = getEnv();
  const secure = env.PUBLIC_URL.startsWith("https:") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function sessionTokenFrom(request: Request): string | undefined {
  const auth = request.headers.get("authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || undefined;
  return readCookie(request, SESSION_COOKIE);
}

/** Starts a new session (a fresh id at every login) and returns its token and Set-Cookie header. */
export async function createSession(userId: number, request: Request) {
  const env = getEnv();
  const token = crypto.randomBytes(32).toString("base64url");
  const db = await getDb();
  const previous = readCookie(request, SESSION_COOKIE);
  await db.transaction().execute(async (trx) => {
    if (previous) await trx.deleteFrom("sessions").where("id_hash", "=", hashToken(previous)).execute();
    await trx
      .insertInto("sessions")
      .values({
        id_hash: hashToken(token),
        user_id: userId,
        expires_at: new Date(Date.now() + env.SESSION_MAX_DAYS * 86_400_000),
        // The address the server trusts (TRUST_PROXY), never a header the client could have forged.
        ip: clientIp(request),
        user_agent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
      })
      .execute();
  });
  return { token, setCookie: cookieHeader(token, env.SESSION_MAX_DAYS * 86_400) };
}

export type SessionUser = {
  id: number;
  email: string;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar_url: string | null;
  email_verified_at: Date | null;
  onboarded_at: Date | null;
  show_amounts: boolean;
  current_evaluation_id: number | null;
  is_admin: boolean;
  /** The first linked broker's kind, else the first linked wallet's, else null (BROKER_KINDS). */
  platform_name: string | null;
  /** For the header's bell: read with the session, as every page's header shows it. */
  unread_notifications: number;
};

/** The signed-in user, or null. Expired or idle sessions count as none. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const token = sessionTokenFrom(request);
  if (!token || token.length > 100) return null;
  // A page's loaders each ask: one query per request that changes nothing.
  return oncePerRequest(`session-user:${token}`, () => sessionUserOf(token));
}

/** The session's row with its user and what the header shows, for a token's hash and the two time limits. */
function sessionQuery(db: DB, idHash: string, now: Date, idleCutoff: Date) {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id_hash",
      "sessions.last_seen_at",
      "users.id",
      "users.email",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.avatar_url",
      "users.email_verified_at",
      "users.onboarded_at",
      "users.show_amounts",
      "users.current_evaluation_id",
      "users.is_admin",
      // What every page's header shows, in the same round trip (each query costs the server
      // ~0.2 ms of CPU in socket writes and parsing: docs/PERFORMANCE.md, the market page).
      (eb) =>
        eb
          .selectFrom("linked_accounts")
          .select("kind")
          .whereRef("linked_accounts.user_id", "=", "users.id")
          .orderBy((o) => o.case().when("kind", "in", BROKER_KINDS).then(0).else(1).end())
          .orderBy("id")
          .limit(1)
          .as("platform_name"),
      (eb) =>
        eb
          .selectFrom("notifications")
          .select((c) => c.fn.countAll<string>().as("n"))
          .whereRef("notifications.user_id", "=", "users.id")
          .where("notifications.read_at", "is", null)
          .as("unread_notifications"),
    ])
    .where("sessions.id_hash", "=", idHash)
    .where("sessions.expires_at", ">", now)
    .where("sessions.last_seen_at", ">", idleCutoff);
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirstOrThrow"]>>;

// Every signed-in request runs this query: built and compiled by Kysely once, then sent with the
// request's values in place of the markers it was compiled with (building it cost ~0.2 ms of CPU
// a look-up, two thirds of the look-up's CPU beyond a bare query: docs/PERFORMANCE.md).
let compiled: { query: CompiledQuery<SessionRow>; at: [number, number, number] } | undefined;
function compiledSessionQuery(db: DB) {
  if (compiled) return compiled;
  const markers = ["\0id_hash", new Date(1), new Date(2)] as const;
  const query = sessionQuery(db, ...markers).compile();
  const at = markers.map((m) => query.parameters.indexOf(m)) as [number, number, number];
  if (at.some((i) => i < 0)) throw new Error("session query: a marker is missing from the compiled parameters");
  return (compiled = { query, at });
}

async function sessionUserOf(token: string): Promise<SessionUser | null> {
  const env = getEnv();
  const db = await getDb();
  const { query, at } = compiledSessionQuery(db);
  const parameters = [...query.parameters];
  parameters[at[0]] = hashToken(token);
  parameters[at[1]] = new Date();
  parameters[at[2]] = new Date(Date.now() - env.SESSION_IDLE_MINUTES * 60_000);
  const row = (await db.executeQuery<SessionRow>({ ...query, parameters })).rows[0];
  if (!row) return null;
  // Sliding idle timeout, written at most once a minute to keep reads cheap.
  if (Date.now() - new Date(row.last_seen_at).getTime() > 60_000) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: sql`now()` })
      .where("id_hash", "=", row.id_hash)
      .execute();
  }
  const { id_hash: _h, last_seen_at: _l, ...user } = row;
  return { ...user, unread_notifications: Number(user.unread_notifications ?? 0) };
}

/** Where a 401 sends the browser: /signin, carrying next only for /u/ pages (PRODUCT §2). */
export function signinRedirectPath(request: Request): string {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/u/")) return `/signin?next=${encodeURIComponent(url.pathname + url.search)}`;
  return "/signin";
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(signinRedirectPath(request));
  return user;
}

export async function destroySession(request: Request): Promise<string> {
  const token = sessionTokenFrom(request);
  if (token) {
    const db = await getDb();
    await db.deleteFrom("sessions").where("id_hash", "=", hashToken(token)).execute();
  }
  return cookieHeader("", 0);
}
