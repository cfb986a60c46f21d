import { ENGINE_VERSION } from "~/grading";
import { isOlderEngineVersion } from "~/lib/engine-versions";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { enqueue, type JobData } from "../platform/jobs.server";
import { log } from "../platform/log.server";
import { remakeGrade, type RemakeOutcome } from "./evaluation.server";

/**
 * Grades re-made under a new engine version (DECISIONS 168). The process that runs job workers
 * asks for the first batch at start-up; each batch re-makes up to ENGINE_REGRADE_BATCH traders
 * whose current grade is older than ENGINE_VERSION, then asks for the next one after
 * ENGINE_REGRADE_PAUSE_SECONDS. The database is the state: a re-made trader leaves the query, so a
 * crash or a restart only continues. The queue is stately (one batch waiting, one running) and
 * each trader's grade is swapped only if still the one read, so a trader is re-made once.
 */

export type RegradeOutcome = RemakeOutcome | "failed";

/** What this process's batches came to since it started, for /metrics. */
export const engineRegradeStats: Record<RegradeOutcome, number> = {
  remade: 0,
  current: 0,
  ungraded: 0,
  busy: 0,
  superseded: 0,
  failed: 0,
};

export async function engineRegradeJob(data: JobData["engine-regrade"]): Promise<void> {
  // Sent by a process of another version (a rolling deploy): that process's own batches decide.
  if (data.version !== ENGINE_VERSION) return;
  const env = getEnv();
  const db = await getDb();
  const candidates = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select(["users.id", "evaluations.engine_version"])
    .where("evaluations.engine_version", "<>", ENGINE_VERSION)
    .where("users.id", ">", data.after)
    .orderBy("users.id")
    .limit(env.ENGINE_REGRADE_BATCH)
    .execute();
  const counts: Partial<Record<RegradeOutcome, number>> = {};
  for (const c of candidates) {
    let outcome: RegradeOutcome;
    if (!isOlderEngineVersion(c.engine_version, ENGINE_VERSION)) outcome = "current";
    else {
      try {
        outcome = await remakeGrade(c.id);
      } catch (error) {
        // One trader's history (corrupt, unreadable) never stops the others: the next start-up tries again.
        outcome = "failed";
        log("error", "engine re-grade failed", {
          userId: c.id,
          version: ENGINE_VERSION,
          error: String((error as Error)?.message ?? error).slice(0, 300),
        });
      }
    }
    counts[outcome] = (counts[outcome] ?? 0) + 1;
    engineRegradeStats[outcome]++;
  }
  const last = candidates[candidates.length - 1];
  if (candidates.length)
    log("info", "engine re-grade batch", { version: ENGINE_VERSION, after: data.after, ...counts });
  // A full batch may have more behind it; a short one was the last.
  if (last && candidates.length === env.ENGINE_REGRADE_BATCH)
    await enqueue(
      null,
      "engine-regrade",
      { version: ENGINE_VERSION, after: last.id },
      { startAfterSeconds: env.ENGINE_REGRADE_PAUSE_SECONDS },
    );
}

/**
 * At start-up, in the process that runs job workers: the first batch, when any current grade is of
 * another version (most starts have none, and queue nothing). Dropped by the queue when a batch
 * already waits.
 */
export async function startEngineRegrade(): Promise<void> {
  if (getEnv().JOB_WORKERS === 0) return;
  const db = await getDb();
  const older = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select("users.id")
    .where("evaluations.engine_version", "<>", ENGINE_VERSION)
    .limit(1)
    .executeTakeFirst();
  if (older) await enqueue(null, "engine-regrade", { version: ENGINE_VERSION, after: 0 });
  log("info", "engine re-grade checked", { version: ENGINE_VERSION, queued: Boolean(older) });
}
