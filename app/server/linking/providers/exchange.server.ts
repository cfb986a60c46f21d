import type { Exchange } from "ccxt";
import {
  EXCHANGE_VIEWS,
  isLinkableExchange,
  linkableExchangeNames,
  type ExchangeId,
  type LinkableExchange,
} from "~/lib/exchanges";
import type { Refusal } from "~/lib/refusal";
import {
  historyNotice,
  readExchangeError,
  type ExchangeCredentials,
  type ExchangeSettings,
  type HistoryTask,
  type StoredPage,
} from "~/sources/exchange.server";
import { EXCHANGES } from "~/sources/exchanges";
import { nextBatchPart } from "~/sources/imported";
import {
  DEMO_BINANCE_URL,
  DEMO_COINBASE_URL,
  DEMO_KRAKEN_URL,
  DEMO_OKX_URL,
  DEMO_BYBIT_URL,
} from "~/sources/wallet-demo";
import { coinInstrumentForSymbol, pricesAt, type Instrument } from "../../grades/prices.server";
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

// Exchanges linked with a read-only API key (issue 31): one provider module for every exchange,
// driven by its entry in EXCHANGES (app/sources/exchanges). Linking proves the key read-only and
// finds the exchange's account id before anything is stored; the import reads one window or page
// per job (the entry's tasks, then its trade streams), stores each page raw, then maps them all and
// stores the ledger rows in parts, like a wallet's.

/** The exchange's API origin: the setting, or the simulator's in demo mode. */
const ORIGIN: Record<LinkableExchange, { setting: keyof Env; demo: string }> = {
  binance: { setting: "BINANCE_API_URL", demo: DEMO_BINANCE_URL },
  kraken: { setting: "KRAKEN_API_URL", demo: DEMO_KRAKEN_URL },
  coinbase: { setting: "COINBASE_API_URL", demo: DEMO_COINBASE_URL },
  okx: { setting: "OKX_API_URL", demo: DEMO_OKX_URL },
  bybit: { setting: "BYBIT_API_URL", demo: DEMO_BYBIT_URL },
};

function settings(id: LinkableExchange, env: Env = getEnv()): ExchangeSettings {
  const origin = ORIGIN[id];
  return {
    baseUrl: (env[origin.setting] as string | undefined) ?? origin.demo,
    timeoutMs: env.WALLET_PROVIDER_TIMEOUT_MS,
  };
}

function clientFor(id: LinkableExchange, credentials: ExchangeCredentials): Exchange {
  return EXCHANGES[id].client(credentials, settings(id));
}

export type LinkedExchange = {
  ok: true;
  linkedAccountId: number;
  created: boolean;
  importId: number;
  label: string;
};

/**
 * Links an exchange account from its owner's API key: the exchange first says what the key may do
 * (a key that can trade or withdraw is refused, naming the permission to remove) and whose account
 * it is; then the 406 rule; then today's link limit; then the account, its key encrypted, and its
 * import's first job, in one transaction. The key is never logged nor returned.
 */
export async function linkExchangeKey(input: {
  userId: number;
  exchange: ExchangeId;
  credentials: ExchangeCredentials;
}): Promise<LinkedExchange | Refusal<400> | Refusal<409> | Refusal<502> | LimitRefusal> {
  const { exchange, credentials } = input;
  const name = EXCHANGE_VIEWS[exchange].name;
  if (!isLinkableExchange(exchange))
    return { ok: false, status: 400, message: `${name} cannot be linked yet. ${linkableExchangeNames()} can.` };
  if (EXCHANGE_VIEWS[exchange].passphrase && !credentials.passphrase)
    return { ok: false, status: 400, message: `${name} keys come with a passphrase: enter it too.` };

  const malformed = EXCHANGES[exchange].credentialProblem?.(credentials);
  if (malformed) return { ok: false, status: 400, message: malformed };

  // 1. What the key may do, and whose account it is.
  const client = clientFor(exchange, credentials);
  let uid: string;
  try {
    const check = await EXCHANGES[exchange].checkKey(client);
    if (!check.ok) return { ok: false, status: 400, message: check.message };
    uid = check.uid;
  } catch (error) {
    const read = readExchangeError(name, client, error, EXCHANGES[exchange].rateWaitSeconds);
    if (read.kind === "key") return { ok: false, status: 400, message: `${read.message} Check the key and secret.` };
    log("info", "exchange key check failed", { exchange, kind: read.kind, error: read.message });
    return { ok: false, status: 502, message: `${name} did not answer. Try again in a minute.` };
  }

  // 2. The 406 rule before storing anything (linkAccount enforces it again, atomically).
  const fingerprint = `${exchange}:${uid}`;
  const db = await getDb();
  const holder = await db
    .selectFrom("linked_accounts")
    .select(["user_id"])
    .where("fingerprint", "=", fingerprint)
    .executeTakeFirst();
  if (holder && holder.user_id !== input.userId) return { ok: false, status: 409, message: MESSAGE_406 };

  // 3. Link: the key encrypted like Plaid's access tokens; a second link of one's own account
  // replaces its key (the way back from "needs a new key").
  const label = `${name} account …${uid.slice(-4)}`;
  const linked = await linkWallet({
    userId: input.userId,
    kind: exchange,
    fingerprint,
    label,
    institutionName: name,
    accessTokenEnc: encryptSecret(JSON.stringify(credentials)),
  });
  if (!linked.ok) return "status" in linked ? linked : { ok: false, status: 409, message: MESSAGE_406 };
  return { ok: true, linkedAccountId: linked.id, created: linked.created, importId: linked.importId, label };
}

// ---------------------------------------------------------------------------------------------
// The import

/**
 * An exchange's part of an import's cursor: the history's bounds (fixed at the first step, so a
 * resumed import reads the same windows), the phase, the index of the task in it and the page of
 * it to read next, the trade streams once found, and the key of the last ledger row stored.
 */
type ExchangeCursor = {
  ex?: {
    from: number;
    now: number;
    phase: "tasks" | "streams" | "trades" | "map";
    i: number;
    page?: HistoryTask;
    trades?: HistoryTask[];
    after?: string;
  };
};

const payloadKind = (importId: number) => `exchange#${importId}`;

async function credentialsOf(linkedAccountId: number): Promise<ExchangeCredentials> {
  const db = await getDb();
  const row = await db
    .selectFrom("linked_accounts")
    .select("access_token_enc")
    .where("id", "=", linkedAccountId)
    .executeTakeFirst();
  if (!row?.access_token_enc)
    throw new StepFailure("This account has no key: link it again.", false, "relogin_required");
  return JSON.parse(decryptSecret(row.access_token_enc)) as ExchangeCredentials;
}

async function storedPages(row: StepRow, trades: boolean | null): Promise<StoredPage[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("provider_payloads")
    .select("payload")
    .where("linked_account_id", "=", row.linked_account_id)
    .where("kind", "=", payloadKind(row.id))
    .orderBy("id")
    .execute();
  return rows
    .map((r) => (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as StoredPage)
    .filter((p) => trades === null || (p.task.stream === "trades") === trades);
}

async function exchangeStep(row: StepRow<ExchangeCursor>): Promise<void> {
  const id = row.kind as LinkableExchange;
  const entry = EXCHANGES[id];
  const env = getEnv();
  const now = Date.now();
  const c = row.cursor.ex ?? { from: now - env.EXCHANGE_HISTORY_DAYS * 86_400_000, now, phase: "tasks" as const, i: 0 };

  if (c.phase === "tasks" || c.phase === "trades") {
    const list = c.phase === "tasks" ? entry.tasks(c.from, c.now) : (c.trades ?? []);
    const task = c.page ?? list[c.i];
    if (!task) {
      await commitStep(row, async () => 0, {
        state: "fetching",
        cursor: { ...row.cursor, ex: { ...c, phase: c.phase === "tasks" ? "streams" : "map", i: 0, page: undefined } },
      });
      return;
    }
    const client = clientFor(id, await credentialsOf(row.linked_account_id));
    const page = await waitingOnBans(id, client, () => entry.fetchPage(client, task));
    await commitStep(
      row,
      async (trx) => {
        if (page.rows.length)
          await trx
            .insertInto("provider_payloads")
            .values({
              linked_account_id: row.linked_account_id,
              kind: payloadKind(row.id),
              payload: JSON.stringify({ task, rows: page.rows } satisfies StoredPage),
            })
            .execute();
        return 0;
      },
      {
        state: "fetching",
        cursor: { ...row.cursor, ex: page.next ? { ...c, page: page.next } : { ...c, i: c.i + 1, page: undefined } },
        fetched: row.fetched + page.rows.length,
      },
    );
    return;
  }

  if (c.phase === "streams") {
    const client = clientFor(id, await credentialsOf(row.linked_account_id));
    const pages = await storedPages(row, false);
    const trades = await waitingOnBans(id, client, () => entry.tradeTasks(client, pages));
    await commitStep(row, async () => 0, {
      state: "fetching",
      cursor: { ...row.cursor, ex: { ...c, phase: "trades", i: 0, trades } },
      total: null,
    });
    return;
  }

  // The pages as ledger rows, stored IMPORT_CHUNK_ROWS per job (a cursor by row key: see nextBatchPart).
  const mapped = await mappedHistory(row, id);
  const { part, last } = nextBatchPart(mapped.batch, c.after ?? null, env.IMPORT_CHUNK_ROWS);
  const finished = last === null;
  await commitStep(
    row,
    async (trx) => (await saveImport(row.linked_account_id, { ...part, payloads: [] }, trx, { finished })).tradesAdded,
    {
      state: finished ? (row.regrade ? "grading" : "done") : "mapping",
      cursor: { ...row.cursor, ex: { ...c, after: last ?? c.after } },
      ...(c.after === undefined ? { skipped: { ...mapped.skipped, ...keptNotice(id, c.now) } } : {}),
    },
  );
  if (finished) forgetMapped(`exchange:${row.id}`);
}

/** What the exchange no longer serves (OKX's year, Bybit's two), said with the history's notes. */
function keptNotice(id: LinkableExchange, nowMs: number): Record<string, number> {
  const keeps = EXCHANGES[id].keeps;
  return keeps ? { [historyNotice(EXCHANGE_VIEWS[id].name, keeps, nowMs)]: 1 } : {};
}

async function mappedHistory(row: StepRow, id: LinkableExchange): Promise<MappedHistory> {
  const key = `exchange:${row.id}`;
  const kept = keptMapped(key);
  if (kept) return kept;
  await markMapping(row.id);
  const pages = await storedPages(row, null);
  const entry = EXCHANGES[id];
  // First pass: which assets' prices at which instants the mapping asks for; then the mapping
  // with those prices, from the cache or the price source.
  const needs: { instrument: Instrument; time: Date }[] = [];
  entry.map(pages, (asset, time) => {
    const instrument = coinInstrumentForSymbol(asset);
    if (instrument) needs.push({ instrument, time });
    return 1;
  });
  const lookup = await pricesAt(needs);
  const mapped = entry.map(pages, (asset, time) => {
    const instrument = coinInstrumentForSymbol(asset);
    return instrument ? lookup(instrument, time) : undefined;
  });
  keepMapped(key, mapped);
  return mapped;
}

/**
 * A call whose rate-limit answer (429, 418 ban) becomes a wait of exactly its Retry-After: the job
 * is queued again after it and nothing runs meanwhile (importStep), never a spin of retries.
 */
async function waitingOnBans<T>(id: LinkableExchange, client: Exchange, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const read = readExchangeError(EXCHANGE_VIEWS[id].name, client, error, EXCHANGES[id].rateWaitSeconds);
    if (read.kind === "rate") throw new StepFailure(read.message, true, "error", true, read.retryAfterSeconds);
    throw error;
  }
}

/** An exchange's errors as a step's: a key that stopped working needs a new one; a ban waits. */
function exchangeFailure(kind: LinkableExchange) {
  return (error: unknown): StepFailure | null => {
    if (error instanceof StepFailure) return error;
    const read = readExchangeError(EXCHANGE_VIEWS[kind].name, null, error, EXCHANGES[kind].rateWaitSeconds);
    switch (read.kind) {
      case "key":
        return new StepFailure(read.message, false, "relogin_required");
      case "rate":
        return new StepFailure(read.message, true, "error", true, read.retryAfterSeconds);
      case "unavailable":
        return new StepFailure(read.message, true, "error", true);
      default:
        return null;
    }
  };
}

export function exchangeProvider(kind: LinkableExchange): AccountProvider<ExchangeCursor> {
  return { kind, step: exchangeStep, failure: exchangeFailure(kind), simulator: kind };
}
