import { z } from "zod";

export type Paging<S extends string> = { page: number; page_size: number; sort_by: S; order: "asc" | "desc" };

/** PRODUCT §3's paged list query: page (from 1), page_size (1–100), sort_by (whitelisted), order. */
export function pagingSchema<S extends string>(
  sortable: readonly [S, ...S[]],
  defaults: { sort_by: S; order: "asc" | "desc"; page_size?: number },
) {
  return z.object({
    page: z.coerce
      .number({ invalid_type_error: "page: must be a whole number" })
      .int("page: must be a whole number")
      .min(1, "page: must be at least 1")
      .max(100_000)
      .default(1),
    page_size: z.coerce
      .number({ invalid_type_error: "page_size: must be a whole number" })
      .int("page_size: must be a whole number")
      .min(1, "page_size: must be at least 1")
      .max(100, "page_size: at most 100")
      .default(defaults.page_size ?? 20),
    sort_by: z
      .enum(sortable, { errorMap: () => ({ message: `sort_by: must be one of ${sortable.join(", ")}` }) })
      .default(defaults.sort_by as never),
    order: z
      .enum(["asc", "desc"], { errorMap: () => ({ message: "order: must be asc or desc" }) })
      .default(defaults.order),
  });
}
export type PagingSchema<S extends string> = ReturnType<typeof pagingSchema<S>>;

/**
 * Reads a paged list query with its schema (the JSON API documents the same one). Returns the
 * problems instead of throwing, so pages can fall back and APIs can answer 400.
 */
export function parsePaging<S extends string>(
  params: URLSearchParams,
  schema: PagingSchema<S>,
): { ok: true; paging: Paging<S> } | { ok: false; message: string } {
  const raw = Object.fromEntries(
    ["page", "page_size", "sort_by", "order"].filter((k) => params.get(k)).map((k) => [k, params.get(k)]),
  );
  const result = schema.safeParse(raw);
  if (!result.success) return { ok: false, message: result.error.issues.map((i) => i.message).join("; ") };
  return { ok: true, paging: result.data as Paging<S> };
}

export function pageCount(total: number, pageSize: number) {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A keyset cursor (`?before=<id>`): a row id, or null (the newest page) when absent or malformed. */
export function parseBefore(params: URLSearchParams): string | null {
  const raw = params.get("before");
  return raw && /^\d{1,18}$/.test(raw) ? raw : null;
}

/** A plain `?page=N` (from 1, at most 10,000); anything else is the first page. */
export function parsePage(params: URLSearchParams): number {
  const page = Number(params.get("page") ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}
