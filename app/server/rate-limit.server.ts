import { sql } from "kysely";
import { getDb } from "./db.server";
import { getEnv } from "./env.server";

export type RateLimitResult = { ok: true } | { ok: false; retryAfter: number };

/**
 * Fixed-window counter in PostgreSQL, so the limit holds across server processes: one
 * INSERT … ON CONFLICT DO UPDATE … RETURNING per hit, atomic under concurrency.
 * RATE_LIMIT_FACTOR scales every limit (tests raise it where they need many requests).
 */
export async function hitRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const db = await getDb();
  const max = Math.max(1, Math.floor(limit * getEnv().RATE_LIMIT_FACTOR));
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_start: windowStart, count: 1 })
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

export function clientIp(request: Request): string {
  // server.ts sets x-grader-client-ip from the socket (or the trusted proxy chain); never trust the raw header here.
  return request.headers.get("x-grader-client-ip") ?? "unknown";
}
