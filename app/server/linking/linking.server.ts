import { sql } from "kysely";
import type { ImportView } from "~/lib/imports";
import type { Refusal } from "~/lib/refusal";
import { PriceSourceError } from "../grades/prices.server";
import { evaluateUser, StillImporting } from "../grades/evaluation.server";
import { renderGradeCards } from "../grades/cards.server";
import { notify } from "../community/notifications.server";
import { getDb } from "../platform/db.server";
import type { LinkedAccountKind } from "../platform/db/schema";
import { scopeKinds, type GradeScope } from "~/lib/vocabulary";
import { getEnv } from "../platform/env.server";
import { enqueue, wake, type JobData, type JobHandler, type JobName } from "../platform/jobs.server";
import { log } from "../platform/log.server";
import { WalletProviderError } from "~/sources/wallet-errors";
import { linkAccount, markImportFailed } from "./imports.server";
import { countLinkChange, type LimitRefusal } from "./link-limits.server";
import { pollImports } from "./providers/plaid.server";
import { ACCOUNT_PROVIDERS } from "./providers/registry.server";
import {
  finishImport,
  IMPORTING,
  Linked406,
  RUNNING,
  startImport,
  startImports,
  StepFailure,
  type StepRow,
} from "./steps.server";

/**
 * Imports as jobs. Linking (and a webhook, a re-import before an evaluation) writes an `imports`
 * row and enqueues its first step in one transaction, and answers at once. Each step is one short
 * job: a Plaid page (fetched, mapped and stored with the next step's job in one transaction, so a
 * crash repeats at most that page, which the trades' external ids make harmless), Plaid holdings,
 * a page of an EVM explorer or a Solana node (stored raw), or a part of a wallet's mapped rows.
 * The last step hands over to an automatic re-grade that uses no try.
 * A provider error or rate limit is retried with backoff; when retries run out the import ends
 * "failed" with the last error as its message (the queue's dead-letter job "import-failed").
 * Each kind of account's steps are its provider's (providers/registry.server.ts); this module runs
 * them, whatever the kind.
 */

// PRODUCT_NOT_READY (Plaid prepares a new item's history for a minute or two) and rate limits
// (RATE_LIMIT_EXCEEDED, HTTP 429): a step is asked again up to this many times in a row, the delay
// doubling from JOB_RETRY_DELAY_SECONDS up to a minute, without spending the job's retries, which
// are for real errors.
const MAX_PROVIDER_WAITS = 10;
const MAX_WAIT_SECONDS = 60;

/** The user's imports, newest first (GET /api/portal/imports, the account page). */
export async function listImports(userId: number, limit = 20): Promise<ImportView[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("imports")
    .innerJoin("linked_accounts", "linked_accounts.id", "imports.linked_account_id")
    .select([
      "imports.id",
      "imports.linked_account_id",
      "linked_accounts.label as account_label",
      "linked_accounts.kind",
      "imports.reason",
      "imports.state",
      "imports.fetched",
      "imports.total",
      "imports.skipped",
      "imports.trades_added",
      "imports.error",
      "imports.attempts",
      "imports.created_at",
      "imports.updated_at",
      "imports.finished_at",
    ])
    .where("imports.user_id", "=", userId)
    .orderBy("imports.id", "desc")
    .limit(limit)
    .execute();
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((r) => ({
    ...r,
    skipped: Array.isArray(r.skipped) ? r.skipped : [],
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    finished_at: iso(r.finished_at),
  }));
}

async function runningImportIds(userId: number, states = RUNNING): Promise<number[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("imports")
    .select("id")
    .where("user_id", "=", userId)
    .where("state", "in", states)
    .execute();
  return rows.map((r) => r.id);
}

/** "Try the import again" on the account page: any of the user's own accounts. */
export async function retryImport(
  userId: number,
  linkedAccountId: number,
): Promise<{ ok: true } | Refusal<404> | LimitRefusal> {
  const db = await getDb();
  const own = await db
    .selectFrom("linked_accounts")
    .select("id")
    .where("id", "=", linkedAccountId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!own) return { ok: false, status: 404, message: "That account was not found." };
  const allowed = await countLinkChange(userId, "reimport");
  if (!allowed.ok) return allowed;
  await startImports(userId, [linkedAccountId], "retry");
  return { ok: true };
}

/**
 * A wallet proved and linked: the account and its import's first job in one transaction. Past
 * today's link limit, a refusal and nothing linked.
 */
export async function linkWallet(input: {
  userId: number;
  kind: LinkedAccountKind;
  fingerprint: string;
  label: string;
  institutionName: string;
  /** An exchange's key, encrypted (crypto.server.ts); refreshed when its owner links it again. */
  accessTokenEnc?: string;
}) {
  const allowed = await countLinkChange(input.userId, "link");
  if (!allowed.ok) return allowed;
  const db = await getDb();
  try {
    const result = await db.transaction().execute(async (trx) => {
      const linked = await linkAccount(
        {
          userId: input.userId,
          kind: input.kind,
          fingerprint: input.fingerprint,
          label: input.label,
          institutionName: input.institutionName,
          accessTokenEnc: input.accessTokenEnc ?? null,
        },
        trx,
      );
      if (!linked.ok) throw new Linked406();
      const importId = await startImport(trx, { userId: input.userId, linkedAccountId: linked.id, reason: "link" });
      return { ok: true as const, id: linked.id, created: linked.created, importId };
    });
    wake("import-step");
    return result;
  } catch (error) {
    if (error instanceof Linked406) return { ok: false as const, code: 406 as const };
    throw error;
  }
}

/** Whether an import of the trader is running: an evaluation asked for now is refused (425). */
export async function isImporting(userId: number): Promise<boolean> {
  return (await runningImportIds(userId)).length > 0;
}

/**
 * The evaluation's re-import, as jobs: answers StillImporting at once while another import of the
 * user runs; else starts one per account (no automatic re-grade: the evaluation grades) and waits
 * for them up to EVALUATION_IMPORT_WAIT_MS, then StillImporting (the import goes on). A failed
 * import throws its message (the evaluation answers "Evaluation is failed!", using no try).
 */
export async function reimportForEvaluation(userId: number, kind: GradeScope): Promise<void> {
  if ((await runningImportIds(userId)).length) throw new StillImporting();
  const db = await getDb();
  const accounts = await db
    .selectFrom("linked_accounts")
    .select("id")
    .where("user_id", "=", userId)
    .$if(scopeKinds(kind) !== null, (q) => q.where("kind", "in", scopeKinds(kind)!))
    .execute();
  const ids = await startImports(
    userId,
    accounts.map((a) => a.id),
    "evaluation",
    false,
  );
  const deadline = Date.now() + getEnv().EVALUATION_IMPORT_WAIT_MS;
  for (;;) {
    const rows = ids.length
      ? await db.selectFrom("imports").select(["state", "error"]).where("id", "in", ids).execute()
      : [];
    const failed = rows.find((r) => r.state === "failed");
    if (failed) throw new Error(failed.error ?? "The import failed.");
    if (rows.every((r) => !IMPORTING.includes(r.state))) return;
    if (Date.now() > deadline) throw new StillImporting();
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------------------------------------
// The jobs

/** A step's error as a failure: the provider's own reading first, then the errors every wallet shares. */
function stepFailureOf(row: StepRow, error: unknown): StepFailure {
  if (error instanceof StepFailure) return error;
  const own = ACCOUNT_PROVIDERS[row.kind].failure?.(error);
  if (own) return own;
  if (error instanceof WalletProviderError || error instanceof PriceSourceError)
    return new StepFailure(error.message, true);
  log("error", "import step failed", { error: String((error as Error)?.message ?? error).slice(0, 300) });
  return new StepFailure("The import failed unexpectedly.", true);
}

async function importStep(data: JobData["import-step"]): Promise<void> {
  // Let waiting requests in first: on PGlite a query resolves without I/O, and so does a simulated
  // provider, so a chain of steps would otherwise run as one stretch of promises and starve the
  // HTTP server until the whole import is done.
  await new Promise((resolve) => setImmediate(resolve));
  const db = await getDb();
  const row = (await db
    .selectFrom("imports")
    .innerJoin("linked_accounts", "linked_accounts.id", "imports.linked_account_id")
    .select([
      "imports.id",
      "imports.user_id",
      "imports.linked_account_id",
      "imports.state",
      "imports.cursor",
      "imports.fetched",
      "imports.skipped",
      "imports.regrade",
      "linked_accounts.kind",
      "linked_accounts.fingerprint",
    ])
    .where("imports.id", "=", data.importId)
    .executeTakeFirst()) as StepRow | undefined;
  // Gone (unlinked), finished, or a step already done (a retry of a job whose work was committed).
  if (!row || !IMPORTING.includes(row.state) || (row.cursor.step ?? 0) !== data.step) return;
  await db
    .updateTable("imports")
    .set({ attempts: sql`attempts + 1`, updated_at: sql`now()` })
    .where("id", "=", row.id)
    .execute();
  try {
    await ACCOUNT_PROVIDERS[row.kind].step(row);
  } catch (error) {
    const failure = stepFailureOf(row, error);
    if (!failure.retryable) {
      await failImport(row.id, failure.message, failure.accountStatus);
      return;
    }
    const waits = row.cursor.waits ?? 0;
    if (failure.waiting && waits < MAX_PROVIDER_WAITS) {
      const delay =
        failure.retryAfterSeconds ??
        Math.min(MAX_WAIT_SECONDS, Math.max(1, getEnv().JOB_RETRY_DELAY_SECONDS) * 2 ** waits);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("imports")
          .set({
            state: "waiting_for_provider",
            error: failure.message,
            cursor: JSON.stringify({ ...row.cursor, waits: waits + 1 }),
            updated_at: sql`now()`,
          })
          .where("id", "=", row.id)
          .execute();
        await enqueue(trx, "import-step", { importId: row.id, step: data.step }, { startAfterSeconds: delay });
      });
      return; // this job is done; the same step runs again after the delay
    }
    await db
      .updateTable("imports")
      .set({
        error: failure.message,
        updated_at: sql`now()`,
        ...(failure.waiting ? { state: "waiting_for_provider" as const } : {}),
      })
      .where("id", "=", row.id)
      .execute();
    throw failure; // pg-boss retries with backoff, then dead-letters to import-failed
  }
}

async function failImport(importId: number, message: string, accountStatus: "error" | "relogin_required") {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("imports")
      .set({ state: "failed", error: message.slice(0, 500), finished_at: sql`now()`, updated_at: sql`now()` })
      .where("id", "=", importId)
      .where("state", "in", RUNNING)
      .returning(["linked_account_id", "user_id", "reason"])
      .executeTakeFirst();
    if (!row) return;
    await markImportFailed(row.linked_account_id, message, accountStatus, trx);
    // Told like a finished import; an evaluation's own re-import answers the evaluation instead.
    if (row.reason !== "evaluation") {
      const account = await trx
        .selectFrom("linked_accounts")
        .select(["institution_name", "label"])
        .where("id", "=", row.linked_account_id)
        .executeTakeFirst();
      await notify(trx, {
        to: row.user_id,
        kind: "import_failed",
        actorId: null,
        subject: `import:${importId}`,
        url: "/profile/account#imports",
        data: { source: account?.institution_name ?? account?.label ?? null, error: message.slice(0, 200) },
      });
    }
  });
}

/** What a finished import says when today's automatic grades were used up (AUTO_GRADES_PER_DAY). */
export const AUTOMATIC_GRADES_USED_UP =
  "The import finished, but you've hit today's limit for automatic grades, so none was made. Ask for a grade when you want one.";

// How long a re-grade waits for another evaluation of the trader, and how often it looks again.
const REGRADE_WAIT_MS = 30 * 60_000;
const REGRADE_RECHECK_SECONDS = 3;

/**
 * After an import: a grade from the new history, using no try and not counted among the
 * evaluations of the day, but bounded per day on its own: each link would otherwise add a free
 * grade to the public log at will. Past the bound the import still ends, and says so.
 */
async function regrade(data: JobData["regrade"]): Promise<void> {
  const db = await getDb();
  const row = await db.selectFrom("imports").select(["state"]).where("id", "=", data.importId).executeTakeFirst();
  if (!row || row.state !== "grading") return;
  let note: string | null = null;
  // With other imports of this trader still running, the last one to finish grades.
  if (!(await runningImportIds(data.userId, IMPORTING)).length) {
    const outcome = await evaluateUser(data.userId, "all", async () => {}, { automatic: true });
    if (outcome.code === 409) {
      // The lease's holder is an evaluation, or this job's own earlier attempt still working past
      // its expiry (a slow price source): pg-boss retried it. Waiting spends no retry, or retries
      // would run out while that attempt is about to finish the grade; bounded all the same.
      const busySince = data.busySince ?? Date.now();
      if (Date.now() - busySince > REGRADE_WAIT_MS) throw new Error("An evaluation held the trader's lease too long.");
      await enqueue(null, "regrade", { ...data, busySince }, { startAfterSeconds: REGRADE_RECHECK_SECONDS });
      return;
    }
    if (outcome.code === 402) note = AUTOMATIC_GRADES_USED_UP;
    if (outcome.code === 200) await renderGradeCards(data.userId);
  }
  const followed = await db.transaction().execute(async (trx) => {
    if (note)
      await trx
        .updateTable("imports")
        .set({ error: note })
        .where("id", "=", data.importId)
        .where("state", "=", "grading")
        .execute();
    return finishImport(trx, data.importId, "grading");
  });
  if (followed) wake("import-step");
}

/** The dead-letter queue: an import step or re-grade out of retries. */
async function importFailed(data: JobData["import-failed"]): Promise<void> {
  const db = await getDb();
  const row = await db
    .selectFrom("imports")
    .select(["state", "error", "attempts"])
    .where("id", "=", data.importId)
    .executeTakeFirst();
  if (!row) return;
  if (row.state === "grading") {
    await db
      .updateTable("imports")
      .set({
        state: "done",
        error: "The import finished, but the automatic grade could not be made. Ask for a grade.",
        finished_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where("id", "=", data.importId)
      .execute();
    return;
  }
  await failImport(
    data.importId,
    `${row.error ?? "The provider kept failing."} Gave up after ${row.attempts} attempts; try the import again later.`,
    "error",
  );
}

export const importJobHandlers: {
  [
    N in Exclude<
      JobName,
      | "notification-digest"
      | "engine-regrade"
      | "currency-regrade"
      | "evaluate"
      | "mail-deliver"
      | "leaderboard-compact"
      | "season-close"
      | "push"
      | "trade-alert"
      | "trade-alert-deliver"
      | "trade-alert-sync"
      | "trade-alert-prune"
      | "club-live"
    >
  ]: JobHandler<N>;
} = {
  "import-step": importStep,
  regrade,
  "import-failed": importFailed,
  "import-poll": pollImports,
};
