import { z } from "zod";
import { getDb } from "../platform/db.server";
import type { DB } from "../platform/db.server";
import { toId } from "~/lib/ids";

// Pure, so in app/lib where a route's form schema (also evaluated in the browser) can use them.
export { MAX_ID, toId } from "~/lib/ids";

/** Throws a 404 Response (rendered as "Nothing to see here!") unless `ok`. */
export function ensureFound<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Response("Not Found", { status: 404 });
  return value;
}

/** toId for zod request schemas (the JSON API): a field error instead of a 500. */
export const idSchema = z.unknown().transform((value, ctx) => {
  const id = toId(value);
  if (id === null) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be a positive whole number (an id)" });
    return z.NEVER;
  }
  return id;
});

/** Parses a positive integer route id; anything else is a 404, never a 500. */
export function parseId(raw: string | undefined): number {
  const n = toId(raw);
  if (n === null) throw new Response("Not Found", { status: 404 });
  return n;
}

/**
 * The posted form. A body that is not a form (JSON, plain text, a broken multipart upload) is a
 * 400 Response naming the encodings we read, never a 500: browsers always send one of them.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Response(
      "This form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data.",
      { status: 400 },
    );
  }
  // PostgreSQL text cannot hold U+0000 (the insert fails), and it never means anything typed into
  // a form, so it is dropped here, once, for every action.
  const clean = new FormData();
  for (const [key, value] of form.entries()) clean.append(key, typeof value === "string" ? withoutNul(value) : value);
  return clean;
}

export const withoutNul = (s: string) => s.replaceAll("\0", "");

export async function findPublicProfile(id: number, db?: DB) {
  const conn = db ?? (await getDb());
  return conn
    .selectFrom("users")
    .select(["id", "username", "first_name", "last_name", "name", "avatar_url", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
}
