import { sql } from "kysely";
import type { EvmMapped } from "~/sources/evm.server";
import { notify } from "../community/notifications.server";
import { markBeforeTrades, recordTradeAlerts } from "../community/trade-alerts.server";
import { getDb, type DB } from "../platform/db.server";
import type { ImportReason, ImportState, LinkedAccountKind } from "../platform/db/schema";
import { enqueue, wake } from "../platform/jobs.server";
import { log } from "../platform/log.server";

// The machinery every provider's import steps share (providers/registry.server.ts): starting and
// finishing an import, and committing a step's rows with its progress and the next job. It knows
// no provider: each owns its part of the cursor and its step (DECISIONS 149).

export const RUNNING: ImportState[] = ["queued", "waiting_for_provider", "fetching", "mapping", "grading"];
export const IMPORTING: ImportState[] = ["queued", "waiting_for_provider", "fetching", "mapping"];

/** The cursor's part every import has; each provider adds its own fields beside it. */
export type ImportCursor = {
  step?: number;
  /** Waits in a row for a provider that is not ready or asked us to slow down. */
  waits?: number;
};

/** An account that belongs to another user: nothing of the link is kept (answered 406). */
export class Linked406 extends Error {}

/**
 * Starts an import of one linked account on the caller's transaction, or joins the one already
 * running for it (one at a time per account). Returns the import's id.
 */
export async function startImport(
  trx: DB,
  input: { userId: number; linkedAccountId: number; reason: ImportReason; regrade?: boolean; cursor?: object },
): Promise<number> {
  const regrade = input.regrade ?? true;
  const inserted = await sql<{ id: number }>`
    insert into imports (user_id, linked_account_id, reason, regrade, cursor)
    values (${input.userId}, ${input.linkedAccountId}, ${input.reason}, ${regrade}, ${JSON.stringify({ step: 0, ...input.cursor })}::jsonb)
    on conflict (linked_account_id) where state not in ('done', 'failed') do nothing
    returning id`.execute(trx);
  const id = inserted.rows[0]?.id;
  if (id !== undefined) {
    await enqueue(trx, "import-step", { importId: id, step: 0 });
    return id;
  }
  const running = await trx
    .selectFrom("imports")
    .select(["id"])
    .where("linked_account_id", "=", input.linkedAccountId)
    .where("state", "in", RUNNING)
    .executeTakeFirstOrThrow();
  // A webhook's new data may lie behind pages the running import has read: one more import follows.
  const again = input.reason === "webhook";
  if (regrade || again)
    await trx
      .updateTable("imports")
      .set({ ...(regrade ? { regrade: true } : {}), ...(again ? { again: true } : {}) })
      .where("id", "=", running.id)
      .execute();
  return running.id;
}

/**
 * Marks a finished import done (from `grading` after its grade) and, when new data was announced
 * while it ran, starts the import that follows it, in the same transaction: there is never a
 * moment with neither running. Returns whether one follows.
 */
export async function finishImport(trx: DB, importId: number, from: ImportState): Promise<boolean> {
  const row = await trx
    .updateTable("imports")
    .set({ state: "done", finished_at: sql`now()`, updated_at: sql`now()` })
    .where("id", "=", importId)
    .where("state", "=", from)
    .returning(["user_id", "linked_account_id", "regrade", "again"])
    .executeTakeFirst();
  if (!row?.again) return false;
  await startImport(trx, {
    userId: row.user_id,
    linkedAccountId: row.linked_account_id,
    reason: "webhook",
    regrade: row.regrade,
  });
  return true;
}

/** Starts imports for accounts in their own transaction (webhooks, "Try the import again"). */
export async function startImports(
  userId: number,
  linkedAccountIds: number[],
  reason: ImportReason,
  regrade = true,
): Promise<number[]> {
  if (!linkedAccountIds.length) return [];
  const db = await getDb();
  const ids = await db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const id of linkedAccountIds)
      ids.push(await startImport(trx, { userId, linkedAccountId: id, reason, regrade }));
    return ids;
  });
  wake("import-step");
  return ids;
}

/** An import step's row: the import, its account, and the cursor its provider left. */
export type StepRow<C extends object = object> = {
  id: number;
  user_id: number;
  linked_account_id: number;
  state: ImportState;
  cursor: ImportCursor & C;
  fetched: number;
  skipped: { reason: string; count: number }[];
  regrade: boolean;
  kind: LinkedAccountKind;
  fingerprint: string;
};

/** A step that failed: retried (with backoff, or waiting without spending a retry) or final. */
export class StepFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly accountStatus: "error" | "relogin_required" = "error",
    readonly waiting = false,
    /** The provider's own word on when to ask again (Retry-After), instead of our backoff. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

function mergeSkipped(into: { reason: string; count: number }[], add: Record<string, number>) {
  const map = new Map(into.map((s) => [s.reason, s.count]));
  for (const [reason, count] of Object.entries(add)) map.set(reason, (map.get(reason) ?? 0) + count);
  return [...map].map(([reason, count]) => ({ reason, count }));
}
/** Commits a step's rows, the import's progress and the next job together. */
export async function commitStep<C extends object>(
  row: StepRow<C>,
  write: (trx: DB) => Promise<number>,
  progress: {
    state: ImportState;
    cursor: ImportCursor & C;
    fetched?: number;
    total?: number | null;
    skipped?: Record<string, number>;
  },
) {
  const db = await getDb();
  const step = (row.cursor.step ?? 0) + 1;
  const finishing = progress.state === "grading" || progress.state === "done";
  const began = performance.now();
  let followed = false;
  await db.transaction().execute(async (trx) => {
    // Live trade alerts: where the account's trades stood, when its trader shares them live.
    const mark = await markBeforeTrades(trx, row.user_id, row.linked_account_id);
    const tradesAdded = await write(trx);
    const updated = await trx
      .updateTable("imports")
      .set({
        state: progress.state,
        // A step done ends the waiting: the next wait (a rate limit after PRODUCT_NOT_READY) starts
        // again from the shortest delay.
        cursor: JSON.stringify({ ...progress.cursor, step, waits: undefined }),
        error: null,
        updated_at: sql`now()`,
        ...(progress.fetched !== undefined ? { fetched: progress.fetched } : {}),
        ...(progress.total !== undefined ? { total: progress.total } : {}),
        ...(progress.skipped ? { skipped: JSON.stringify(mergeSkipped(row.skipped, progress.skipped)) } : {}),
        ...(tradesAdded ? { trades_added: sql<number>`trades_added + ${tradesAdded}` } : {}),
        ...(progress.state === "done" ? { finished_at: sql`now()` } : {}),
      })
      .where("id", "=", row.id)
      .returning(["reason", "trades_added", "again"])
      .executeTakeFirstOrThrow();
    if (mark && tradesAdded) await recordTradeAlerts(trx, mark, updated.reason);
    // New data came while this ran (Plaid's full history after its first 30 days): the import that
    // follows grades and tells; a grade of the part would be replaced within the minute.
    if (finishing && updated.again) {
      followed = await finishImport(trx, row.id, progress.state);
      return;
    }
    // The history is in: told now (the automatic grade, if any, is its own notification). An
    // evaluation's own re-import is not news: the user is watching it.
    // Nor is a scheduled sync (trade alerts) that found nothing new: it runs every few minutes.
    if (finishing && updated.reason !== "evaluation" && !(updated.reason === "sync" && !updated.trades_added)) {
      const account = await trx
        .selectFrom("linked_accounts")
        .select(["institution_name", "label"])
        .where("id", "=", row.linked_account_id)
        .executeTakeFirst();
      await notify(trx, {
        to: row.user_id,
        kind: "import_done",
        actorId: null,
        subject: `import:${row.id}`,
        url: "/profile/account",
        data: { trades_added: updated.trades_added, source: account?.institution_name ?? account?.label ?? null },
      });
    }
    if (!finishing) await enqueue(trx, "import-step", { importId: row.id, step });
    else if (progress.state === "grading") await enqueue(trx, "regrade", { importId: row.id, userId: row.user_id });
  });
  wake(finishing && !followed ? "regrade" : "import-step");
  // How long the step held its transaction (on PGlite it holds the only connection).
  log("debug", "import step stored", {
    importId: row.id,
    step,
    state: progress.state,
    trxMs: Math.round(performance.now() - began),
  });
}

export type MappedHistory = { batch: EvmMapped["batch"]; skipped: Record<string, number> };

// A wallet's mapped rows (an EVM chain's, a Solana history), kept in this process between the jobs
// that store its parts. A worker without them (restarted, or another process) maps the stored pages
// again: the same pages and the cached prices give the same rows, and the parts' cursor is a row
// key, not a position.
const mappedHistories = new Map<string, MappedHistory>();
const MAPPED_HISTORIES_KEPT = 4;

export function keepMapped(key: string, mapped: MappedHistory) {
  if (mappedHistories.size >= MAPPED_HISTORIES_KEPT) mappedHistories.delete(mappedHistories.keys().next().value!);
  mappedHistories.set(key, mapped);
}

/** Marks an import "mapping" (outside any transaction) while its pages are read back and priced. */
export async function markMapping(importId: number) {
  const db = await getDb();
  await db
    .updateTable("imports")
    .set({ state: "mapping", updated_at: sql`now()` })
    .where("id", "=", importId)
    .execute();
}

/** The mapped rows kept for `key`, if this process has them. */
export function keptMapped(key: string): MappedHistory | undefined {
  return mappedHistories.get(key);
}

/** Forgets `key`'s rows once its last part is stored. */
export function forgetMapped(key: string) {
  mappedHistories.delete(key);
}
