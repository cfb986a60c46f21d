import { sql } from "kysely";
import {
  classifyPlaidWebhook,
  completeDemoLink as completeDemoLinkWith,
  createLinkToken as createLinkTokenWith,
  exchangePublicToken,
  fetchPlaidHoldings,
  fetchPlaidTransactionsPage,
  isRetryablePlaidFailure,
  mapPlaidInvestments,
  PlaidFailure,
  plaidClient,
  plaidHistoryWindow,
  publicTokenFromLinkSession as publicTokenFromLinkSessionWith,
  resolvePlaidAccount,
  verifyPlaidWebhook as verifyPlaidWebhookWith,
  type DemoLinkOutcome,
  type PlaidClient,
  type PlaidWebhook,
} from "~/sources/plaid.server";
import {
  EVM_ACTIONS,
  evmChain,
  evmTransactions,
  fetchExplorerPage,
  mapEvmTransactions,
  nativeToken,
  nextEvmPage,
  type EvmChain,
  type EvmCursor,
  type EvmMapped,
  type ExplorerRow,
} from "~/sources/evm.server";
import { nextBatchPart } from "~/sources/imported";
import { DEMO_EVM_EXPLORER_URL, DEMO_SOLANA_RPC_URL } from "~/sources/wallet-demo";
import {
  fetchSolanaPage,
  mapSolanaTransactions,
  solanaPageTransactions,
  WSOL_MINT,
  type SolanaPagePayload,
} from "~/sources/solana.server";
import { WalletProviderError } from "~/sources/wallet-errors";
import type { ImportView } from "~/lib/imports";
import { decryptSecret, encryptSecret } from "./crypto.server";
import { getDb, type DB } from "./db.server";
import type { ImportReason, ImportState, LinkedAccountKind } from "./db/schema";
import { getEnv } from "./env.server";
import { evaluateUser, StillImporting } from "./evaluation.server";
import { linkAccount, markImportFailed, saveImport } from "./imports.server";
import { enqueue, wake, type JobData, type JobHandler, type JobName } from "./jobs.server";
import { log } from "./log.server";
import { PriceSourceError, swapPriceLookup } from "./prices.server";
import { notify } from "./notifications.server";
import { PLAID_HOLDINGS_PAYLOAD } from "./reconcile.server";

/**
 * Imports as jobs. Linking (and a webhook, a re-import before an evaluation) writes an `imports`
 * row and enqueues its first step in one transaction, and answers at once. Each step is one short
 * job: a Plaid page (fetched, mapped and stored with the next step's job in one transaction, so a
 * crash repeats at most that page, which the trades' external ids make harmless), Plaid holdings,
 * a page of an EVM explorer or a Solana node (stored raw), or a part of a wallet's mapped rows.
 * The last step hands over to an automatic re-grade that uses no try.
 * A provider error or rate limit is retried with backoff; when retries run out the import ends
 * "failed" with the last error as its message (the queue's dead-letter job "import-failed").
 */

const RUNNING: ImportState[] = ["queued", "waiting_for_provider", "fetching", "mapping", "grading"];
const IMPORTING: ImportState[] = ["queued", "waiting_for_provider", "fetching", "mapping"];

type Cursor = {
  step?: number;
  plaidAccountId?: string;
  offset?: number;
  window?: { start: string; end: string };
  phase?: "transactions" | "holdings";
  waits?: number;
  // An EVM wallet: the page to read next (chain = index into EVM_CHAINS), or the chain to map and
  // the key of the last ledger row stored from it (app/sources/imported.ts nextBatchPart).
  evm?: EvmCursor & { mapping?: boolean; after?: string };
  // A Solana wallet: the signature to read back from (absent: the newest), or, once an empty page
  // ended the history, the key of the last ledger row stored (as for an EVM chain).
  solana?: { before?: string; mapping?: boolean; after?: string };
};

// PRODUCT_NOT_READY (Plaid prepares a new item's history for a minute or two) and rate limits
// (RATE_LIMIT_EXCEEDED, HTTP 429): a step is asked again up to this many times in a row, the delay
// doubling from JOB_RETRY_DELAY_SECONDS up to a minute, without spending the job's retries, which
// are for real errors.
const MAX_PROVIDER_WAITS = 10;
const MAX_WAIT_SECONDS = 60;

/**
 * Starts an import of one linked account on the caller's transaction, or joins the one already
 * running for it (one at a time per account). Returns the import's id.
 */
export async function startImport(
  trx: DB,
  input: { userId: number; linkedAccountId: number; reason: ImportReason; regrade?: boolean; cursor?: Cursor },
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
async function finishImport(trx: DB, importId: number, from: ImportState): Promise<boolean> {
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

// ---------------------------------------------------------------------------------------------
// Plaid: the adapter's client, the stored access token, and what routes ask of them

// One client per process, from the settings (demo mode when the credentials are unset).
let plaidApi: PlaidClient | undefined;
function plaid(): PlaidClient {
  const env = getEnv();
  return (plaidApi ??= plaidClient({
    clientId: env.PLAID_CLIENT_ID,
    secret: env.PLAID_SECRET,
    env: env.PLAID_ENV,
    log: (message, fields) => log("error", message, fields),
  }));
}

async function ownPlaidAccount(userId: number, linkedAccountId: number) {
  const db = await getDb();
  return db
    .selectFrom("linked_accounts")
    .select(["id", "status", "access_token_enc"])
    .where("id", "=", linkedAccountId)
    .where("user_id", "=", userId)
    .where("kind", "=", "plaid")
    .executeTakeFirst();
}

/** The user's own Plaid account, or undefined (for routes checking ownership). */
export async function findOwnPlaidAccount(userId: number, linkedAccountId: number) {
  const account = await ownPlaidAccount(userId, linkedAccountId);
  return account ? { id: account.id, status: account.status } : undefined;
}

/** A linked Plaid account's access token, decrypted for one call to Plaid and never returned to a route. */
async function plaidAccessToken(linkedAccountId: number): Promise<string> {
  const db = await getDb();
  const row = await db
    .selectFrom("linked_accounts")
    .select(["access_token_enc"])
    .where("id", "=", linkedAccountId)
    .where("kind", "=", "plaid")
    .executeTakeFirst();
  if (!row?.access_token_enc) throw new PlaidFailure("invalid", "NOT_FOUND", "That linked account was not found.");
  return decryptSecret(row.access_token_enc);
}

/**
 * A Link token for a new item or, with linkedAccountId (the user's own), for Link update mode on
 * that account's item (re-login); completionRedirectUri asks for Hosted Link.
 */
export async function createLinkToken(
  userId: number,
  opts: { linkedAccountId?: number; completionRedirectUri?: string } = {},
): Promise<{ linkToken: string; hostedLinkUrl: string | null }> {
  let accessToken: string | undefined;
  if (opts.linkedAccountId !== undefined) {
    const account = await ownPlaidAccount(userId, opts.linkedAccountId);
    if (!account?.access_token_enc)
      throw new PlaidFailure("invalid", "NOT_FOUND", "That linked account was not found.");
    accessToken = decryptSecret(account.access_token_enc);
  }
  return createLinkTokenWith(plaid(), {
    clientUserId: String(userId),
    webhookUrl: new URL("/api/finance/plaid/webhook", getEnv().PUBLIC_URL).toString(),
    accessToken,
    completionRedirectUri: opts.completionRedirectUri,
  });
}

/** Hosted Link finished: the session's public token (null when the user left without linking). */
export function publicTokenFromLinkSession(linkToken: string): Promise<string | null> {
  return publicTokenFromLinkSessionWith(plaid(), linkToken);
}

/** The demo stand-in Link page's credential step (answered by the simulator). */
export function completeDemoLink(linkToken: string, username: string, password: string): Promise<DemoLinkOutcome> {
  return completeDemoLinkWith(plaid(), linkToken, username, password);
}

/** A Plaid webhook's signature and body checked, and refused when already seen (throws WebhookRejected). */
export function verifyPlaidWebhook(rawBody: string, headers: Headers): Promise<PlaidWebhook> {
  return verifyPlaidWebhookWith(plaid(), rawBody, headers, firstPlaidWebhook);
}

// A verified webhook's id, recorded once: false when it was already. A table, not memory, because
// a replay may reach another process. Rows live 10 minutes, twice the 5 minutes a webhook's iat is
// accepted, so any webhook whose row is gone is refused by its age (DECISIONS 148).
async function firstPlaidWebhook(id: string): Promise<boolean> {
  const db = await getDb();
  await db
    .deleteFrom("plaid_webhooks_seen")
    .where("seen_at", "<", sql<Date>`now() - interval '10 minutes'`)
    .execute();
  const row = await db
    .insertInto("plaid_webhooks_seen")
    .values({ id })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------
// How routes answer a failure (no provider detail beyond the Plaid error code).

export const ADD_FAILED_MESSAGE = "Failed to add the account!";
export const PLAID_HICCUP_MESSAGE =
  "Looks like there was a hiccup connecting through Plaid. No worries — please try again shortly! 🚀";

export function describeFailure(error: unknown): { status: number; code: string; message: string; relogin: boolean } {
  if (!(error instanceof PlaidFailure)) {
    log("error", "plaid flow failed", { error: error instanceof Error ? error.name : "unknown" });
    return { status: 500, code: "INTERNAL", message: ADD_FAILED_MESSAGE, relogin: false };
  }
  switch (error.kind) {
    case "relogin":
      return { status: 502, code: error.code, message: `${ADD_FAILED_MESSAGE} ${error.message}`, relogin: true };
    case "timeout":
      return {
        status: 504,
        code: error.code,
        message: `${ADD_FAILED_MESSAGE} Plaid did not answer in time; please try again shortly.`,
        relogin: false,
      };
    case "no_accounts":
      return { status: 422, code: error.code, message: `${ADD_FAILED_MESSAGE} ${error.message}`, relogin: false };
    case "invalid":
      return {
        status: error.code === "NOT_FOUND" ? 404 : 400,
        code: error.code,
        message: `${ADD_FAILED_MESSAGE} ${error.message}`,
        relogin: false,
      };
    default:
      return {
        status: 502,
        code: error.code,
        message: `${ADD_FAILED_MESSAGE} Plaid did not answer properly; please try again shortly.`,
        relogin: false,
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Linking

export type PlaidLinkResult =
  | {
      ok: true;
      accounts: {
        id: number;
        label: string;
        institution_name: string | null;
        created: boolean;
        status: "importing";
        import_id: number;
      }[];
    }
  | { ok: false; code: 406 };

class Linked406 extends Error {}

/**
 * Exchanges a public token and links the item's investment accounts, each with its import started
 * in the same transaction. 406 (an account already belongs to another user) links nothing.
 */
export async function linkPlaidItem(userId: number, publicToken: string): Promise<PlaidLinkResult> {
  const item = await exchangePublicToken(plaid(), publicToken);
  const accessTokenEnc = encryptSecret(item.accessToken);
  const db = await getDb();
  try {
    const result = await db.transaction().execute(async (trx) => {
      const out: Extract<PlaidLinkResult, { ok: true }>["accounts"] = [];
      for (const account of item.accounts) {
        const linked = await linkAccount(
          {
            userId,
            kind: "plaid",
            fingerprint: account.fingerprint,
            label: account.label,
            institutionName: item.institutionName,
            accessTokenEnc,
            itemId: item.itemId,
          },
          trx,
        );
        if (!linked.ok) throw new Linked406();
        const importId = await startImport(trx, {
          userId,
          linkedAccountId: linked.id,
          reason: "link",
          cursor: { plaidAccountId: account.plaidAccountId },
        });
        out.push({
          id: linked.id,
          label: account.label,
          institution_name: item.institutionName,
          created: linked.created,
          status: "importing",
          import_id: importId,
        });
      }
      return { ok: true as const, accounts: out };
    });
    wake("import-step");
    return result;
  } catch (error) {
    if (error instanceof Linked406) return { ok: false, code: 406 };
    throw error;
  }
}

/** The stand-in Link page and Hosted Link: where to send the browser after a link. */
export async function linkAndDescribe(userId: number, publicToken: string): Promise<string> {
  try {
    const result = await linkPlaidItem(userId, publicToken);
    // Straight to the import's progress: the next step (the grade) is offered there once it is done.
    return result.ok ? "/profile/account?added=1#imports" : "/profile/account?linkError=406";
  } catch (error) {
    return `/profile/account?linkError=${describeFailure(error).relogin ? "relogin" : "failed"}`;
  }
}

/** After Link update mode (or "Try the import again"): the account imports again in the background. */
export async function reconnectAndDescribe(userId: number, linkedAccountId: number): Promise<string> {
  if (!(await findOwnPlaidAccount(userId, linkedAccountId))) return "/profile/account?linkError=failed";
  await startImports(userId, [linkedAccountId], "retry");
  return "/profile/account?reconnected=1#imports";
}

/** "Try the import again" on the account page: any of the user's own accounts. */
export async function retryImport(userId: number, linkedAccountId: number): Promise<boolean> {
  const db = await getDb();
  const own = await db
    .selectFrom("linked_accounts")
    .select("id")
    .where("id", "=", linkedAccountId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!own) return false;
  await startImports(userId, [linkedAccountId], "retry");
  return true;
}

/** A wallet proved and linked: the account and its import's first job in one transaction. */
export async function linkWallet(input: {
  userId: number;
  kind: "evm" | "solana";
  fingerprint: string;
  label: string;
  institutionName: string;
}) {
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

/** A verified Plaid webhook: new data starts imports; item errors mark the accounts. */
export async function handlePlaidWebhook(hook: PlaidWebhook): Promise<{ action: string; accounts: number }> {
  if (!hook.item_id) return { action: "ignored", accounts: 0 };
  const db = await getDb();
  const accounts = await db
    .selectFrom("linked_accounts")
    .select(["id", "user_id"])
    .where("kind", "=", "plaid")
    .where("item_id", "=", hook.item_id)
    .execute();
  if (!accounts.length) return { action: "unknown item", accounts: 0 };
  const action = classifyPlaidWebhook(hook);
  if (action.action === "import") {
    await db.transaction().execute(async (trx) => {
      for (const a of accounts) await startImport(trx, { userId: a.user_id, linkedAccountId: a.id, reason: "webhook" });
    });
    wake("import-step");
    return { action: "import queued", accounts: accounts.length };
  }
  if (action.action === "ignored") return { action: "ignored", accounts: accounts.length };
  for (const a of accounts) await markImportFailed(a.id, action.message, action.action);
  return { action: action.action, accounts: accounts.length };
}

// ---------------------------------------------------------------------------------------------
// Before an evaluation

/**
 * The evaluation's re-import, as jobs: answers StillImporting at once while another import of the
 * user runs; else starts one per account (no automatic re-grade: the evaluation grades) and waits
 * for them up to EVALUATION_IMPORT_WAIT_MS, then StillImporting (the import goes on). A failed
 * import throws its message (the evaluation answers "Evaluation is failed!", using no try).
 */
export async function reimportForEvaluation(userId: number, kind: LinkedAccountKind | "all"): Promise<void> {
  if ((await runningImportIds(userId)).length) throw new StillImporting();
  const db = await getDb();
  const accounts = await db
    .selectFrom("linked_accounts")
    .select("id")
    .where("user_id", "=", userId)
    .$if(kind !== "all", (q) => q.where("kind", "=", kind as LinkedAccountKind))
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

type StepRow = {
  id: number;
  user_id: number;
  linked_account_id: number;
  state: ImportState;
  cursor: Cursor;
  fetched: number;
  skipped: { reason: string; count: number }[];
  regrade: boolean;
  kind: LinkedAccountKind;
  fingerprint: string;
};

class StepFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly accountStatus: "error" | "relogin_required" = "error",
    readonly waiting = false,
  ) {
    super(message);
  }
}

function stepFailureOf(error: unknown): StepFailure {
  if (error instanceof StepFailure) return error;
  if (error instanceof PlaidFailure) {
    const retryable = isRetryablePlaidFailure(error);
    // Not ready yet, or rate-limited: asked again after a growing delay, spending no retry.
    const waiting = error.code === "PRODUCT_NOT_READY" || error.kind === "rate_limit";
    const message =
      error.code === "PRODUCT_NOT_READY"
        ? "Your broker is still preparing your history; we'll keep asking."
        : error.kind === "rate_limit"
          ? "Plaid asked us to slow down; we'll continue shortly."
          : `${error.code}: ${error.message}`;
    return new StepFailure(message, retryable, error.kind === "relogin" ? "relogin_required" : "error", waiting);
  }
  if (error instanceof WalletProviderError || error instanceof PriceSourceError)
    return new StepFailure(error.message, true);
  log("error", "import step failed", { error: String((error as Error)?.message ?? error).slice(0, 300) });
  return new StepFailure("The import failed unexpectedly.", true);
}

function mergeSkipped(into: { reason: string; count: number }[], add: Record<string, number>) {
  const map = new Map(into.map((s) => [s.reason, s.count]));
  for (const [reason, count] of Object.entries(add)) map.set(reason, (map.get(reason) ?? 0) + count);
  return [...map].map(([reason, count]) => ({ reason, count }));
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
    if (row.kind === "plaid") await plaidStep(row);
    else if (row.kind === "evm") await evmStep(row);
    else await solanaStep(row);
  } catch (error) {
    const failure = stepFailureOf(error);
    if (!failure.retryable) {
      await failImport(row.id, failure.message, failure.accountStatus);
      return;
    }
    const waits = row.cursor.waits ?? 0;
    if (failure.waiting && waits < MAX_PROVIDER_WAITS) {
      const delay = Math.min(MAX_WAIT_SECONDS, Math.max(1, getEnv().JOB_RETRY_DELAY_SECONDS) * 2 ** waits);
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

/** Commits a step's rows, the import's progress and the next job together. */
async function commitStep(
  row: StepRow,
  write: (trx: DB) => Promise<number>,
  progress: {
    state: ImportState;
    cursor: Cursor;
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
    // New data came while this ran (Plaid's full history after its first 30 days): the import that
    // follows grades and tells; a grade of the part would be replaced within the minute.
    if (finishing && updated.again) {
      followed = await finishImport(trx, row.id, progress.state);
      return;
    }
    // The history is in: told now (the automatic grade, if any, is its own notification). An
    // evaluation's own re-import is not news: the user is watching it.
    if (finishing && updated.reason !== "evaluation") {
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

async function plaidStep(row: StepRow): Promise<void> {
  const accessToken = await plaidAccessToken(row.linked_account_id);
  const cursor: Cursor = { ...row.cursor };
  cursor.plaidAccountId ??= await resolvePlaidAccount(plaid(), accessToken, row.fingerprint);
  cursor.window ??= plaidHistoryWindow();
  if ((cursor.phase ?? "transactions") === "transactions") {
    const offset = cursor.offset ?? 0;
    const page = await fetchPlaidTransactionsPage(plaid(), accessToken, cursor.plaidAccountId, cursor.window, offset);
    const mapped = mapPlaidInvestments({
      transactions: page.transactions,
      securities: page.securities,
      holdings: [],
      asOf: new Date(),
    });
    const fetched = offset + page.transactions.length;
    const more = page.transactions.length > 0 && fetched < page.total;
    await commitStep(
      row,
      async (trx) =>
        (
          await saveImport(
            row.linked_account_id,
            {
              trades: mapped.trades,
              cashFlows: mapped.cashFlows,
              marks: [],
              events: mapped.events,
              payloads: [{ kind: "plaid:/investments/transactions/get", payload: page.payload }],
            },
            trx,
            { finished: false },
          )
        ).tradesAdded,
      {
        state: "fetching",
        cursor: { ...cursor, offset: fetched, phase: more ? "transactions" : "holdings" },
        fetched,
        total: page.total,
        skipped: mapped.stats.skipped,
      },
    );
    return;
  }
  const holdings = await fetchPlaidHoldings(plaid(), accessToken, cursor.plaidAccountId);
  const marks = mapPlaidInvestments({
    transactions: [],
    securities: holdings.securities,
    holdings: holdings.holdings,
    asOf: new Date(),
  }).marks;
  await commitStep(
    row,
    async (trx) =>
      (
        await saveImport(
          row.linked_account_id,
          { trades: [], cashFlows: [], marks, payloads: [{ kind: PLAID_HOLDINGS_PAYLOAD, payload: holdings.payload }] },
          trx,
        )
      ).tradesAdded,
    { state: row.regrade ? "grading" : "done", cursor },
  );
}

/**
 * An EVM wallet, one explorer page per job: on each chain (EVM_CHAINS) its normal, internal and
 * token transactions, in windows by block past the explorer's 10,000-row cap, each page stored as a
 * payload of this import; then the chain's pages are mapped (swaps priced in USD through the price
 * source, transfers as deposits in kind) outside any transaction, and its ledger rows stored
 * IMPORT_CHUNK_ROWS per job, each part with the next job in one short transaction.
 */
async function evmStep(row: StepRow): Promise<void> {
  const env = getEnv();
  const address = row.fingerprint.slice("evm:".length);
  const chains = env.EVM_CHAINS;
  const c = row.cursor.evm ?? { chain: 0, action: 0, startBlock: 0, page: 1 };
  const chain = evmChain(chains[c.chain]!)!;
  if (!c.mapping) {
    const action = EVM_ACTIONS[c.action]!;
    const config = {
      baseUrl: env.EVM_EXPLORER_URL ?? DEMO_EVM_EXPLORER_URL,
      apiKey: env.EVM_EXPLORER_KEY,
      timeoutMs: env.WALLET_PROVIDER_TIMEOUT_MS,
    };
    const rows = await fetchExplorerPage(config, {
      chainId: chain.id,
      action,
      address,
      startBlock: c.startBlock,
      page: c.page,
    });
    const next = nextEvmPage(c, rows);
    await commitStep(
      row,
      async (trx) => {
        if (rows.length)
          await trx
            .insertInto("provider_payloads")
            .values({
              linked_account_id: row.linked_account_id,
              kind: evmPayloadKind(chain, action, row.id),
              payload: JSON.stringify({ startBlock: c.startBlock, page: c.page, result: rows }),
            })
            .execute();
        return 0;
      },
      {
        state: "fetching",
        cursor: { ...row.cursor, evm: next ? { ...next, chain: c.chain } : { ...c, mapping: true } },
        fetched: row.fetched + rows.length,
      },
    );
    return;
  }
  const mapped = await mappedEvmChain(row, address, chain);
  const { part, last } = nextBatchPart(mapped.batch, c.after ?? null, env.IMPORT_CHUNK_ROWS);
  const finished = last === null && c.chain + 1 >= chains.length;
  await commitStep(
    row,
    async (trx) => (await saveImport(row.linked_account_id, { ...part, payloads: [] }, trx, { finished })).tradesAdded,
    {
      state: finished ? (row.regrade ? "grading" : "done") : last !== null ? "mapping" : "fetching",
      cursor: {
        ...row.cursor,
        evm: finished
          ? c
          : last !== null
            ? { ...c, after: last }
            : { chain: c.chain + 1, action: 0, startBlock: 0, page: 1 },
      },
      // Counted once per chain, with its first part.
      ...(c.after === undefined ? { skipped: mapped.skipped } : {}),
    },
  );
  if (last === null) mappedHistories.delete(`${row.id}:${chain.id}`);
}

function evmPayloadKind(chain: EvmChain, action: string, importId: number) {
  return `evm.${chain.id}.${action}#${importId}`;
}

type MappedHistory = { batch: EvmMapped["batch"]; skipped: Record<string, number> };

// A wallet's mapped rows (an EVM chain's, a Solana history), kept in this process between the jobs
// that store its parts. A worker without them (restarted, or another process) maps the stored pages
// again: the same pages and the cached prices give the same rows, and the parts' cursor is a row
// key, not a position.
const mappedHistories = new Map<string, MappedHistory>();
const MAPPED_HISTORIES_KEPT = 4;

function keepMapped(key: string, mapped: MappedHistory) {
  if (mappedHistories.size >= MAPPED_HISTORIES_KEPT) mappedHistories.delete(mappedHistories.keys().next().value!);
  mappedHistories.set(key, mapped);
}

/** Marks an import "mapping" (outside any transaction) while its pages are read back and priced. */
async function markMapping(importId: number) {
  const db = await getDb();
  await db
    .updateTable("imports")
    .set({ state: "mapping", updated_at: sql`now()` })
    .where("id", "=", importId)
    .execute();
}

async function mappedEvmChain(row: StepRow, address: string, chain: EvmChain): Promise<MappedHistory> {
  const key = `${row.id}:${chain.id}`;
  const kept = mappedHistories.get(key);
  if (kept) return kept;
  await markMapping(row.id);
  const db = await getDb();
  const pages = await db
    .selectFrom("provider_payloads")
    .select(["kind", "payload"])
    .where("linked_account_id", "=", row.linked_account_id)
    .where(
      "kind",
      "in",
      EVM_ACTIONS.map((action) => evmPayloadKind(chain, action, row.id)),
    )
    .orderBy("id")
    .execute();
  const rows = { txlist: [] as ExplorerRow[], txlistinternal: [] as ExplorerRow[], tokentx: [] as ExplorerRow[] };
  for (const p of pages) {
    const action = p.kind.split(".")[2]!.split("#")[0] as keyof typeof rows;
    const payload = (typeof p.payload === "string" ? JSON.parse(p.payload) : p.payload) as { result: ExplorerRow[] };
    rows[action].push(...payload.result);
  }
  const transactions = evmTransactions(address, chain, rows);
  const priceAt = await swapPriceLookup({ kind: "evm", chainId: chain.id }, transactions, {
    nativeToken: nativeToken(chain),
    transfers: true,
  });
  const valued = mapEvmTransactions(chain, transactions, priceAt);
  if (valued.warnings.length)
    log("debug", "evm import warnings", { importId: row.id, chain: chain.id, warnings: valued.warnings.slice(0, 5) });
  const mapped = {
    batch: valued.batch,
    skipped: {
      ...(valued.swapsSkipped ? { "swap without a USD price": valued.swapsSkipped } : {}),
      ...(valued.transfersSkipped ? { "token transfer without a USD price": valued.transfersSkipped } : {}),
    },
  };
  keepMapped(key, mapped);
  return mapped;
}

/**
 * A Solana wallet, one page per job (getSignaturesForAddress back from the cursor's signature and
 * that page's transactions), each stored as a payload of this import with the next job; after the
 * empty page that ends the history, the stored pages are mapped (swaps priced through the price
 * source) outside any transaction and the ledger rows stored IMPORT_CHUNK_ROWS per job, as for an
 * EVM chain (DECISIONS 110, 115).
 */
async function solanaStep(row: StepRow): Promise<void> {
  const env = getEnv();
  const address = row.fingerprint.slice("solana:".length);
  const c = row.cursor.solana ?? {};
  if (!c.mapping) {
    const config = { rpcUrl: env.SOLANA_RPC_URL ?? DEMO_SOLANA_RPC_URL, timeoutMs: env.WALLET_PROVIDER_TIMEOUT_MS };
    const page = await fetchSolanaPage(config, address, c.before);
    await commitStep(
      row,
      async (trx) => {
        if (page.next)
          await trx
            .insertInto("provider_payloads")
            .values({
              linked_account_id: row.linked_account_id,
              kind: solanaPayloadKind(row.id),
              payload: JSON.stringify(page.payload),
            })
            .execute();
        return 0;
      },
      {
        state: "fetching",
        cursor: { ...row.cursor, solana: page.next ? { before: page.next } : { mapping: true } },
        fetched: row.fetched + page.payload.signatures.length,
      },
    );
    return;
  }
  const mapped = await mappedSolana(row, address);
  const { part, last } = nextBatchPart(mapped.batch, c.after ?? null, env.IMPORT_CHUNK_ROWS);
  const finished = last === null;
  await commitStep(
    row,
    async (trx) => (await saveImport(row.linked_account_id, { ...part, payloads: [] }, trx, { finished })).tradesAdded,
    {
      state: finished ? (row.regrade ? "grading" : "done") : "mapping",
      cursor: { ...row.cursor, solana: finished ? c : { ...c, after: last } },
      // Counted once, with the first part.
      ...(c.after === undefined ? { skipped: mapped.skipped, total: row.fetched } : {}),
    },
  );
  if (finished) mappedHistories.delete(`${row.id}:solana`);
}

function solanaPayloadKind(importId: number) {
  return `solana.page#${importId}`;
}

async function mappedSolana(row: StepRow, address: string): Promise<MappedHistory> {
  const key = `${row.id}:solana`;
  const kept = mappedHistories.get(key);
  if (kept) return kept;
  await markMapping(row.id);
  const db = await getDb();
  const pages = await db
    .selectFrom("provider_payloads")
    .select(["payload"])
    .where("linked_account_id", "=", row.linked_account_id)
    .where("kind", "=", solanaPayloadKind(row.id))
    .orderBy("id")
    .execute();
  const transactions = pages.flatMap((p) =>
    solanaPageTransactions(
      address,
      (typeof p.payload === "string" ? JSON.parse(p.payload) : p.payload) as SolanaPagePayload,
    ),
  );
  const priceAt = await swapPriceLookup({ kind: "solana" }, transactions, { nativeToken: WSOL_MINT });
  const valued = mapSolanaTransactions(transactions, priceAt);
  if (valued.warnings.length)
    log("debug", "solana import warnings", { importId: row.id, warnings: valued.warnings.slice(0, 5) });
  const mapped: MappedHistory = {
    batch: valued.batch,
    skipped: valued.swapsSkipped ? { "swap without a USD price": valued.swapsSkipped } : {},
  };
  keepMapped(key, mapped);
  return mapped;
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

/** After an import: a grade from the new history, using no try and not counted for the day. */
async function regrade(data: JobData["regrade"]): Promise<void> {
  const db = await getDb();
  const row = await db.selectFrom("imports").select(["state"]).where("id", "=", data.importId).executeTakeFirst();
  if (!row || row.state !== "grading") return;
  // With other imports of this trader still running, the last one to finish grades.
  if (!(await runningImportIds(data.userId, IMPORTING)).length) {
    const outcome = await evaluateUser(data.userId, "all", async () => {}, { automatic: true });
    if (outcome.code === 409) throw new Error("An evaluation is running; the re-grade waits for it.");
  }
  if (await db.transaction().execute((trx) => finishImport(trx, data.importId, "grading"))) wake("import-step");
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

/**
 * The fallback for a webhook that never came (Plaid may not deliver one, or we may have been down):
 * every PLAID_POLL_SECONDS, each Plaid account not imported for that long, and not waiting for
 * its owner to log in again, is imported again (reason "poll"; re-importing adds nothing twice).
 */
async function pollImports(): Promise<void> {
  const every = getEnv().PLAID_POLL_SECONDS;
  if (every <= 0) return;
  // The next poll first, so a failing sweep does not end the chain.
  await enqueue(null, "import-poll", {}, { startAfterSeconds: every });
  const db = await getDb();
  const due = await db
    .selectFrom("linked_accounts as la")
    .select(["la.id", "la.user_id"])
    .where("la.kind", "=", "plaid")
    .where("la.status", "in", ["active", "error"])
    .where((eb) =>
      eb.or([
        eb("la.last_imported_at", "is", null),
        eb("la.last_imported_at", "<", sql<Date>`now() - make_interval(secs => ${every})`),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("imports")
            .select("imports.id")
            .whereRef("imports.linked_account_id", "=", "la.id")
            .where("imports.state", "in", RUNNING),
        ),
      ),
    )
    .orderBy("la.id")
    .execute();
  const byUser = new Map<number, number[]>();
  for (const a of due) byUser.set(a.user_id, [...(byUser.get(a.user_id) ?? []), a.id]);
  for (const [userId, ids] of byUser) await startImports(userId, ids, "poll");
  if (due.length) log("info", "plaid poll", { accounts: due.length });
}

export const importJobHandlers: { [N in Exclude<JobName, "notification-digest">]: JobHandler<N> } = {
  "import-step": importStep,
  regrade,
  "import-failed": importFailed,
  "import-poll": pollImports,
};
