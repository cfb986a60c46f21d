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
import { decryptSecret, encryptSecret } from "../../platform/crypto.server";
import { getDb } from "../../platform/db.server";
import { getEnv } from "../../platform/env.server";
import { enqueue, wake } from "../../platform/jobs.server";
import { log } from "../../platform/log.server";
import { linkAccount, markImportFailed, saveImport } from "../imports.server";
import { countLinkChange, type LimitRefusal } from "../link-limits.server";
import { PLAID_HOLDINGS_PAYLOAD } from "../reconcile.server";
import {
  commitStep,
  Linked406,
  RUNNING,
  startImport,
  startImports,
  StepFailure,
  type ImportCursor,
  type StepRow,
} from "../steps.server";
import type { AccountProvider } from "./provider";

// Brokerage accounts through Plaid: Link, the item's access token (encrypted), webhooks, the
// poll for a webhook that never came, and one import step per transactions page, then holdings.

/** Plaid's part of an import's cursor. */
type PlaidCursor = {
  plaidAccountId?: string;
  offset?: number;
  window?: { start: string; end: string };
  phase?: "transactions" | "holdings";
};

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
): Promise<{ ok: true; linkToken: string; hostedLinkUrl: string | null } | LimitRefusal> {
  const allowed = await countLinkChange(userId, "link-token");
  if (!allowed.ok) return allowed;
  let accessToken: string | undefined;
  if (opts.linkedAccountId !== undefined) {
    const account = await ownPlaidAccount(userId, opts.linkedAccountId);
    if (!account?.access_token_enc)
      throw new PlaidFailure("invalid", "NOT_FOUND", "That linked account was not found.");
    accessToken = decryptSecret(account.access_token_enc);
  }
  const created = await createLinkTokenWith(plaid(), {
    clientUserId: String(userId),
    webhookUrl: new URL("/api/finance/plaid/webhook", getEnv().PUBLIC_URL).toString(),
    accessToken,
    completionRedirectUri: opts.completionRedirectUri,
  });
  return { ok: true, ...created };
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
  | { ok: false; code: 406 }
  | LimitRefusal;

/**
 * Exchanges a public token and links the item's investment accounts, each with its import started
 * in the same transaction. 406 (an account already belongs to another user) links nothing; past
 * today's link limit nothing is asked of Plaid.
 */
export async function linkPlaidItem(userId: number, publicToken: string): Promise<PlaidLinkResult> {
  const allowed = await countLinkChange(userId, "link");
  if (!allowed.ok) return allowed;
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

/**
 * The stand-in Link page and Hosted Link: where to send the browser after a link, or the refusal
 * past today's link limit (the stand-in page answers its form with it).
 */
export async function linkAndDescribe(userId: number, publicToken: string): Promise<string | LimitRefusal> {
  try {
    const result = await linkPlaidItem(userId, publicToken);
    if (!result.ok && "status" in result) return result;
    // Straight to the import's progress: the next step (the grade) is offered there once it is done.
    return result.ok ? "/profile/account?added=1#imports" : "/profile/account?linkError=406";
  } catch (error) {
    return `/profile/account?linkError=${describeFailure(error).relogin ? "relogin" : "failed"}`;
  }
}

/**
 * After Link update mode: the account imports again in the background, counted with the day's
 * retries (past them the account page says so; the item stays fixed at Plaid for tomorrow).
 */
export async function reconnectAndDescribe(userId: number, linkedAccountId: number): Promise<string> {
  if (!(await findOwnPlaidAccount(userId, linkedAccountId))) return "/profile/account?linkError=failed";
  if (!(await countLinkChange(userId, "reimport")).ok) return "/profile/account?linkError=reimport-limit";
  await startImports(userId, [linkedAccountId], "retry");
  return "/profile/account?reconnected=1#imports";
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
// Importing

async function plaidStep(row: StepRow<PlaidCursor>): Promise<void> {
  const accessToken = await plaidAccessToken(row.linked_account_id);
  const cursor: ImportCursor & PlaidCursor = { ...row.cursor };
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
    // Stored with their currency; graded once the engine takes currencies (DECISIONS 181).
    if (Object.keys(mapped.stats.currencies).length)
      log("info", "plaid: rows in other currencies", { importId: row.id, ...mapped.stats.currencies });
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

/** Plaid's errors as a step's failure: not ready and rate limits wait, a login problem is final. */
function plaidFailure(error: unknown): StepFailure | null {
  if (!(error instanceof PlaidFailure)) return null;
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

export const plaidProvider: AccountProvider<PlaidCursor> = {
  kind: "plaid",
  step: plaidStep,
  failure: plaidFailure,
  simulator: "plaid",
};

/**
 * The fallback for a webhook that never came (Plaid may not deliver one, or we may have been down):
 * every PLAID_POLL_SECONDS, each Plaid account not imported for that long, and not waiting for
 * its owner to log in again, is imported again (reason "poll"; re-importing adds nothing twice).
 */
export async function pollImports(): Promise<void> {
  const every = getEnv().PLAID_POLL_SECONDS;
  if (every <= 0) return;
  // The next poll first, so a failing sweep does not end the chain.
  await enqueue(null, "import-poll", {}, { startAfterSeconds: every });
  const db = await getDb();
  const due = await db
    .selectFrom("linked_accounts as la")
    .select(["la.id", "la.user_id"])
    .where("la.kind", "=", "plaid")
    // An account without an access token (the demo community's) has nothing to import from.
    .where("la.access_token_enc", "is not", null)
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
