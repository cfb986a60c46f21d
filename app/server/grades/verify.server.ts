import { canonicalJson, type Evaluation } from "~/grading";
import { displayName } from "~/lib/display-name";
import { formatDay, formatScore } from "~/lib/format-number";
import { NAMELESS_TRADER } from "~/lib/product";
import { cardMetric, cardPercent, formatMetric } from "~/lib/metrics";
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
  const benchmark = m.benchmark;
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
    figures: {
      twr: cardMetric("twr", m.twr),
      mwr: cardMetric("mwr", m.mwr),
      maxDrawdown: cardMetric("maxDrawdown", m.maxDrawdown),
      winRate: cardMetric("winRate", m.winRate),
      totalPnl: row.show_amounts ? cardMetric("totalPnl", m.totalPnl) : null,
      benchmark: benchmark
        ? { symbol: benchmark.symbol, return: cardPercent(benchmark.return), excess: cardPercent(benchmark.excess) }
        : null,
      // Engine 3 on (older grades have none): alpha and beta against that benchmark, and the rate.
      alpha: m.alpha === null || m.alpha === undefined ? null : formatMetric("alpha", m.alpha),
      beta: m.beta === null || m.beta === undefined ? null : formatMetric("beta", m.beta),
      riskFreeRate:
        m.riskFreeRate === null || m.riskFreeRate === undefined ? null : formatMetric("riskFreeRate", m.riskFreeRate),
      // Engine 3.3 on: positions a thin price could not lift (none: no key).
      positionsAtCost: m.positionsAtCost ? formatMetric("positionsAtCost", m.positionsAtCost) : null,
    },
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
