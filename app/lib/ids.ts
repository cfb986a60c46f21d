import { z } from "zod";

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

/**
 * toId for a form field read leniently: the id, or null for the action to refuse in its own words.
 * Here, not in app/server: a route's form schema is also evaluated in the browser bundle.
 */
export const idOrNull = z.unknown().transform(toId);
