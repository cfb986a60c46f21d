import { z } from "zod";

export type FieldErrors = Record<string, string>;
/** What the user typed, by field name, for a form shown again. */
export type FormValues = Record<string, string>;
export type FormResult<T> =
  { ok: true; data: T; values: FormValues } | { ok: false; errors: FieldErrors; values: FormValues };

/**
 * Fields never sent back to the page, whatever happens: passwords, and the current and repeated
 * password of the change and reset forms, an exchange key's secret and passphrase.
 */
const SECRET_FIELDS = /password|^current$|^confirm$|^secret$|^passphrase$/i;

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

export function keepTyped(raw: FormValues): FormValues {
  const values: FormValues = {};
  for (const [k, v] of Object.entries(raw)) if (!SECRET_FIELDS.test(k)) values[k] = v;
  return values;
}

/** A text field read as sent, "" when absent: the action or its service judges it, in its own words. */
export const formText = z.string().default("");

/**
 * What an action answers a form when it does not redirect. Both arms have the same keys, so a page
 * reads `reply?.errors.email` or `reply?.formError` as they are and narrows on `ok` for the rest.
 * `formError` is said above the form (role="alert"), `notice` once it worked (role="status").
 * Build it with the functions below, never by hand: they keep the shape and drop secrets from
 * `values`.
 */
export type FormReply =
  | { ok: true; formError: null; notice: string | null; errors: FieldErrors; values: FormValues }
  | { ok: false; formError: string | null; notice: null; errors: FieldErrors; values: FormValues };

/** It worked: an optional notice, and what to show in the form now (usually nothing). */
export function formDone(notice: string | null = null, values: FormValues = {}): FormReply {
  return { ok: true, formError: null, notice, errors: {}, values: keepTyped(values) };
}

/** The form did not parse: parseForm's field errors, and what was typed. */
export function formRefused(parsed: { errors: FieldErrors; values: FormValues }): FormReply {
  return { ok: false, formError: null, notice: null, errors: parsed.errors, values: keepTyped(parsed.values) };
}

/** Refused as a whole (a wrong login, an expired link): one message above the form. */
export function formError(message: string, values: FormValues = {}): FormReply {
  return { ok: false, formError: message, notice: null, errors: {}, values: keepTyped(values) };
}

/** Refused for one field that parsed but a later check turned down (a taken username). */
export function fieldError(field: string, message: string, values: FormValues = {}): FormReply {
  return { ok: false, formError: null, notice: null, errors: { [field]: message }, values: keepTyped(values) };
}
