// The trade journal: the grade's round trips filtered, sorted and paged from query parameters.
// Shared by the Stats tab (a GET form), GET /api/portal/round_trips and its CSV.
import { z } from "zod";
import type { RoundTrip } from "~/grading";
import { outcomeOf, tripRow, type TripRow } from "./index";

export const JOURNAL_SORTS = ["close_time", "open_time", "symbol", "side", "holding", "return", "pnl"] as const;
export type JournalSort = (typeof JOURNAL_SORTS)[number];
/** Sorting by P&L would rank trips by size: not offered when amounts are hidden. */
export const PUBLIC_JOURNAL_SORTS = JOURNAL_SORTS.filter((s) => s !== "pnl") as Exclude<JournalSort, "pnl">[];

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use the form YYYY-MM-DD")
  .refine(
    (v) => !Number.isNaN(Date.parse(v)) && new Date(Date.parse(v)).toISOString().slice(0, 10) === v,
    "is not a real date",
  );

function schema(sorts: readonly string[]) {
  return z
    .object({
      symbol: z.string().trim().max(40, "at most 40 characters").optional(),
      side: z.enum(["long", "short"], { errorMap: () => ({ message: "must be long or short" }) }).optional(),
      outcome: z.enum(["win", "loss"], { errorMap: () => ({ message: "must be win or loss" }) }).optional(),
      from: day.optional(),
      to: day.optional(),
      sort_by: z
        .enum(sorts as [string, ...string[]], { errorMap: () => ({ message: `must be one of ${sorts.join(", ")}` }) })
        .default("close_time"),
      order: z.enum(["asc", "desc"], { errorMap: () => ({ message: "must be asc or desc" }) }).default("desc"),
      page: z.coerce
        .number({ invalid_type_error: "must be a whole number" })
        .int("must be a whole number")
        .min(1, "must be at least 1")
        .max(1_000_000)
        .default(1),
      page_size: z.coerce
        .number({ invalid_type_error: "must be a whole number" })
        .int("must be a whole number")
        .min(1, "must be at least 1")
        .max(100, "at most 100")
        .default(25),
    })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "must not be before from", path: ["to"] });
}
/** The owner's journal query (every sort), as GET /api/portal/round_trips documents it. */
export const JOURNAL_QUERY = schema(JOURNAL_SORTS);

export type JournalQuery = {
  symbol?: string;
  side?: "long" | "short";
  outcome?: "win" | "loss";
  from?: string;
  to?: string;
  sort_by: JournalSort;
  order: "asc" | "desc";
  page: number;
  page_size: number;
};

const KEYS = ["symbol", "side", "outcome", "from", "to", "sort_by", "order", "page", "page_size"] as const;

/** Reads the journal's query (empty values count as absent, as a GET form sends them). */
export function parseJournalQuery(
  params: URLSearchParams,
  opts: { amounts: boolean },
): { ok: true; query: JournalQuery } | { ok: false; errors: Record<string, string>; message: string } {
  const raw = Object.fromEntries(KEYS.filter((k) => params.get(k)).map((k) => [k, params.get(k)!]));
  const result = schema(opts.amounts ? JOURNAL_SORTS : PUBLIC_JOURNAL_SORTS).safeParse(raw);
  if (!result.success) {
    const errors: Record<string, string> = {};
    for (const i of result.error.issues) errors[String(i.path[0] ?? "query")] ??= i.message;
    return {
      ok: false,
      errors,
      message: Object.entries(errors)
        .map(([k, v]) => `${k}: ${v}`)
        .join("; "),
    };
  }
  const q = result.data;
  return { ok: true, query: { ...q, symbol: q.symbol || undefined } as JournalQuery };
}

export const DEFAULT_JOURNAL_QUERY: JournalQuery = { sort_by: "close_time", order: "desc", page: 1, page_size: 25 };

const DAY_MS = 86_400_000;

/** The matching trips (all of them, sorted) as journal rows; `n` is the trip's closing-order number. */
export function journalRows(trips: RoundTrip[], q: Omit<JournalQuery, "page" | "page_size">): TripRow[] {
  const symbol = q.symbol?.toUpperCase();
  const from = q.from ? Date.parse(q.from) : -Infinity;
  // `to` is a whole day: trips closed at any time on it count.
  const to = q.to ? Date.parse(q.to) + DAY_MS : Infinity;
  const out: TripRow[] = [];
  for (let i = 0; i < trips.length; i++) {
    const t = trips[i]!;
    if (symbol !== undefined && t.symbol.toUpperCase() !== symbol) continue;
    if (q.side && t.side !== q.side) continue;
    if (q.outcome && outcomeOf(t) !== q.outcome) continue;
    if (q.from || q.to) {
      const close = Date.parse(t.closeTime);
      if (close < from || close >= to) continue;
    }
    out.push(tripRow(t, i + 1));
  }
  const dir = q.order === "asc" ? 1 : -1;
  const cmp: Record<JournalSort, (a: TripRow, b: TripRow) => number> = {
    // ISO times of one format compare as text; closing order is the natural one.
    close_time: (a, b) => a.n - b.n,
    open_time: (a, b) => (a.openTime < b.openTime ? -1 : a.openTime > b.openTime ? 1 : 0),
    symbol: (a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0),
    side: (a, b) => (a.side < b.side ? -1 : a.side > b.side ? 1 : 0),
    holding: (a, b) => a.holdingDays - b.holdingDays,
    return: (a, b) => (a.return ?? -Infinity) - (b.return ?? -Infinity),
    pnl: (a, b) => (a.pnl ?? 0) - (b.pnl ?? 0),
  };
  const by = cmp[q.sort_by];
  // Ties keep closing order, so pages never shuffle.
  out.sort((a, b) => by(a, b) * dir || a.n - b.n);
  return out;
}

export function journalPage(trips: RoundTrip[], q: JournalQuery) {
  const all = journalRows(trips, q);
  const start = (q.page - 1) * q.page_size;
  return { rows: all.slice(start, start + q.page_size), total: all.length };
}

/** A journal row as the API and the CSV give it (snake_case, as the other portal APIs). */
export function roundTripApiRow(r: TripRow) {
  return {
    n: r.n,
    account: r.account,
    symbol: r.symbol,
    asset_class: r.assetClass,
    side: r.side,
    open_time: r.openTime,
    close_time: r.closeTime,
    holding_days: r.holdingDays,
    entry_notional: r.entryNotional,
    pnl: r.pnl,
    return: r.return,
    outcome: r.outcome,
  };
}
export type RoundTripApiRow = ReturnType<typeof roundTripApiRow>;
export const ROUND_TRIP_COLUMNS: (keyof RoundTripApiRow)[] = [
  "n",
  "account",
  "symbol",
  "asset_class",
  "side",
  "open_time",
  "close_time",
  "holding_days",
  "entry_notional",
  "pnl",
  "return",
  "outcome",
];
