import { sql } from "kysely";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";

export type RateLimit = {
  /** What one hit is (shown in docs/OPERATIONS.md). */
  counts: string;
  /** What the counter is kept per (the `key` argument of `hitLimit`). */
  key: string;
  limit: number;
  windowMs: number;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Every rate limit of the product, by name: one table, listed in docs/OPERATIONS.md ("Rate limits"),
 * which rate-limit.server.test.ts keeps in step with this one. "client IP" is `clientIp(request)`.
 */
export const RATE_LIMITS = {
  "login-ip": { counts: "sign-in attempts (page and API)", key: "client IP", limit: 10, windowMs: MINUTE },
  "login-account": {
    counts: "sign-in attempts (page and API), except from the owner's device (DECISIONS 74)",
    key: "e-mail",
    limit: 100,
    windowMs: HOUR,
  },
  "signup-ip": { counts: "sign-ups (page and API)", key: "client IP", limit: 20, windowMs: HOUR },
  "signup-email": { counts: "sign-ups (page and API)", key: "e-mail", limit: 5, windowMs: HOUR },
  "oauth-ip": { counts: "Google and Apple sign-in callbacks", key: "client IP", limit: 30, windowMs: MINUTE },
  "forgot-ip": { counts: "password-reset requests", key: "client IP", limit: 10, windowMs: HOUR },
  "forgot-email": { counts: "password-reset mails (the page answers alike)", key: "e-mail", limit: 3, windowMs: HOUR },
  "change-password": { counts: "password changes", key: "user", limit: 10, windowMs: HOUR },
  "verify-resend": { counts: "verification mails sent again", key: "user", limit: 3, windowMs: HOUR },
  "contact-ip": { counts: "contact messages", key: "client IP", limit: 5, windowMs: HOUR },
  checkout: { counts: "checkout sessions (page and API)", key: "user", limit: 30, windowMs: HOUR },
  post: { counts: "posts and replies", key: "user", limit: 10, windowMs: MINUTE },
  message: { counts: "direct messages sent", key: "user", limit: 30, windowMs: MINUTE },
  // Each link queues an import (jobs on the shared workers) and, after it, an automatic grade.
  link: { counts: "account links: Plaid (page and API) and wallets", key: "user", limit: 10, windowMs: DAY },
  unlink: { counts: "accounts unlinked", key: "user", limit: 5, windowMs: DAY },
  // Each queues an import like a link does; a failing account could be retried in a loop.
  reimport: { counts: "imports started again: retry and reconnect", key: "user", limit: 20, windowMs: DAY },
  // Each re-makes the trader's grade as a job, appended to the public log (DECISIONS 181).
  "base-currency": { counts: "base currency changes that re-make a grade", key: "user", limit: 5, windowMs: DAY },
  // Each is a call to Plaid made for whoever asks; a link or a reconnect needs one.
  "link-token": { counts: "Plaid Link sessions started (page and API)", key: "user", limit: 20, windowMs: HOUR },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export type RateLimitResult = { ok: true } | { ok: false; retryAfter: number };

/**
 * Counts one hit of the named limit for `key`. A fixed-window counter in PostgreSQL, so the limit
 * holds across server processes: one INSERT … ON CONFLICT DO UPDATE … RETURNING per hit, atomic
 * under concurrency. RATE_LIMIT_FACTOR scales every limit (tests raise it where they need many requests).
 */
export async function hitLimit(name: RateLimitName, key: string | number): Promise<RateLimitResult> {
  const { limit, windowMs } = RATE_LIMITS[name];
  const db = await getDb();
  const max = Math.max(1, Math.floor(limit * getEnv().RATE_LIMIT_FACTOR));
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const row = await db
    .insertInto("rate_limits")
    .values({ key: `${name}:${key}`, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }))
    .returning("count")
    .executeTakeFirstOrThrow();
  if (Math.random() < 0.01) {
    await db
      .deleteFrom("rate_limits")
      .where("window_start", "<", new Date(now - 2 * 86_400_000))
      .execute();
  }
  if (row.count <= max) return { ok: true };
  return { ok: false, retryAfter: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000)) };
}

/**
 * The client's address as Express resolves it under TRUST_PROXY (`req.ip`): server.ts writes it
 * into this header for every request, over anything the client sent, so a forged X-Forwarded-For
 * counts only when it comes through a trusted proxy. Rate limits and sessions both use it.
 */
export function clientIp(request: Request): string {
  return request.headers.get("x-grader-client-ip") ?? "unknown";
}
