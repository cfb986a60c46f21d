import { sql } from "kysely";
import { getDb } from "../platform/db.server";
import { enqueue, wake, type JobData, type JobHandler } from "../platform/jobs.server";
import { log } from "../platform/log.server";
import { scopeKinds, type GradeScope } from "~/lib/vocabulary";
import { isImporting, reimportForEvaluation } from "../linking/linking.server";
import { allowanceRefusal, EVALUATION_MESSAGES, evaluateUser, type EvaluationOutcome } from "./evaluation.server";
import { renderGradeCards } from "./cards.server";

/**
 * An evaluation a trader asks for runs as a job (issue 35, point 3; DECISIONS 174). The request
 * checks what it can answer at once (403, 425, 401, 402, 409), stores a run and enqueues its job in
 * one transaction, and answers: no request holds a render slot or a connection while the
 * re-import and the grade take their seconds. The status page, the Get Grade button and the JSON
 * API follow the run until the job writes its outcome.
 */
export type EvaluationRun = {
  id: number;
  state: "queued" | "running" | "done";
  outcome: EvaluationOutcome | null;
};

type Refused = Extract<EvaluationOutcome, { message: string }>;
const refused = (code: Refused["code"]): Refused => ({ code, message: EVALUATION_MESSAGES[code] });

// A run open this long lost its job (a wiped queue, a worker gone for good): the next request
// closes it as failed instead of refusing the trader forever. Far beyond a job's retries.
const ABANDONED_AFTER_MINUTES = 30;

/** Asks for an evaluation: the run that will answer, or the refusal that answers now. */
export async function requestEvaluation(userId: number, kind: GradeScope): Promise<{ runId: number } | Refused> {
  const db = await getDb();
  const linked = await db
    .selectFrom("linked_accounts")
    .select("id")
    .where("user_id", "=", userId)
    .$if(scopeKinds(kind) !== null, (q) => q.where("kind", "in", scopeKinds(kind)!))
    .limit(1)
    .executeTakeFirst();
  if (!linked) return refused(403);
  await db
    .updateTable("evaluation_runs")
    .set({ state: "done", outcome: JSON.stringify(refused(502)), finished_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("state", "<>", "done")
    .where("created_at", "<", sql<Date>`now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES})`)
    .execute();
  // Before the import check: a run re-importing says it is running (409), not that trades import.
  if (await openEvaluationRun(userId)) return refused(409);
  if (await isImporting(userId)) return refused(425);
  const allowance = await allowanceRefusal(userId);
  if (allowance) return refused(allowance);
  const runId = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("evaluation_runs")
      .values({ user_id: userId, kind })
      // The partial unique index: one open run per trader, across every replica.
      .onConflict((oc) => oc.column("user_id").where("state", "<>", "done").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (row) await enqueue(trx, "evaluate", { runId: row.id });
    return row?.id ?? null;
  });
  if (runId === null) return refused(409);
  wake("evaluate");
  return { runId };
}

/** A run of the trader's own (null for anyone else's). */
export async function readEvaluationRun(userId: number, runId: number): Promise<EvaluationRun | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("evaluation_runs")
    .select(["id", "state", "outcome"])
    .where("id", "=", runId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { id: row.id, state: row.state, outcome: (row.outcome as EvaluationOutcome | null) ?? null } : null;
}

/** The trader's open run, if any: the evaluate page points to it. */
export async function openEvaluationRun(userId: number): Promise<number | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("evaluation_runs")
    .select("id")
    .where("user_id", "=", userId)
    .where("state", "<>", "done")
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Waits for a run's outcome, reading its row every `everyMs` with one short query each: the
 * caller holds no connection in between. Null when `timeoutMs` passes first.
 */
export async function waitForEvaluationRun(
  userId: number,
  runId: number,
  timeoutMs: number,
  everyMs = 250,
): Promise<EvaluationOutcome | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await readEvaluationRun(userId, runId);
    if (!run || (run.state === "done" && run.outcome)) return run?.outcome ?? null;
    if (Date.now() + everyMs > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function finishRun(runId: number, outcome: EvaluationOutcome): Promise<void> {
  const db = await getDb();
  await db
    .updateTable("evaluation_runs")
    .set({ state: "done", outcome: JSON.stringify(outcome), finished_at: sql`now()` })
    .where("id", "=", runId)
    .execute();
}

/**
 * The job: re-import, grade, store the outcome, draw the new grade's cards. A 409 here is another
 * evaluation holding the trader's lease (the automatic grade after an import, or this run's own
 * earlier attempt on a worker that died, whose lease lapses in seconds): retried while retries last.
 */
export const evaluateJob: JobHandler<"evaluate"> = async (data: JobData["evaluate"], job) => {
  const db = await getDb();
  const run = await db
    .updateTable("evaluation_runs")
    .set({ state: "running" })
    .where("id", "=", data.runId)
    .where("state", "<>", "done")
    .returning(["user_id", "kind"])
    .executeTakeFirst();
  if (!run) return;
  const lastTry = job.retryCount >= job.retryLimit;
  let outcome: EvaluationOutcome;
  try {
    outcome = await evaluateUser(run.user_id, run.kind, reimportForEvaluation);
  } catch (error) {
    if (!lastTry) throw error;
    log("error", "evaluation failed", { runId: data.runId, error: String(error) });
    outcome = refused(502);
  }
  if (outcome.code === 409 && !lastTry) throw new Error("Another evaluation holds the trader's lease; retried.");
  // Drawn before the run is done: whoever follows the run to the grade finds its cards stored.
  if (outcome.code === 200) await renderGradeCards(run.user_id);
  await finishRun(data.runId, outcome);
};
