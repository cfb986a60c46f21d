import { inject } from "vitest";

export const baseUrl = () => inject("baseUrl");

let counter = 0;
export function uniqueEmail(tag = "user") {
  return `${tag}-${Date.now().toString(36)}-${process.pid}-${counter++}@example.com`;
}

/** A form POST as a browser on our own origin makes it (Origin header set), without following redirects. */
export async function postForm(
  path: string,
  fields: Record<string, string | string[]>,
  opts: { cookie?: string; origin?: string | null; base?: string; headers?: Record<string, string> } = {},
) {
  const base = opts.base ?? baseUrl();
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...opts.headers };
  if (opts.origin !== null) headers.origin = opts.origin ?? base;
  if (opts.cookie) headers.cookie = opts.cookie;
  return fetch(base + path, { method: "POST", body, headers, redirect: "manual" });
}

export function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("grader_session="));
  if (!set) throw new Error(`no session cookie in response ${res.status}`);
  return set.split(";")[0]!;
}

/** Signs up a fresh user through the real form and returns its cookie and email. */
export async function signUp(opts: { base?: string; password?: string; email?: string } = {}) {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? "correct horse battery";
  const res = await postForm("/signup", { email, password }, { base: opts.base });
  if (res.status !== 302) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return { email, password, cookie: sessionCookie(res) };
}

export async function get(
  path: string,
  opts: { cookie?: string; base?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  return fetch((opts.base ?? baseUrl()) + path, { headers, redirect: "manual" });
}

export type ImportRow = {
  id: number;
  linked_account_id: number;
  state: string;
  fetched: number;
  total: number | null;
  skipped: { reason: string; count: number }[];
  error: string | null;
  attempts: number;
  trades_added: number;
};

/**
 * Linking answers before the history is in: waits until none of the user's imports runs
 * (GET /api/portal/imports) and returns them, newest first.
 */
export async function waitForImports(
  cookie: string,
  opts: { base?: string; timeoutMs?: number } = {},
): Promise<ImportRow[]> {
  const deadline = Date.now() + (opts.timeoutMs ?? 25_000);
  for (;;) {
    const res = await get("/api/portal/imports", { cookie, base: opts.base });
    // A busy server's fast 503 says when to ask again (a loaded machine, not a failure).
    if (res.status === 503 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000 * Math.min(5, Number(res.headers.get("retry-after")) || 1)));
      continue;
    }
    if (res.status !== 200) throw new Error(`GET /api/portal/imports: ${res.status}`);
    const rows = ((await res.json()) as { data: ImportRow[] }).data;
    if (rows.every((r) => r.state === "done" || r.state === "failed")) return rows;
    if (Date.now() > deadline) throw new Error(`imports still running: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
