import { stringify } from "csv-stringify/sync";

/**
 * A CSV download: a header row of `columns`, one row per item, the values as the JSON API gives
 * them (null → empty). csv-stringify quotes what needs quoting and, with escape_formulas, prefixes
 * text cells starting with =, +, -, @, tab or CR with ' so a spreadsheet never runs them.
 */
export function csvResponse<R extends Record<string, unknown>>(
  filename: string,
  columns: readonly (keyof R & string)[],
  rows: readonly R[],
): Response {
  const body = stringify(
    rows.map((r) => columns.map((c) => r[c] ?? null)),
    {
      header: true,
      columns: columns as string[],
      escape_formulas: true,
      cast: { boolean: (v) => (v ? "true" : "false") },
    },
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
