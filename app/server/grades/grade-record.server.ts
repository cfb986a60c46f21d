import { isDemoGrade } from "../linking/providers/registry.server";
import crypto from "node:crypto";
import { canonicalJson, type Evaluation } from "~/grading";
import type { LinkedAccountKind } from "../platform/db/schema";
import { getEnv } from "../platform/env.server";

// The public record of one grade: what the card shows, in a form anyone can check. It is what the
// grade log signs and chains (grade-log.server.ts), so it never holds a name, a user id or a dollar
// amount: the trader is a pseudonym, and money figures stay with the trader's privacy choice.

export const RECORD_VERSION = 1;

/** Codes as printed: GR-XXXX-XXXX from the unambiguous alphabet (evaluation.server.ts). */
const CODE = /^GR-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** " gr-abcd efgh " → "GR-ABCD-EFGH"; null when it cannot be a code. Spaces and dashes are optional. */
export function normaliseCode(raw: string | null | undefined): string | null {
  const compact = (raw ?? "").toUpperCase().replace(/[\s-]+/g, "");
  const body = compact.startsWith("GR") ? compact.slice(2) : compact;
  if (!/^[0-9A-Z]{8}$/.test(body)) return null;
  const code = `GR-${body.slice(0, 4)}-${body.slice(4)}`;
  return CODE.test(code) ? code : null;
}

export type UnlinkedSummary = { kind: LinkedAccountKind; twr: number | null };

export type GradeRecord = {
  version: number;
  /** Position in the public log and the hash of the entry before (64 zeros for the first). */
  seq: number;
  prev_hash: string;
  issuer: string;
  code: string;
  trader: string;
  graded_at: string;
  engine_version: string;
  ledger_digest: string;
  /** SHA-256 of the stored result's canonical JSON: the full evaluation this record summarises. */
  result_digest: string;
  tier: string | null;
  score: number | null;
  stars: number | null;
  returns: {
    twr: number | null;
    mwr: number | null;
    benchmark: { symbol: string; return: number; excess: number | null } | null;
  };
  max_drawdown: number | null;
  win_rate: number | null;
  period: { from: string | null; to: string | null };
  data: "demo" | "real";
  /** Accounts linked when graded, counted by kind. */
  accounts: Partial<Record<LinkedAccountKind, number>>;
  /** Accounts unlinked since the trader's previous grade, with their last known return. */
  unlinked: UnlinkedSummary[];
};

export function sha256Hex(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex");
}

/**
 * Whether a grade was computed from simulated data. The evaluations table has no `demo` column
 * yet: this hook answers from the providers' modes (a provider without credentials runs against
 * its simulator). When such a column exists, read it here instead.
 */
export function gradeDataSource(kinds: readonly LinkedAccountKind[]): "demo" | "real" {
  return isDemoGrade(kinds) ? "demo" : "real";
}

export type RecordInputs = {
  seq: number;
  prevHash: string;
  code: string;
  trader: string;
  gradedAt: string;
  engineVersion: string;
  ledgerDigest: string;
  result: Evaluation;
  accountKinds: LinkedAccountKind[];
  unlinked: UnlinkedSummary[];
};

export function buildGradeRecord(i: RecordInputs): GradeRecord {
  const m = i.result.metrics;
  const accounts: Partial<Record<LinkedAccountKind, number>> = {};
  for (const k of i.accountKinds) accounts[k] = (accounts[k] ?? 0) + 1;
  const b = m.benchmark;
  return {
    version: RECORD_VERSION,
    seq: i.seq,
    prev_hash: i.prevHash,
    issuer: getEnv().PUBLIC_URL.replace(/\/$/, ""),
    code: i.code,
    trader: i.trader,
    graded_at: i.gradedAt,
    engine_version: i.engineVersion,
    ledger_digest: i.ledgerDigest,
    result_digest: sha256Hex(canonicalJson(i.result)),
    tier: i.result.tier,
    score: i.result.score,
    stars: i.result.stars?.overall ?? null,
    returns: { twr: m.twr, mwr: m.mwr, benchmark: b ? { symbol: b.symbol, return: b.return, excess: b.excess } : null },
    max_drawdown: m.maxDrawdown,
    win_rate: m.winRate,
    period: { from: i.result.curve[0]?.date ?? null, to: i.result.asOf },
    data: gradeDataSource(i.accountKinds),
    accounts,
    unlinked: i.unlinked,
  };
}
