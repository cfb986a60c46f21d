import { analyse, withoutAmounts, type Analytics, type TripRow } from "~/analytics";
import {
  DEFAULT_JOURNAL_QUERY,
  journalPage,
  journalRows,
  parseJournalQuery,
  type JournalQuery,
} from "~/analytics/journal";
import { listRoundTrips, type RoundTrip } from "~/grading";
import { LRUCache } from "lru-cache";
import { getDb } from "../platform/db.server";
import { gradeReportFor } from "./evaluation.server";
import { evaluationLedger } from "./ledger.server";

// Round trips of recent grades by evaluation id. A grade's stored ledger never changes, so an
// entry is never stale; four entries (~15 MB each at 50,000 round trips) spare paging through a
// journal the ledger's gunzip and parse (~300 ms at 100,000 trades).
// A TTL as well: after load the memory goes back (a journal being paged keeps its entry alive).
const tripCache = new LRUCache<number, { trips: RoundTrip[]; pricedThrough: string | null }>({
  max: 4,
  ttl: 30_000,
  updateAgeOnGet: true,
  ttlAutopurge: true,
});

/** The last day ("YYYY-MM-DD", UTC) with a price of the trader's own: a trade or a mark; null without either. */
function lastPricedDay(ledger: { trades: { time: string }[]; prices: { time: string }[] }): string | null {
  let last = -Infinity;
  for (const list of [ledger.trades, ledger.prices])
    for (const x of list) {
      const ms = Date.parse(x.time);
      if (ms > last) last = ms;
    }
  return Number.isFinite(last) ? new Date(last).toISOString().slice(0, 10) : null;
}

/**
 * The round trips of the grade `ownerId` holds now, from the exact ledger it graded (so the
 * analytics are the grade's own numbers); null when there is no grade or it predates stored
 * ledgers. At most one gunzip, parse and engine pass per request.
 */
export async function gradeRoundTrips(
  ownerId: number,
): Promise<{ evaluationId: number; trips: RoundTrip[]; pricedThrough: string | null } | null> {
  const db = await getDb();
  const row = await db.selectFrom("users").select("current_evaluation_id").where("id", "=", ownerId).executeTakeFirst();
  const id = row?.current_evaluation_id;
  if (!id) return null;
  const hit = tripCache.get(id);
  if (hit) return { evaluationId: id, ...hit };
  const found = await evaluationLedger(ownerId, id);
  if (!found) return null;
  const entry = { trips: listRoundTrips(found.ledger), pricedThrough: lastPricedDay(found.ledger) };
  tripCache.set(id, entry);
  return { evaluationId: id, ...entry };
}

/** Journal rows as `viewer` may see them: another trader's without money or account when amounts are hidden. */
function visibleRow(r: TripRow, own: boolean, amounts: boolean): TripRow {
  if (own) return r;
  return { ...r, account: "", ...(amounts ? {} : { pnl: null, entryNotional: null }) };
}

export type StatsPage = {
  report: NonNullable<Awaited<ReturnType<typeof gradeReportFor>>> | null;
  own: boolean;
  analytics: Analytics | null;
  journal: { rows: TripRow[]; total: number; query: JournalQuery; errors: Record<string, string> } | null;
};

/**
 * Everything on a profile's Stats tab: the grade report, its analytics in the trader's time zone
 * and one page of the journal from the query string (a bad query shows its errors and the first
 * page; it never fails the page).
 */
export async function statsPage(ownerId: number, viewerId: number, params: URLSearchParams): Promise<StatsPage> {
  const db = await getDb();
  const [report, trips, owner] = await Promise.all([
    gradeReportFor(ownerId, viewerId),
    gradeRoundTrips(ownerId),
    db.selectFrom("users").select("time_zone").where("id", "=", ownerId).executeTakeFirst(),
  ]);
  const own = ownerId === viewerId;
  if (!report) return { report: null, own, analytics: null, journal: null };
  const amounts = report.showAmounts;
  if (!trips) return { report, own, analytics: null, journal: null };
  const timeZone = owner?.time_zone ?? "UTC";
  const all = analyse(report.evaluation.curve, trips.trips, {
    timeZone,
    rankBy: amounts ? "pnl" : "return",
    today: new Date().toISOString().slice(0, 10),
    // Open positions after the last price of the trader's own are carried at it: no figure there.
    pricedThrough: report.openPositions > 0 ? trips.pricedThrough : null,
  });
  const analytics = amounts ? all : withoutAmounts(all);
  const parsed = parseJournalQuery(params, { amounts });
  const query = parsed.ok ? parsed.query : DEFAULT_JOURNAL_QUERY;
  const page = journalPage(trips.trips, query);
  return {
    report,
    own,
    analytics,
    journal: {
      rows: page.rows.map((r) => visibleRow(r, own, amounts)),
      total: page.total,
      query,
      errors: parsed.ok ? {} : parsed.errors,
    },
  };
}

/** One's own journal for the API and the CSV: every matching row, or one page. */
export async function ownJournal(userId: number, params: URLSearchParams, paged: boolean) {
  const parsed = parseJournalQuery(params, { amounts: true });
  if (!parsed.ok) return { ok: false as const, message: parsed.message, errors: parsed.errors };
  const trips = await gradeRoundTrips(userId);
  if (!trips) return { ok: true as const, evaluationId: null, rows: [] as TripRow[], total: 0, query: parsed.query };
  if (!paged) {
    const rows = journalRows(trips.trips, parsed.query);
    return { ok: true as const, evaluationId: trips.evaluationId, rows, total: rows.length, query: parsed.query };
  }
  const page = journalPage(trips.trips, parsed.query);
  return {
    ok: true as const,
    evaluationId: trips.evaluationId,
    rows: page.rows,
    total: page.total,
    query: parsed.query,
  };
}
