import { json } from "@remix-run/node";
import type { Refusal } from "~/lib/refusal";
import { apiError } from "~/server/http/api.server";

/**
 * Who reads a route's answer: a page (its loader data, or `{ message }` for its error boundary) or
 * the JSON API (the `{ error: { message } }` envelope of API.md). Services never know which.
 */
export type AnswerFormat = "page" | "api";

/** A service's refusal as a Response in the caller's format, with the refusal's status. */
export function refusalAnswer(refusal: Refusal<number>, format: AnswerFormat): Response {
  return format === "api"
    ? apiError(refusal.status, refusal.message)
    : json({ message: refusal.message }, { status: refusal.status });
}

/** A query string that does not parse: 400 with the parser's message (PRODUCT §3). */
export function badQuery(message: string, format: AnswerFormat): Response {
  return refusalAnswer({ ok: false, status: 400, message }, format);
}
