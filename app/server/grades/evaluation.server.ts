import crypto from "node:crypto";
import { sql } from "kysely";
import {
  canonicalJson,
  ENGINE_VERSION,
  grade,
  type CurvePoint,
  type Evaluation,
  type Ledger,
  type Metrics,
} from "~/grading";
import { getDb, type DB } from "../platform/db.server";
import { isDemoGrade } from "../linking/providers/registry.server";
import { scopeKinds, type GradeScope } from "~/lib/vocabulary";
import { type DataQuality, readDataQuality } from "~/lib/data-quality";
import { getEnv } from "../platform/env.server";
import { appendToGradeLog } from "./grade-log.server";
import { log } from "../platform/log.server";
import { notify } from "../community/notifications.server";
import { unlinkedDisclosureFor } from "../linking/unlinked-accounts.server";
import {
  buildUserLedger,
  type Provenance,
  ofProvenance,
  keepLedger,
  snapshotText,
  storedLedger,
  withMarket,
} from "./ledger.server";
import { holdingsDisagreements } from "../linking/reconcile.server";
import { changelogPath, isOlderEngineVersion } from "~/lib/engine-versions";

/** PRODUCT §8 codes and messages. 200 and 2002 are successes; the rest open the "Tips" dialog. */
export const EVALUATION_MESSAGES = {
  401: "Your free tries are all used up! Buy a pass to keep going.",
  402: "You've hit today's limit for evaluations—try again tomorrow!",
  403: "Link your Robinhood or Metamask account first, then give it another go.",
  406: "This investment account has been associated with a Grader account. Please use a new investment account or switch to the associated Grader account.",
  409: "Your evaluation is already running. It takes a few seconds; please wait for it to finish.",
  425: "Your trades are still importing. Try again when the import is done.",
  502: "Evaluation is failed!",
} as const;

export type EvaluationOutcome =
  | {
      code: 200 | 2002;
      evaluationId: number;
      tier: string | null;
      score: number | null;
      verificationCode: string;
      /** From uploaded statements (DECISIONS 198); absent in outcomes stored before it: false. */
      selfReported?: boolean;
    }
  | { code: 401 | 402 | 403 | 406 | 409 | 425 | 502; message: string };

export type Reimport = (userId: number, kind: GradeScope) => Promise<void>;

/** Thrown by a Reimport while the trader's trades are still importing: code 425, no try used. */
export class StillImporting extends Error {}

/**
 * One evaluation per user at a time, as a lease: users.evaluating_since is the holder's last
 * heartbeat, renewed every LEASE_RENEW_MS while it runs. A process that dies (kill -9) stops
 * renewing, and the slot is free again LEASE_MS later: seconds, not minutes. Works the same on
 * PostgreSQL with many replicas and on PGlite. The clock is the database's (now()), one for all.
 */
export const EVALUATION_LEASE_MS = 15_000;
const LEASE_RENEW_MS = 5_000;

/** A conditional UPDATE claims the slot or reports it taken; the claim renews itself until released. */
async function claimEvaluationSlot(userId: number): Promise<(() => Promise<void>) | null> {
  const db = await getDb();
  const leaseSeconds = EVALUATION_LEASE_MS / 1000;
  // Millisecond precision, so the holder can name its own lease back (a JS Date has no microseconds).
  const heartbeat = sql<Date>`date_trunc('milliseconds', now())`;
  const row = await db
    .updateTable("users")
    .set({ evaluating_since: heartbeat })
    .where("id", "=", userId)
    .where((eb) =>
      eb.or([
        eb("evaluating_since", "is", null),
        eb("evaluating_since", "<", sql<Date>`now() - make_interval(secs => ${leaseSeconds})`),
      ]),
    )
    .returning("evaluating_since")
    .executeTakeFirst();
  if (!row) return null;
  let since = row.evaluating_since;
  const renew = setInterval(() => {
    void db
      .updateTable("users")
      .set({ evaluating_since: heartbeat })
      .where("id", "=", userId)
      // Only our own lease: one taken over after a long stall is left to its new holder.
      .where("evaluating_since", "=", since)
      .returning("evaluating_since")
      .executeTakeFirst()
      .then((r) => {
        if (r) since = r.evaluating_since;
      })
      .catch((error) => log("error", "evaluation lease renewal failed", { userId, error: String(error) }));
  }, LEASE_RENEW_MS);
  renew.unref();
  return async () => {
    clearInterval(renew);
    await db.updateTable("users").set({ evaluating_since: null }).where("id", "=", userId).execute();
  };
}

function verificationCode(): string {
  // 8 characters from an unambiguous alphabet (no 0/O, 1/I/L): GR-XXXX-XXXX.
  const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  const bytes = crypto.randomBytes(8);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
  return `GR-${chars.slice(0, 4)}-${chars.slice(4)}`;
}

type Allowance = { ok: true } | { ok: false; code: 401 | 402 };

/**
 * Uses one try and one of today's evaluations, atomically: each is a single conditional UPDATE
 * (or upsert) inside the caller's transaction, so concurrent requests can never exceed either
 * limit, and a later failure in the transaction gives both back.
 */
export async function consumeAllowance(trx: DB, userId: number, now = new Date()): Promise<Allowance> {
  const env = getEnv();
  const tried = await trx
    .updateTable("users")
    .set({ tries_used: sql`tries_used + 1` })
    .where("id", "=", userId)
    .where(sql<boolean>`tries_used < ${env.FREE_TRIES} + extra_tries`)
    .returning(["tries_used", "unlimited_until"])
    .executeTakeFirst();
  if (!tried) return { ok: false, code: 401 };
  // A pass with unlimited days lifts the daily limit until unlimited_until.
  if (tried.unlimited_until && new Date(tried.unlimited_until) > now) return { ok: true };
  const day = now.toISOString().slice(0, 10);
  const counted = await trx
    .insertInto("evaluation_days")
    .values({ user_id: userId, day, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(["user_id", "day"])
        .doUpdateSet({ count: sql`evaluation_days.count + 1` })
        .where("evaluation_days.count", "<", env.DAILY_EVALUATIONS),
    )
    .returning("count")
    .executeTakeFirst();
  if (!counted) return { ok: false, code: 402 };
  return { ok: true };
}

/**
 * Counts one automatic grade for today, in the grade's transaction: one conditional upsert, so
 * concurrent re-grades never pass AUTO_GRADES_PER_DAY, and a grade that fails gives it back.
 * Past the bound the day's limit (402) refuses it.
 */
async function countAutomaticGrade(trx: DB, userId: number, now: Date): Promise<Allowance> {
  const max = getEnv().AUTO_GRADES_PER_DAY;
  if (max <= 0) return { ok: false, code: 402 };
  const counted = await trx
    .insertInto("evaluation_days")
    .values({ user_id: userId, day: now.toISOString().slice(0, 10), count: 0, automatic: 1 })
    .onConflict((oc) =>
      oc
        .columns(["user_id", "day"])
        .doUpdateSet({ automatic: sql`evaluation_days.automatic + 1` })
        .where("evaluation_days.automatic", "<", max),
    )
    .returning("automatic")
    .executeTakeFirst();
  return counted ? { ok: true } : { ok: false, code: 402 };
}

/** Whether today's automatic grades are used up: read first, so a refused one costs no ledger or grade. */
async function automaticGradesUsedUp(userId: number, now: Date): Promise<boolean> {
  const max = getEnv().AUTO_GRADES_PER_DAY;
  if (max <= 0) return true;
  const db = await getDb();
  const row = await db
    .selectFrom("evaluation_days")
    .select("automatic")
    .where("user_id", "=", userId)
    .where("day", "=", now.toISOString().slice(0, 10))
    .executeTakeFirst();
  return (row?.automatic ?? 0) >= max;
}

/**
 * Whether a try and one of today's evaluations are left, read without taking them: a request for
 * an evaluation is refused at once (401, 402) before any work starts. The grade's transaction
 * still takes them atomically (consumeAllowance), so two requests at once cannot both pass.
 */
export async function allowanceRefusal(userId: number, now = new Date()): Promise<401 | 402 | null> {
  const env = getEnv();
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .leftJoin("evaluation_days", (j) =>
      j
        .onRef("evaluation_days.user_id", "=", "users.id")
        .on("evaluation_days.day", "=", now.toISOString().slice(0, 10)),
    )
    .select(["users.tries_used", "users.extra_tries", "users.unlimited_until", "evaluation_days.count"])
    .where("users.id", "=", userId)
    .executeTakeFirstOrThrow();
  if (user.tries_used >= env.FREE_TRIES + user.extra_tries) return 401;
  if (user.unlimited_until && new Date(user.unlimited_until) > now) return null;
  return (user.count ?? 0) >= env.DAILY_EVALUATIONS ? 402 : null;
}

export async function triesLeft(userId: number): Promise<number> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .select(["tries_used", "extra_tries"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return Math.max(0, getEnv().FREE_TRIES + row.extra_tries - row.tries_used);
}

/**
 * The evaluation flow: re-import, build the ledger, grade, store. Codes per PRODUCT §8 (see
 * EVALUATION_MESSAGES). A provider failure uses no try; the same ledger and engine again is 2002.
 */
export async function evaluateUser(
  userId: number,
  kind: GradeScope,
  reimport: Reimport,
  // automatic: the re-grade after an import (a job), which uses no try and no daily evaluation,
  // but one of AUTO_GRADES_PER_DAY; past them it answers 402 and nothing is graded or logged.
  options: { automatic?: boolean } = {},
): Promise<EvaluationOutcome> {
  const db = await getDb();
  const accounts = await db
    .selectFrom("linked_accounts")
    .select(["id", "kind"])
    .where("user_id", "=", userId)
    .$if(scopeKinds(kind) !== null, (q) => q.where("kind", "in", scopeKinds(kind)!))
    .execute();
  if (accounts.length === 0) return { code: 403, message: EVALUATION_MESSAGES[403] };
  if (options.automatic && (await automaticGradesUsedUp(userId, new Date())))
    return { code: 402, message: EVALUATION_MESSAGES[402] };
  const releaseEvaluationSlot = await claimEvaluationSlot(userId);
  if (!releaseEvaluationSlot) return { code: 409, message: EVALUATION_MESSAGES[409] };
  const demo = isDemoGrade(new Set(accounts.map((a) => a.kind)));
  const scope = await provenanceOf(userId);
  try {
    try {
      await reimport(userId, kind);
    } catch (error) {
      if (error instanceof StillImporting) return { code: 425, message: EVALUATION_MESSAGES[425] };
      log("error", "evaluation import failed", { userId, kind, error: String(error) });
      return { code: 502, message: EVALUATION_MESSAGES[502] };
    }
    const now = new Date();
    const { ledger, digest, skipped, snapshot } = await buildUserLedger(userId, now, scope);
    const selfReported = scope === "self_reported";
    const latest = await db
      .selectFrom("evaluations")
      .select(["id", "history_digest", "engine_version", "tier", "score", "verification_code", "self_reported"])
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (latest && latest.history_digest === digest && latest.engine_version === ENGINE_VERSION) {
      return {
        code: 2002,
        evaluationId: latest.id,
        tier: latest.tier,
        score: latest.score,
        verificationCode: latest.verification_code,
        selfReported: latest.self_reported,
      };
    }
    // Read while the benchmark is fetched and the ledger prepared (handled now: if that throws, it is never awaited).
    const kept = snapshot && snapshotText(snapshot);
    kept?.catch(() => {});
    const { ledger: graded, prepared, unpriced } = await withMarket(ledger);
    // Started first: its reads and compression run while the grade is computed and the two reads
    // below are answered.
    const storing = storedLedger(graded, kept);
    // Handled now too: if the grade throws, the caller never awaits it.
    storing.catch(() => {});
    const evaluation = grade(prepared);
    // Read before the transaction: on PGlite it holds the only connection.
    const [quality, percentile, stored] = await Promise.all([
      dataQualityOf(userId, skipped, graded, unpriced),
      // The population is the verified grades: a self-reported one is not ranked among them.
      evaluation.score === null || selfReported ? null : percentileAmongCurrentGrades(userId, evaluation.score),
      storing,
    ]);
    const result: Evaluation = { ...evaluation, percentile };
    return await db.transaction().execute(async (trx) => {
      const allowance = options.automatic
        ? await countAutomaticGrade(trx, userId, now)
        : await consumeAllowance(trx, userId, now);
      if (!allowance.ok) {
        // Nothing written: the transaction rolls back the try taken before the daily check.
        throw new AllowanceRefused(allowance.code);
      }
      const code = verificationCode();
      const row = await trx
        .insertInto("evaluations")
        .values({
          user_id: userId,
          engine_version: ENGINE_VERSION,
          ledger_digest: stored.digest,
          history_digest: digest,
          data_quality: JSON.stringify(quality),
          tier: result.tier,
          score: result.score,
          percentile,
          verification_code: code,
          result: canonicalJson(result),
          demo,
          self_reported: selfReported,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await keepLedger(trx, userId, row.id, stored);
      // The public log vouches for grades from providers' data; an uploaded file is not (DECISIONS 198).
      if (!selfReported) await appendToGradeLog(trx, row.id);
      await trx.updateTable("users").set({ current_evaluation_id: row.id }).where("id", "=", userId).execute();
      // Followers hear of a new tier (a first grade included); the owner hears of a grade made for them in the background.
      if (result.tier && result.tier !== (latest?.tier ?? null)) {
        const followers = await trx
          .selectFrom("follows")
          .select("follower_id")
          .where("followee_id", "=", userId)
          .execute();
        await notify(trx, {
          to: followers.map((f) => f.follower_id),
          kind: "grade_change",
          actorId: userId,
          subject: `user:${userId}`,
          url: `/u/${userId}`,
          data: { from: latest?.tier ?? null, to: result.tier },
        });
      }
      if (options.automatic)
        await notify(trx, {
          to: userId,
          kind: "grade_done",
          actorId: null,
          subject: `evaluation:${row.id}`,
          url: "/profile/stats",
          data: { tier: result.tier },
        });
      return {
        code: 200 as const,
        evaluationId: row.id,
        tier: result.tier,
        score: result.score,
        verificationCode: code,
        selfReported,
      };
    });
  } catch (error) {
    if (error instanceof AllowanceRefused) return { code: error.code, message: EVALUATION_MESSAGES[error.code] };
    throw error;
  } finally {
    await releaseEvaluationSlot();
  }
}

/**
 * The grade of a seeded demo trader (the demo community, DECISIONS 104): the engine on the history
 * they hold, built, kept and stored as any grade is, with a verification code of the same form,
 * but marked demo and never appended to the public grade log, and taking no try. Null when the
 * trader already has a grade (another process seeding at the same moment got there first).
 */
export async function gradeSeededDemoTrader(
  userId: number,
  now = new Date(),
): Promise<{ evaluationId: number; verificationCode: string; result: Evaluation } | null> {
  const db = await getDb();
  const { ledger, digest, skipped, snapshot } = await buildUserLedger(userId, now);
  const kept = snapshot && snapshotText(snapshot);
  kept?.catch(() => {});
  const { ledger: graded, prepared, unpriced } = await withMarket(ledger);
  const storing = storedLedger(graded, kept);
  storing.catch(() => {});
  const evaluation = grade(prepared);
  const [quality, stored] = await Promise.all([dataQualityOf(userId, skipped, graded, unpriced), storing]);
  const result: Evaluation = { ...evaluation, percentile: null };
  try {
    return await db.transaction().execute(async (trx) => {
      const code = verificationCode();
      const row = await trx
        .insertInto("evaluations")
        .values({
          user_id: userId,
          engine_version: ENGINE_VERSION,
          ledger_digest: stored.digest,
          history_digest: digest,
          data_quality: JSON.stringify(quality),
          tier: result.tier,
          score: result.score,
          percentile: null,
          verification_code: code,
          result: canonicalJson(result),
          demo: true,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await keepLedger(trx, userId, row.id, stored);
      const claimed = await trx
        .updateTable("users")
        .set({ current_evaluation_id: row.id })
        .where("id", "=", userId)
        .where("current_evaluation_id", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) throw new AlreadyGraded();
      return { evaluationId: row.id, verificationCode: code, result };
    });
  } catch (error) {
    if (error instanceof AlreadyGraded) return null;
    throw error;
  }
}

class AlreadyGraded extends Error {}

/**
 * Why a grade is re-made: a new engine (DECISIONS 168), or the trader's new base currency (issue 32,
 * DECISIONS 181: the same re-make, from the stored history, whatever the grade's engine version).
 */
export type RemakeReason = { kind: "engine" } | { kind: "base-currency"; currency: string };
const ENGINE_REMAKE: RemakeReason = { kind: "engine" };

/** What re-making one trader's grade under this engine came to (DECISIONS 168). */
export type RemakeOutcome = "remade" | "current" | "ungraded" | "busy" | "superseded";

/**
 * Re-makes a trader's current grade under this ENGINE_VERSION from the history already stored: no
 * re-import, no try, not one of the day's automatic grades. Logged publicly as any grade (a seeded
 * demo grade, never logged, stays so), marked with the grade it re-made, and the trader is told. A
 * grade already under this version (an interactive grade got there first) or a newer one is left
 * alone; the current grade is swapped only if it is still the one read, so a trader is re-made
 * once however many processes try. Throws what the grade throws: the caller counts it and goes on.
 */
export async function remakeGrade(
  userId: number,
  now = new Date(),
  why: RemakeReason = ENGINE_REMAKE,
): Promise<RemakeOutcome> {
  const db = await getDb();
  const old = await currentGradeRow(userId);
  if (!old) return "ungraded";
  // A new base currency re-makes a grade of this engine too (its figures are in another currency).
  if (why.kind === "engine" && !isOlderEngineVersion(old.engine_version, ENGINE_VERSION)) return "current";
  const releaseEvaluationSlot = await claimEvaluationSlot(userId);
  // Someone is grading them now, under this engine: nothing left to re-make.
  if (!releaseEvaluationSlot) return "busy";
  try {
    // Read again under the lease: an evaluation may have ended between the two reads.
    const held = await currentGradeRow(userId);
    if (!held || held.id !== old.id) return "superseded";
    const { ledger, digest, skipped, snapshot } = await buildUserLedger(
      userId,
      now,
      held.self_reported ? "self_reported" : "verified",
    );
    const kept = snapshot && snapshotText(snapshot);
    kept?.catch(() => {});
    const { ledger: graded, prepared, unpriced } = await withMarket(ledger);
    const storing = storedLedger(graded, kept);
    storing.catch(() => {});
    const evaluation = grade(prepared);
    const [quality, percentile, stored] = await Promise.all([
      dataQualityOf(userId, skipped, graded, unpriced),
      !old.logged || old.self_reported || evaluation.score === null
        ? null
        : percentileAmongCurrentGrades(userId, evaluation.score),
      storing,
    ]);
    const result: Evaluation = { ...evaluation, percentile };
    return await db.transaction().execute(async (trx) => {
      const code = verificationCode();
      const row = await trx
        .insertInto("evaluations")
        .values({
          user_id: userId,
          engine_version: ENGINE_VERSION,
          ledger_digest: stored.digest,
          history_digest: digest,
          data_quality: JSON.stringify(quality),
          tier: result.tier,
          score: result.score,
          percentile,
          verification_code: code,
          result: canonicalJson(result),
          demo: old.demo,
          self_reported: old.self_reported,
          remade_from: old.id,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // First, so a grade made meanwhile wins and this one rolls back, its log entry with it.
      const swapped = await trx
        .updateTable("users")
        .set({ current_evaluation_id: row.id })
        .where("id", "=", userId)
        .where("current_evaluation_id", "=", old.id)
        .executeTakeFirst();
      if (Number(swapped.numUpdatedRows) === 0) throw new Superseded();
      await keepLedger(trx, userId, row.id, stored);
      // Logged as the grade it re-makes was: the demo community's never are (gradeSeededDemoTrader).
      if (old.logged) await appendToGradeLog(trx, row.id);
      if (result.tier && result.tier !== old.tier) {
        const followers = await trx
          .selectFrom("follows")
          .select("follower_id")
          .where("followee_id", "=", userId)
          .execute();
        await notify(trx, {
          to: followers.map((f) => f.follower_id),
          kind: "grade_change",
          actorId: userId,
          subject: `user:${userId}`,
          url: `/u/${userId}`,
          data: { from: old.tier, to: result.tier },
        });
      }
      await notify(trx, {
        to: userId,
        kind: "grade_recomputed",
        actorId: null,
        subject: `evaluation:${row.id}`,
        url: why.kind === "engine" ? changelogPath(ENGINE_VERSION) : "/profile",
        data: {
          ...(why.kind === "base-currency" ? { reason: "base-currency", currency: why.currency } : {}),
          version: ENGINE_VERSION,
          previousVersion: old.engine_version,
          from: old.tier,
          to: result.tier,
          fromScore: old.score,
          toScore: result.score,
        },
      });
      return "remade" as const;
    });
  } catch (error) {
    if (error instanceof Superseded) return "superseded";
    throw error;
  } finally {
    await releaseEvaluationSlot();
  }
}

async function currentGradeRow(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select((eb) => [
      "evaluations.id",
      "evaluations.engine_version",
      "evaluations.tier",
      "evaluations.score",
      // The demo community's grades were never logged (gradeSeededDemoTrader): re-made, neither is.
      eb
        .exists(
          eb
            .selectFrom("grade_log")
            .select("grade_log.seq")
            .whereRef("grade_log.code", "=", "evaluations.verification_code"),
        )
        .as("logged"),
      "evaluations.demo",
      "evaluations.self_reported",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
}

class Superseded extends Error {}

/**
 * Which history a trader's grade reads (DECISIONS 198): with any account a provider gave us, the
 * verified ones only (their statements are kept but not graded); with statements only, those,
 * and the grade is self-reported.
 */
export async function provenanceOf(userId: number, db?: DB): Promise<Provenance> {
  const exec = db ?? (await getDb());
  const verified = await exec
    .selectFrom("linked_accounts")
    .select("id")
    .where("user_id", "=", userId)
    .where(ofProvenance("kind", "verified"))
    .limit(1)
    .executeTakeFirst();
  return verified ? "verified" : "self_reported";
}

class AllowanceRefused extends Error {
  constructor(readonly code: 401 | 402) {
    super(`allowance refused: ${code}`);
  }
}

/**
 * What a grade could not use: the latest import of each linked account's skipped items (by
 * reason, e.g. "swap without a USD price", "cash equivalent") and the ledger builder's (a cancel
 * without the transaction it cancels, a split of a position not held), and the symbols whose
 * positions disagree with the provider's holdings.
 */
async function dataQualityOf(
  userId: number,
  builderSkipped: Record<string, number>,
  ledger: Ledger,
  unpriced: string[],
): Promise<DataQuality> {
  const db = await getDb();
  const rows = await db
    .selectFrom("imports")
    .select(["linked_account_id", "skipped"])
    .where("user_id", "=", userId)
    // "grading": the import's rows are stored and its skipped items final; the re-grade that
    // finishes it is the grade that must list them.
    .where("state", "in", ["done", "grading"])
    .orderBy("id", "desc")
    .execute();
  const counts = new Map<string, number>(Object.entries(builderSkipped));
  const seen = new Set<number>();
  for (const r of rows) {
    if (seen.has(r.linked_account_id)) continue; // the latest import of each account
    seen.add(r.linked_account_id);
    const list = (typeof r.skipped === "string" ? JSON.parse(r.skipped) : r.skipped) as {
      reason: string;
      count: number;
    }[];
    for (const { reason, count } of list ?? []) counts.set(reason, (counts.get(reason) ?? 0) + count);
  }
  return {
    skipped: [...counts]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1)),
    disagreements: await holdingsDisagreements(userId, ledger),
    unpriced,
  };
}

/** Below this many graded traders (this one included) a percentile says nothing ("better than 0 %" of one). */
export const MIN_PERCENTILE_POPULATION = 30;

/**
 * Share of other traders' current grades strictly below this score (0–1), what `percentileOf`
 * answers over them: counted on market_leaderboard's score index (one row per current grade with a
 * score, kept by a trigger) out of the board's total (market_leaderboard_counts), the trader's own
 * row taken out; null until at least
 * MIN_PERCENTILE_POPULATION traders are graded.
 */
export async function percentileAmongCurrentGrades(userId: number, score: number): Promise<number | null> {
  const db = await getDb();
  const { rows } = await sql<{ below: string; total: string }>`
    select (select count(*) from market_leaderboard where score < ${score}) - (select count(*) from market_leaderboard where user_id = ${userId} and score < ${score}) as below,
      (select coalesce(sum(n), 0) from market_leaderboard_counts) - (select count(*) from market_leaderboard where user_id = ${userId}) as total`.execute(
    db,
  );
  const total = Number(rows[0]!.total);
  return total + 1 < MIN_PERCENTILE_POPULATION ? null : Number(rows[0]!.below) / total;
}

export type StoredEvaluation = {
  id: number;
  createdAt: string;
  verificationCode: string;
  engineVersion: string;
  ledgerDigest: string;
  /** From an uploaded statement (DECISIONS 198). */
  selfReported: boolean;
  result: Evaluation;
};

/**
 * A stored grade in the shape the engine gives. Not every row was written by this engine: the
 * load-test seed (`npm run seed`, scripts/seed.ts) stores tier, score, stars and two ratios, without
 * a curve, positions or insights. Missing lists read as empty and missing figures as null, so every reader can rely on
 * the type. Only the copy read is filled; the row stays as it was (a logged grade's digest is signed).
 */
export function readStoredResult(raw: unknown): Evaluation {
  const stored = (typeof raw === "string" ? JSON.parse(raw) : raw) as Partial<Evaluation> | null;
  const list = <T>(xs: T[] | undefined): T[] => (Array.isArray(xs) ? xs : []);
  return {
    ...stored,
    engineVersion: stored?.engineVersion ?? "",
    asOf: stored?.asOf ?? null,
    tier: stored?.tier ?? null,
    score: stored?.score ?? null,
    stars: stored?.stars ?? null,
    confidence: stored?.confidence ?? 0,
    provisional: stored?.provisional ?? false,
    metrics: { benchmark: null, ...stored?.metrics } as Metrics,
    dimensions: stored?.dimensions ?? null,
    positions: list(stored?.positions),
    curve: list(stored?.curve),
    insights: list(stored?.insights),
    warnings: list(stored?.warnings),
  };
}

export async function currentEvaluation(userId: number): Promise<StoredEvaluation | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "evaluations.id",
      "evaluations.created_at",
      "evaluations.verification_code",
      "evaluations.engine_version",
      "evaluations.ledger_digest",
      "evaluations.result",
      "evaluations.self_reported",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    verificationCode: row.verification_code,
    engineVersion: row.engine_version,
    ledgerDigest: row.ledger_digest,
    selfReported: row.self_reported,
    result: readStoredResult(row.result),
  };
}

/** The trader's grades, newest first; `db`: the read database for another's profile. */
export async function gradeHistory(userId: number, limit = 50, db?: DB) {
  const rows = await (db ?? (await getDb()))
    .selectFrom("evaluations")
    .select(["id", "created_at", "tier", "score", "percentile", "verification_code", "engine_version", "self_reported"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

// Every dollar figure of the metrics, as redacted.
const NO_MONEY_METRICS = {
  realizedPnl: null,
  unrealizedPnl: null,
  totalPnl: null,
  fees: null,
  accountFees: null,
  income: null,
  expectancy: null,
  avgWin: null,
  avgLoss: null,
  largestLossAmount: null,
  deposits: null,
  withdrawals: null,
  impliedFunding: null,
  cash: null,
  equity: null,
  fxPnl: null,
  fxRealizedPnl: null,
} as const satisfies Partial<Record<keyof Metrics, null>>;

/** A grade without its dollar figures: the money metrics, the curve's equity and P&L are null, no positions. */
export type RedactedEvaluation = Omit<Evaluation, "metrics" | "curve"> & {
  metrics: Omit<Metrics, keyof typeof NO_MONEY_METRICS> & typeof NO_MONEY_METRICS;
  curve: (Omit<CurvePoint, "equity" | "pnl"> & { equity: null; pnl: null })[];
};

/**
 * What another user may see when the trader shows percentages only (the default): every dollar
 * figure is removed on the server, so it never reaches their browser, not even in loader data.
 */
export function redactAmounts(e: Evaluation): RedactedEvaluation {
  return {
    ...e,
    metrics: { ...e.metrics, ...NO_MONEY_METRICS },
    // The day's P&L is dollars too; the index, drawdown and benchmark are ratios.
    curve: e.curve.map((c) => ({ ...c, equity: null, pnl: null })),
    positions: [],
  };
}

/** The grade report of `ownerId` as `viewerId` may see it. */
export async function gradeReportFor(ownerId: number, viewerId: number) {
  const db = await getDb();
  const [current, history, owner, quality] = await Promise.all([
    currentEvaluation(ownerId),
    gradeHistory(ownerId),
    db.selectFrom("users").select("show_amounts").where("id", "=", ownerId).executeTakeFirst(),
    db
      .selectFrom("users")
      .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
      .select("evaluations.data_quality")
      .where("users.id", "=", ownerId)
      .executeTakeFirst(),
  ]);
  if (!current) return null;
  const showAmounts = ownerId === viewerId || Boolean(owner?.show_amounts);
  const stored = readDataQuality(quality?.data_quality);
  // Quantities held are the trader's to show: others see the symbols only unless amounts are shown.
  const dataQuality =
    stored && !showAmounts
      ? { ...stored, disagreements: stored.disagreements?.map((d) => ({ symbol: d.symbol })) }
      : stored;
  return {
    evaluation: showAmounts ? current.result : redactAmounts(current.result),
    createdAt: current.createdAt,
    verificationCode: current.verificationCode,
    selfReported: current.selfReported,
    showAmounts,
    history,
    // Accounts unlinked since the previous grade, as the signed record discloses them.
    unlinked: await unlinkedDisclosureFor(current.verificationCode),
    dataQuality,
    /** Positions still open at the grade (a count: no quantity, so it may go to anyone). */
    openPositions: current.result.positions.length,
  };
}

export type GradeSummary = {
  tier: string | null;
  score: number | null;
  stars: number;
  createdAt: string;
  verificationCode: string;
  /** From an uploaded statement (DECISIONS 198): every surface says "Self-reported". */
  selfReported: boolean;
};

/**
 * The current grade in a few columns (for the header on every page): no full result parsed.
 * `db`: the read database for another's profile.
 */
export async function currentGradeSummary(userId: number, db?: DB): Promise<GradeSummary | null> {
  const row = await (db ?? (await getDb()))
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "evaluations.tier",
      "evaluations.score",
      "evaluations.created_at",
      "evaluations.verification_code",
      "evaluations.self_reported",
      sql<string | null>`evaluations.result -> 'stars' ->> 'overall'`.as("stars"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    tier: row.tier,
    score: row.score,
    stars: Number(row.stars ?? 0),
    createdAt: new Date(row.created_at).toISOString(),
    verificationCode: row.verification_code,
    selfReported: row.self_reported,
  };
}
