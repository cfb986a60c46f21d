import { json } from "@remix-run/node";
import type { z } from "zod";
import { getSessionUser, type SessionUser } from "./session.server";
import { readForm, withoutNul } from "./guards.server";

// The JSON API's envelope: { data, meta? } on success, { error: { message, fields? } } on failure
// (documented, with every route's schemas, by the generated OpenAPI document: openapi.server.ts).
export function apiData<T>(data: T, init?: ResponseInit & { meta?: Record<string, unknown> }) {
  const { meta, ...rest } = init ?? {};
  return json(meta ? { data, meta } : { data }, rest);
}

export function apiError(status: number, message: string, fields?: Record<string, string>, headers?: HeadersInit) {
  return json({ error: { message, ...(fields ? { fields } : {}) } }, { status, headers });
}

/** Reads a JSON (or form-encoded) body and validates it; a bad body throws a 400 with every problem. */
export async function readBody<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  const type = request.headers.get("content-type") ?? "";
  try {
    // Strings lose U+0000, which PostgreSQL text cannot hold (as readForm does for pages).
    if (type.includes("form")) raw = Object.fromEntries((await readForm(request)).entries());
    else
      raw = JSON.parse((await request.text()) || "{}", (_key, value: unknown) =>
        typeof value === "string" ? withoutNul(value) : value,
      );
  } catch {
    throw apiError(400, "The request body is not valid JSON.");
  }
  return validated(schema, raw, "body");
}

/**
 * Validates a request's query string (empty values count as absent, as a GET form sends them;
 * a repeated key gives its first value); a bad query throws a 400 with every problem.
 */
export function readQuery<S extends z.ZodTypeAny>(request: Request, schema: S): z.infer<S> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) if (value !== "" && !(key in raw)) raw[key] = value;
  return validated(schema, raw, "query");
}

function validated<S extends z.ZodTypeAny>(schema: S, raw: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const fields: Record<string, string> = {};
    for (const issue of result.error.issues) fields[issue.path.join(".") || where] ??= issue.message;
    throw apiError(
      400,
      Object.entries(fields)
        .map(([k, v]) => `${k}: ${v}`)
        .join("; "),
      fields,
    );
  }
  return result.data;
}

/** The caller by bearer token or session cookie; 401 otherwise. */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw apiError(401, "You need to log in to do that.");
  return user;
}

export function requireMethod(request: Request, method: string) {
  if (request.method !== method) throw apiError(405, `Use ${method} for this call.`, undefined, { Allow: method });
}
