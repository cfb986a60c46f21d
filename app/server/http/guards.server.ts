import { z } from "zod";
import { getDb } from "../platform/db.server";
import type { DB } from "../platform/db.server";

/** Throws a 404 Response (rendered as "Nothing to see here!") unless `ok`. */
export function ensureFound<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Response("Not Found", { status: 404 });
  return value;
}

/** The largest id any table hands out in practice (PostgreSQL integer); a bigger number is never an id. */
export const MAX_ID = 2_147_483_647;

/**
 * A database id from a path, query, form or JSON value, or null: plain digits or a whole number,
 * 1…MAX_ID. "1e3", "0x10", "-1", "1.5", 1e308 and 2^53 are not ids (PostgreSQL would answer
 * "out of range" and the request a 500). Every place that reads an id from a request uses this.
 */
export function toId(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isInteger(raw) && raw > 0 && raw <= MAX_ID ? raw : null;
  if (typeof raw !== "string" || !/^\d{1,10}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 && n <= MAX_ID ? n : null;
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

/** toId for a form field read leniently: the id, or null for the action to refuse in its own words. */
export const idOrNull = z.unknown().transform(toId);

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
