import type { Refusal } from "~/lib/refusal";
import {
  FlexError,
  flexWindow,
  getStatement,
  sendRequest,
  type FlexCredentials,
  type FlexReference,
  type FlexSettings,
} from "~/sources/ibkr.server";
import { parseFlexStatement, type FlexStatement } from "~/sources/ibkr/flex";
import { nextBatchPart, type ImportBatch } from "~/sources/imported";
import { DEMO_IBKR_FLEX_URL } from "~/sources/wallet-demo";
import { decryptSecret, encryptSecret } from "../../platform/crypto.server";
import { getDb } from "../../platform/db.server";
import { getEnv, type Env } from "../../platform/env.server";
import { log } from "../../platform/log.server";
import { MESSAGE_406, saveImport } from "../imports.server";
import type { LimitRefusal } from "../link-limits.server";
import { linkWallet } from "../linking.server";
import {
  commitStep,
  forgetMapped,
  keepMapped,
  keptMapped,
  markMapping,
  StepFailure,
  type MappedHistory,
  type StepRow,
} from "../steps.server";
import type { AccountProvider } from "./provider";

// Interactive Brokers through the Flex Web Service (issue 33, DECISIONS 193). Linking asks for the
// latest year's statement (SendRequest, then GetStatement until it is generated) to learn whose
// account the token reads; the import walks 365-day windows back from today, one request per job,
// stores each statement raw, then maps them all (app/sources/ibkr/flex.ts) and stores the ledger
// rows in parts, like an exchange's.

export const IBKR_NAME = "Interactive Brokers";

function settings(env: Env = getEnv()): FlexSettings {
  return { baseUrl: env.IBKR_FLEX_URL ?? DEMO_IBKR_FLEX_URL, timeoutMs: env.WALLET_PROVIDER_TIMEOUT_MS };
}

/** The waits between GetStatement polls while linking (1019): the page waits at most ~15 s. */
const LINK_POLLS_MS = [500, 1000, 2000, 4000, 8000];

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A statement of the window: asked for, then polled while IBKR generates it (1019, 1009…). Only
 * linking polls in place; the import's jobs poll one request per job.
 */
async function statementNow(credentials: FlexCredentials, back: number): Promise<FlexStatement | FlexError> {
  const s = settings();
  let reference: FlexReference;
  try {
    reference = await sendRequest(credentials, s, flexWindow(today(), back));
  } catch (error) {
    if (error instanceof FlexError) return error;
    throw error;
  }
  for (let i = 0; ; i++) {
    try {
      const xml = await getStatement(credentials, reference, s);
      const parsed = parseFlexStatement(xml);
      if (!parsed.ok) return new FlexError(parsed.code ?? 0, parsed.problems.join(" "));
      return parsed;
    } catch (error) {
      if (!(error instanceof FlexError)) throw error;
      if (error.kind !== "pending" || i >= LINK_POLLS_MS.length) return error;
      await new Promise((resolve) => setTimeout(resolve, LINK_POLLS_MS[i]));
    }
  }
}

export type LinkedIbkr = { ok: true; linkedAccountId: number; created: boolean; importId: number; label: string };

/**
 * Links an IBKR account from its owner's Flex token and query id: the latest statement first says
 * the token works and whose account it reads; then the 406 rule; then today's link limit; then
 * the account, its token encrypted, and its import's first job, in one transaction. The token is
 * never logged nor returned. Linking one's own account again replaces its token (the way back
 * from "needs a new token").
 */
export async function linkIbkr(input: {
  userId: number;
  credentials: FlexCredentials;
}): Promise<LinkedIbkr | Refusal<400> | Refusal<409> | Refusal<502> | LimitRefusal> {
  let statement: FlexStatement | FlexError;
  try {
    statement = await statementNow(input.credentials, 0);
  } catch (error) {
    log("info", "ibkr link failed", { error: error instanceof Error ? error.message : String(error) });
    return { ok: false, status: 502, message: `${IBKR_NAME} did not answer. Try again in a minute.` };
  }
  if (statement instanceof FlexError) {
    if (statement.kind === "pending" || statement.kind === "rate")
      return { ok: false, status: 502, message: `${statement.message} Try linking again in a minute.` };
    return { ok: false, status: 400, message: statement.message };
  }

  const fingerprint = `ibkr:${statement.accountId}`;
  const db = await getDb();
  const holder = await db
    .selectFrom("linked_accounts")
    .select(["user_id"])
    .where("fingerprint", "=", fingerprint)
    .executeTakeFirst();
  if (holder && holder.user_id !== input.userId) return { ok: false, status: 409, message: MESSAGE_406 };

  const label = `IBKR account …${statement.accountId.slice(-4)}`;
  const linked = await linkWallet({
    userId: input.userId,
    kind: "ibkr",
    fingerprint,
    label,
    institutionName: IBKR_NAME,
    accessTokenEnc: encryptSecret(JSON.stringify(input.credentials)),
  });
  if (!linked.ok) return "status" in linked ? linked : { ok: false, status: 409, message: MESSAGE_406 };
  return { ok: true, linkedAccountId: linked.id, created: linked.created, importId: linked.importId, label };
}

// ---------------------------------------------------------------------------------------------
// The import

/**
 * IBKR's part of an import's cursor: the day the windows count back from (fixed at the first
 * step, so a resumed import reads the same windows), the window to read (0: the latest year), the
 * reference code of the statement being generated, and the key of the last ledger row stored.
 */
type IbkrCursor = {
  ib?: { today: string; back: number; ref?: FlexReference; phase: "fetch" | "map"; after?: string };
};

const payloadKind = (importId: number) => `ibkr#${importId}`;

async function credentialsOf(linkedAccountId: number): Promise<FlexCredentials> {
  const db = await getDb();
  const row = await db
    .selectFrom("linked_accounts")
    .select("access_token_enc")
    .where("id", "=", linkedAccountId)
    .executeTakeFirst();
  if (!row?.access_token_enc)
    throw new StepFailure("This account has no Flex token: link it again.", false, "relogin_required");
  return JSON.parse(decryptSecret(row.access_token_enc)) as FlexCredentials;
}

/** Whether a statement holds no row at all (an empty year). */
const isEmpty = (s: FlexStatement) => !s.trades.length && !s.cashFlows.length && !s.events.length;

async function ibkrStep(row: StepRow<IbkrCursor>): Promise<void> {
  const env = getEnv();
  const c = row.cursor.ib ?? { today: today(), back: 0, phase: "fetch" as const };

  if (c.phase === "fetch") {
    const credentials = await credentialsOf(row.linked_account_id);
    const window = flexWindow(c.today, c.back);
    if (!c.ref) {
      const ref = await sendRequest(credentials, settings(env), window);
      await commitStep(row, async () => 0, { state: "fetching", cursor: { ...row.cursor, ib: { ...c, ref } } });
      return;
    }
    let xml: string;
    try {
      xml = await getStatement(credentials, c.ref, settings(env));
    } catch (error) {
      // A reference code that expired is asked for anew; the rest is failure()'s.
      if (error instanceof FlexError && error.kind === "reference") {
        await commitStep(row, async () => 0, {
          state: "fetching",
          cursor: { ...row.cursor, ib: { ...c, ref: undefined } },
        });
        return;
      }
      throw error;
    }
    const statement = parseFlexStatement(xml);
    if (!statement.ok) throw new StepFailure(statement.problems.join(" "), false);
    if (`ibkr:${statement.accountId}` !== row.fingerprint)
      throw new StepFailure(
        `This Flex query now reads account ${statement.accountId}, not the one linked: link that account on its own.`,
        false,
        "relogin_required",
      );
    // Back until the window holds the day the account was opened; a statement that does not say
    // stops at its first empty year, or at IBKR_MAX_WINDOWS.
    const reachedStart = statement.dateOpened
      ? window.from <= statement.dateOpened
      : isEmpty(statement) || c.back + 1 >= env.IBKR_MAX_WINDOWS;
    const rows = statement.trades.length + statement.cashFlows.length + statement.events.length;
    await commitStep(
      row,
      async (trx) => {
        await trx
          .insertInto("provider_payloads")
          .values({
            linked_account_id: row.linked_account_id,
            kind: payloadKind(row.id),
            payload: JSON.stringify({ window, xml }),
          })
          .execute();
        return 0;
      },
      {
        state: reachedStart ? "mapping" : "fetching",
        cursor: {
          ...row.cursor,
          ib: reachedStart ? { ...c, ref: undefined, phase: "map" } : { ...c, ref: undefined, back: c.back + 1 },
        },
        fetched: row.fetched + rows,
      },
    );
    return;
  }

  // The statements as ledger rows, stored IMPORT_CHUNK_ROWS per job (a cursor by row key).
  const mapped = await mappedHistory(row);
  const { part, last } = nextBatchPart(mapped.batch, c.after ?? null, env.IMPORT_CHUNK_ROWS);
  const finished = last === null;
  await commitStep(
    row,
    async (trx) => (await saveImport(row.linked_account_id, { ...part, payloads: [] }, trx, { finished })).tradesAdded,
    {
      state: finished ? (row.regrade ? "grading" : "done") : "mapping",
      cursor: { ...row.cursor, ib: { ...c, after: last ?? c.after } },
      ...(c.after === undefined ? { skipped: mapped.skipped } : {}),
    },
  );
  if (finished) forgetMapped(`ibkr:${row.id}`);
}

async function mappedHistory(row: StepRow): Promise<MappedHistory> {
  const key = `ibkr:${row.id}`;
  const kept = keptMapped(key);
  if (kept) return kept;
  await markMapping(row.id);
  const db = await getDb();
  const stored = await db
    .selectFrom("provider_payloads")
    .select("payload")
    .where("linked_account_id", "=", row.linked_account_id)
    .where("kind", "=", payloadKind(row.id))
    .orderBy("id")
    .execute();
  const mapped = mapStatements(
    stored.map((r) => ((typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as { xml: string }).xml),
  );
  keepMapped(key, mapped);
  return mapped;
}

/** The windows' statements as one history: rows keyed by IBKR's ids, so a row twice is kept once. */
export function mapStatements(xmls: string[]): MappedHistory {
  const batch: Omit<ImportBatch, "payloads"> = { trades: [], cashFlows: [], marks: [], events: [] };
  const skipped: Record<string, number> = {};
  const seen = new Set<string>();
  const once = (key: string) => (seen.has(key) ? false : (seen.add(key), true));
  for (const xml of xmls) {
    const s = parseFlexStatement(xml);
    if (!s.ok) {
      skipped["statement that could not be read"] = (skipped["statement that could not be read"] ?? 0) + 1;
      continue;
    }
    batch.trades.push(...s.trades.filter((t) => once(`t:${t.externalId}`)));
    batch.cashFlows.push(...s.cashFlows.filter((f) => once(`c:${f.externalId}`)));
    batch.events!.push(...s.events.filter((e) => once(`e:${e.externalId}`)));
    batch.marks.push(...s.marks);
    for (const [why, n] of Object.entries(s.skipped)) skipped[why] = (skipped[why] ?? 0) + n;
  }
  return { batch, skipped };
}

/**
 * IBKR's errors as a step's: a token that expired, is invalid or IP-restricted needs a new one
 * (the account is marked); a statement still being generated (1019) is asked for again with the
 * jobs' backoff; too many requests (1018) waits longer; a query to fix fails the import in words.
 */
export function ibkrFailure(error: unknown): StepFailure | null {
  if (error instanceof StepFailure) return error;
  if (!(error instanceof FlexError)) {
    if (error instanceof Error && (error.name === "TimeoutError" || /HTTP 5\d\d|fetch failed/.test(error.message)))
      return new StepFailure(`${IBKR_NAME} did not answer; Grader will ask again.`, true, "error", true);
    return null;
  }
  switch (error.kind) {
    case "token":
      return new StepFailure(error.message, false, "relogin_required");
    case "pending":
      return new StepFailure(error.message, true, "error", true);
    case "rate":
      // ibflex waits 10 s after 1018; the service states no limit, so a minute is kinder.
      return new StepFailure(error.message, true, "error", true, 60);
    case "query":
      return new StepFailure(error.message, false, "error");
    default:
      return new StepFailure(error.message, true);
  }
}

export const ibkrProvider: AccountProvider<IbkrCursor> = {
  kind: "ibkr",
  step: ibkrStep,
  failure: ibkrFailure,
  simulator: "ibkr",
};
