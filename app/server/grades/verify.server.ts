import { canonicalJson, type Evaluation } from "~/grading";
import { displayName } from "~/lib/display-name";
import { formatDay, formatScore } from "~/lib/format-number";
import { NAMELESS_TRADER } from "~/lib/product";
import {
  benchmarkLabel,
  BENCHMARK_METRICS,
  CARD_METRICS,
  cardMetric,
  formatMetric,
  metricValue,
  METRICS,
  shownValue,
  type CardMetricKey,
  type MetricKey,
} from "~/lib/metrics";
import { ensureCard } from "./cards.server";
import { getDb } from "../platform/db.server";
import { disagreementSummary, readDataQuality, unpricedLine } from "~/lib/data-quality";
import { gradeLogEntry, publishedKeys } from "./grade-log.server";
import { sha256Hex, type GradeRecord } from "./grade-record.server";
import { checkEntry } from "./grade-verify.server";
import { unlinkedDisclosure } from "~/lib/unlinked";

// What /verify/{code} shows: every figure the card draws, taken from the stored evaluation, plus
// the card image as the share flow serves it, so an edited screenshot stands out.

export type Verification = Awaited<ReturnType<typeof gradeVerification>>;

/** What the grade left out, for the public record: counts and symbols, no quantities. */
function dataQualitySummary(raw: unknown): string | null {
  const q = readDataQuality(raw);
  if (!q) return null;
  const skipped = q.skipped.reduce((n, s) => n + s.count, 0);
  const parts = [
    skipped ? `${skipped} item${skipped === 1 ? "" : "s"} left out` : null,
    disagreementSummary(q.disagreements),
    unpricedLine(q.unpriced),
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : "Nothing left out";
}

// The card's figures, then those against the market and the pricing behind them, in this order.
const VERIFIED: readonly MetricKey[] = [
  "twr",
  "mwr",
  ...BENCHMARK_METRICS,
  "alpha",
  "beta",
  "riskFreeRate",
  "positionsAtCost",
  "maxDrawdown",
  "winRate",
  "totalPnl",
];
const onCard = (key: MetricKey): key is CardMetricKey => (CARD_METRICS as readonly MetricKey[]).includes(key);

/**
 * Every figure /verify prints, labelled from the metric list: the card's as the card draws them
 * (always; dollars only when the trader shows amounts), the rest as the report prints them and
 * only when the grade has them (an older engine, no benchmark, nothing held at cost).
 */
function verifiedFigures(m: Evaluation["metrics"], showAmounts: boolean): { label: string; value: string }[] {
  return VERIFIED.flatMap((key) => {
    if (key === "totalPnl" && !showAmounts) return [];
    if (onCard(key)) return [{ label: METRICS[key].label, value: cardMetric(key, metricValue(m, key)) }];
    const v = shownValue(m, key);
    if (v === undefined) return [];
    const row = { label: METRICS[key].label, value: formatMetric(key, v) };
    // The benchmark's name heads its figures: they mean nothing without it.
    return key === BENCHMARK_METRICS[0] && m.benchmark
      ? [{ label: "Benchmark", value: benchmarkLabel(m.benchmark.symbol) }, row]
      : [row];
  });
}

/** The verification of one code, or null when no grade has it. */
export async function gradeVerification(code: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("evaluations")
    .innerJoin("users", "users.id", "evaluations.user_id")
    .select([
      "evaluations.id",
      "evaluations.created_at",
      "evaluations.engine_version",
      "evaluations.ledger_digest",
      "evaluations.verification_code",
      "evaluations.result",
      "users.id as user_id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.show_amounts",
      "users.current_evaluation_id",
      "evaluations.data_quality",
      "evaluations.demo",
      "evaluations.self_reported",
    ])
    .where("evaluations.verification_code", "=", code)
    .executeTakeFirst();
  if (!row) return null;
  const result = (typeof row.result === "string" ? JSON.parse(row.result) : row.result) as Evaluation;
  const m = result.metrics;
  const current = row.current_evaluation_id === row.id;
  // The card is drawn for the current grade only; an earlier grade's card is no longer served.
  const card = current ? await ensureCard(row.user_id, "link") : null;
  const createdAt = new Date(row.created_at).toISOString();
  // The signed log entry (grades from before the log have none) and whether it checks out now.
  const entry = await gradeLogEntry(row.verification_code);
  const record = entry?.record as GradeRecord | undefined;
  const signed = entry ? checkEntry(entry, await publishedKeys()) : null;
  // The figures shown come from the stored grade: it must still be the one the record signed.
  const check =
    signed?.ok && record?.result_digest !== sha256Hex(canonicalJson(result))
      ? { ok: false as const, reason: "the stored grade differs from its signed record" }
      : signed;
  return {
    code: row.verification_code,
    createdAt,
    date: formatDay(createdAt),
    period: { from: result.curve[0]?.date ?? null, to: result.asOf },
    engineVersion: row.engine_version,
    ledgerDigest: row.ledger_digest,
    tier: result.tier,
    score: result.score === null ? null : formatScore(result.score),
    stars: result.stars?.overall ?? null,
    figures: verifiedFigures(m, row.show_amounts),
    current,
    // A seeded demo trader's grade: demo data, kept out of the public log by design (DECISIONS 104).
    demo: Boolean(row.demo),
    // Graded from an uploaded statement: not checked with any provider, not in the log (DECISIONS 198).
    selfReported: Boolean(row.self_reported),
    dataQuality: dataQualitySummary(row.data_quality),
    log:
      entry && record
        ? {
            seq: entry.seq,
            kid: entry.kid,
            hash: entry.hash,
            valid: check?.ok ?? false,
            problem: check && !check.ok ? check.reason : null,
            data: record.data,
            accounts: Object.entries(record.accounts).map(([kind, count]) => ({ kind, count })),
            unlinked: unlinkedDisclosure(record.unlinked),
          }
        : null,
    card: card ? { path: card.path, width: card.width, height: card.height } : null,
    trader: { id: row.user_id, name: displayName(row) || NAMELESS_TRADER, username: row.username },
  };
}

/**
 * A code whose grade is gone from the database (its trader deleted their account) but whose signed
 * record remains in the public log: the record's own figures, checked against the published keys.
 */
export async function loggedOnlyVerification(code: string) {
  const entry = await gradeLogEntry(code);
  if (!entry) return null;
  const r = entry.record as GradeRecord;
  const check = checkEntry(entry, await publishedKeys());
  return {
    code: r.code,
    tier: r.tier,
    score: r.score === null ? null : formatScore(r.score),
    stars: r.stars,
    gradedAt: r.graded_at,
    date: formatDay(r.graded_at),
    figures: {
      twr: cardMetric("twr", r.returns.twr),
      maxDrawdown: cardMetric("maxDrawdown", r.max_drawdown),
      winRate: cardMetric("winRate", r.win_rate),
    },
    engineVersion: r.engine_version,
    ledgerDigest: r.ledger_digest,
    seq: entry.seq,
    kid: entry.kid,
    valid: check.ok,
  };
}
