import { getDb } from "./db.server";
import type { DB } from "./db.server";

/** Throws a 404 Response (rendered as "Nothing to see here!") unless `ok`. */
export function ensureFound<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Response("Not Found", { status: 404 });
  return value;
}

/** Parses a positive integer route id; anything else is a 404, never a 500. */
export function parseId(raw: string | undefined): number {
  const n = Number(raw);
  if (!raw || !/^\d{1,9}$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) throw new Response("Not Found", { status: 404 });
  return n;
}

export async function findPublicProfile(id: number, db?: DB) {
  const conn = db ?? (await getDb());
  return conn
    .selectFrom("users")
    .select(["id", "username", "first_name", "last_name", "name", "avatar_url", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
}
