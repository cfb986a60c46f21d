import type { z } from "zod";

export type FieldErrors = Record<string, string>;
export type FormResult<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | { ok: false; errors: FieldErrors; values: Record<string, string> };

/** Fields never sent back to the page, whatever happens. */
const SECRET_FIELDS = /password/i;

/**
 * Parses a form with one zod schema (shared by page and action); on failure returns field errors.
 * `values` is what the user typed (never passwords), for a form shown again, also when a later
 * check such as a taken username refuses what parsed.
 */
export function parseForm<S extends z.ZodTypeAny>(
  schema: S,
  form: FormData,
  opts: { arrays?: string[] } = {},
): FormResult<z.infer<S>> {
  const raw: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !(key in raw)) raw[key] = value;
  }
  const input: Record<string, unknown> = { ...raw };
  // Multi-valued fields (checkbox groups) arrive as arrays; they are kept as a comma list.
  for (const key of opts.arrays ?? []) {
    const all = form.getAll(key).filter((v): v is string => typeof v === "string");
    input[key] = all;
    raw[key] = all.join(",");
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data, values: keepTyped(raw) };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return { ok: false, errors, values: keepTyped(raw) };
}

export function keepTyped(raw: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (!SECRET_FIELDS.test(k)) values[k] = v;
  return values;
}
