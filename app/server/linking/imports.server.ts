import { sql } from "kysely";
import { copyInto, dbKind, getDb, type DB } from "../platform/db.server";
import type { LinkedAccountKind } from "../platform/db/schema";

export type { ImportBatch, ImportedCashFlow, ImportedEvent, ImportedMark, ImportedTrade } from "~/sources/imported";
import type { ImportBatch, ImportedTrade } from "~/sources/imported";

export type ImportResult = { tradesAdded: number; cashFlowsAdded: number };

const CHUNK = 2000;
const TRADE_CHUNK = 20_000;

/**
 * Stores a batch for one linked account in one transaction: nothing half-written on failure,
 * and re-importing the same history adds nothing (unique external ids, ON CONFLICT DO NOTHING).
 */
export async function saveImport(
  linkedAccountId: number,
  batch: ImportBatch,
  trxOrDb?: DB,
  opts: { finished?: boolean } = {},
): Promise<ImportResult> {
  const run = async (trx: DB): Promise<ImportResult> => {
    let tradesAdded = 0;
    let cashFlowsAdded = 0;
    if (batch.trades.length > 0)
      tradesAdded =
        (await dbKind()) === "postgres"
          ? await copyTrades(trx, linkedAccountId, batch.trades)
          : await insertTrades(trx, linkedAccountId, batch.trades);
    for (let i = 0; i < batch.cashFlows.length; i += CHUNK) {
      const rows = batch.cashFlows.slice(i, i + CHUNK).map((c) => ({
        linked_account_id: linkedAccountId,
        external_id: c.externalId,
        time: c.time,
        amount: c.amount,
        currency: c.currency ?? "USD",
      }));
      const res = await trx
        .insertInto("cash_flows")
        .values(rows)
        .onConflict((oc) => oc.columns(["linked_account_id", "external_id"]).doNothing())
        .executeTakeFirst();
      cashFlowsAdded += Number(res.numInsertedOrUpdatedRows ?? 0);
    }
    for (let i = 0; i < batch.marks.length; i += CHUNK) {
      const rows = batch.marks.slice(i, i + CHUNK).map((m) => ({
        linked_account_id: linkedAccountId,
        symbol: m.symbol,
        time: m.time,
        price: m.price,
        currency: m.currency ?? "USD",
      }));
      await trx
        .insertInto("price_marks")
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(["linked_account_id", "symbol", "time"])
            .doUpdateSet({ price: sql`excluded.price`, currency: sql`excluded.currency` }),
        )
        .execute();
    }
    for (let i = 0; i < (batch.events?.length ?? 0); i += CHUNK) {
      const rows = batch.events!.slice(i, i + CHUNK).map(({ externalId, time, kind, currency, ...rest }) => ({
        linked_account_id: linkedAccountId,
        external_id: externalId,
        time,
        kind,
        symbol: "symbol" in rest ? (rest.symbol ?? null) : null,
        data: JSON.stringify(rest),
        currency: currency ?? "USD",
      }));
      await trx
        .insertInto("ledger_events")
        .values(rows)
        .onConflict((oc) => oc.columns(["linked_account_id", "external_id"]).doNothing())
        .execute();
    }
    for (const p of batch.payloads) {
      await trx
        .insertInto("provider_payloads")
        .values({ linked_account_id: linkedAccountId, kind: p.kind, payload: JSON.stringify(p.payload) })
        .execute();
    }
    // A page of a running import (finished: false) leaves the account "importing".
    if (opts.finished !== false)
      await trx
        .updateTable("linked_accounts")
        .set({ last_imported_at: sql`now()`, last_error: null, status: "active" })
        .where("id", "=", linkedAccountId)
        .execute();
    return { tradesAdded, cashFlowsAdded };
  };
  if (trxOrDb) return run(trxOrDb);
  return (await getDb()).transaction().execute(run);
}

/**
 * PostgreSQL: when nothing in the batch can be skipped (a first import, a page of new trades), COPY
 * straight into trades; else the trades COPY'd into a temporary table, then one INSERT … SELECT with
 * the unique external ids' ON CONFLICT, all in the caller's transaction (a killed process leaves neither the
 * table nor a row). COPY's text is cheaper to write and to read than nine arrays of parameters
 * (docs/PERFORMANCE.md). The table is dropped at once, so a transaction may store several parts.
 */
async function copyTrades(trx: DB, linkedAccountId: number, trades: ImportedTrade[]): Promise<number> {
  if (await nothingToSkip(trx, linkedAccountId, trades)) {
    // Nothing in the batch is stored yet, and no id comes twice: straight into trades, as
    // PostgreSQL's own COPY (a concurrent writer of the same ids fails this transaction on the
    // unique index, and its job's retry takes the path below).
    await copyInto(
      trx,
      "copy trades (linked_account_id, external_id, time, symbol, asset_class, side, quantity, price, fee, currency, multiplier, expiry, confidence) from stdin",
      copyText(trades, `${linkedAccountId}\t`),
    );
    return trades.length;
  }
  await sql`create temp table import_trades (
    external_id text, time timestamptz, symbol text, asset_class text, side text,
    quantity float8, price float8, fee float8, currency text, multiplier numeric, expiry date, confidence float8)`.execute(
    trx,
  );
  await copyInto(trx, "copy import_trades from stdin", copyText(trades));
  // Rows go in in the batch's order (a fresh heap is read in the order it was written), as before.
  const res = await sql`
    insert into trades (linked_account_id, external_id, time, symbol, asset_class, side, quantity, price, fee, currency, multiplier, expiry, confidence)
    select ${linkedAccountId}, * from import_trades
    on conflict (linked_account_id, external_id) do nothing`.execute(trx);
  await sql`drop table import_trades`.execute(trx);
  return Number(res.numAffectedRows ?? 0);
}

// Probing each id costs an index descent: worth it for a job's part (IMPORT_CHUNK_ROWS ≤ 10,000),
// not for a whole history into an account that already has trades.
const PROBE_MAX = 10_000;

/** Whether no trade of the batch can be skipped: none stored yet for the account, none twice in it. */
async function nothingToSkip(trx: DB, linkedAccountId: number, trades: ImportedTrade[]): Promise<boolean> {
  const ids = trades.map((t) => t.externalId);
  if (new Set(ids).size !== ids.length) return false;
  const any = await sql`select 1 from trades where linked_account_id = ${linkedAccountId} limit 1`.execute(trx);
  if (any.rows.length === 0) return true;
  if (ids.length > PROBE_MAX) return false;
  const known = await sql`
    select 1 from trades where linked_account_id = ${linkedAccountId} and external_id = any(${ids}::text[]) limit 1`.execute(
    trx,
  );
  return known.rows.length === 0;
}

const COPY_SPECIAL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
const copyField = (s: string) => s.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]!);

/**
 * The trades in COPY's text format, 64 kB at a time, each line after `prefix` (the account's
 * column for a COPY straight into trades); numbers as JavaScript writes them, as pg sends a parameter.
 */
function* copyText(trades: ImportedTrade[], prefix = ""): Generator<string> {
  let out = "";
  for (const t of trades) {
    out += `${prefix}${copyField(t.externalId)}\t${t.time.toISOString()}\t${copyField(t.symbol)}\t${t.assetClass}\t${t.side}\t${t.quantity}\t${t.price}\t${t.fee}\t${copyField(t.currency ?? "USD")}\t${t.multiplier ?? 1}\t${t.expiry ?? "\\N"}\t${t.confidence ?? "\\N"}\n`;
    if (out.length > 65_536) {
      yield out;
      out = "";
    }
  }
  if (out) yield out;
}

/**
 * PGlite (no COPY through its pg adapter): the trades as thirteen arrays through unnest(), one small
 * statement per chunk instead of tens of thousands of bound parameters.
 */
async function insertTrades(trx: DB, linkedAccountId: number, trades: ImportedTrade[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < trades.length; i += TRADE_CHUNK) {
    const chunk = trades.slice(i, i + TRADE_CHUNK);
    const res = await sql`
      insert into trades (linked_account_id, external_id, time, symbol, asset_class, side, quantity, price, fee, currency, multiplier, expiry, confidence)
      select ${linkedAccountId}, * from unnest(
        ${chunk.map((t) => t.externalId)}::text[],
        ${chunk.map((t) => t.time.toISOString())}::timestamptz[],
        ${chunk.map((t) => t.symbol)}::text[],
        ${chunk.map((t) => t.assetClass)}::text[],
        ${chunk.map((t) => t.side)}::text[],
        ${chunk.map((t) => t.quantity)}::float8[],
        ${chunk.map((t) => t.price)}::float8[],
        ${chunk.map((t) => t.fee)}::float8[],
        ${chunk.map((t) => t.currency ?? "USD")}::text[],
        ${chunk.map((t) => t.multiplier ?? 1)}::numeric[],
        ${chunk.map((t) => t.expiry ?? null)}::date[],
        ${chunk.map((t) => t.confidence ?? null)}::float8[]
      )
      on conflict (linked_account_id, external_id) do nothing`.execute(trx);
    added += Number(res.numAffectedRows ?? 0);
  }
  return added;
}

/** Records a failed import without touching what was imported before. */
export async function markImportFailed(
  linkedAccountId: number,
  message: string,
  status: "error" | "relogin_required" = "error",
  trx?: DB,
) {
  const db = trx ?? (await getDb());
  await db
    .updateTable("linked_accounts")
    .set({ last_error: message.slice(0, 500), status })
    .where("id", "=", linkedAccountId)
    .execute();
}

export type LinkResult = { ok: true; id: number; created: boolean } | { ok: false; code: 406 };

/**
 * Links an account to a user. The fingerprint is unique across users (a database constraint):
 * one another user holds answers 406 and links nothing; the same user linking it again is fine.
 */
export async function linkAccount(
  input: {
    userId: number;
    kind: LinkedAccountKind;
    fingerprint: string;
    label: string;
    institutionName?: string | null;
    accessTokenEnc?: string | null;
    itemId?: string | null;
  },
  trx?: DB,
): Promise<LinkResult> {
  const db = trx ?? (await getDb());
  const inserted = await db
    .insertInto("linked_accounts")
    .values({
      user_id: input.userId,
      kind: input.kind,
      fingerprint: input.fingerprint,
      label: input.label,
      institution_name: input.institutionName ?? null,
      access_token_enc: input.accessTokenEnc ?? null,
      item_id: input.itemId ?? null,
      status: "importing",
    })
    .onConflict((oc) => oc.column("fingerprint").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { ok: true, id: inserted.id, created: true };
  const existing = await db
    .selectFrom("linked_accounts")
    .select(["id", "user_id"])
    .where("fingerprint", "=", input.fingerprint)
    .executeTakeFirst();
  if (!existing || existing.user_id !== input.userId) return { ok: false, code: 406 };
  // Re-linking one's own account refreshes its credentials (e.g. after Plaid update mode).
  if (input.accessTokenEnc) {
    await db
      .updateTable("linked_accounts")
      .set({ access_token_enc: input.accessTokenEnc, item_id: input.itemId ?? null, status: "active" })
      .where("id", "=", existing.id)
      .execute();
  }
  return { ok: true, id: existing.id, created: false };
}

export async function listLinkedAccounts(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("linked_accounts")
    .select(["id", "kind", "label", "institution_name", "status", "last_imported_at", "last_error", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** Linked accounts with their ledger sizes (one aggregate query; no token columns). */
export async function listLinkedAccountsWithCounts(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("linked_accounts as la")
    .select((eb) => [
      "la.id",
      "la.kind",
      "la.label",
      "la.institution_name",
      "la.status",
      "la.last_imported_at",
      "la.last_error",
      "la.created_at",
      eb
        .selectFrom("trades")
        .select((e) => e.fn.countAll<string>().as("n"))
        .whereRef("trades.linked_account_id", "=", "la.id")
        .as("trades"),
      eb
        .selectFrom("cash_flows")
        .select((e) => e.fn.countAll<string>().as("n"))
        .whereRef("cash_flows.linked_account_id", "=", "la.id")
        .as("cash_flows"),
      eb
        .selectFrom("cash_flows")
        .select((e) => e.fn.countAll<string>().as("n"))
        .whereRef("cash_flows.linked_account_id", "=", "la.id")
        .where("cash_flows.amount", "<", 0)
        .as("withdrawals"),
    ])
    .where("la.user_id", "=", userId)
    .orderBy("la.id")
    .execute()
    .then((rows) =>
      rows.map((r) => ({
        ...r,
        trades: Number(r.trades ?? 0),
        cash_flows: Number(r.cash_flows ?? 0),
        withdrawals: Number(r.withdrawals ?? 0),
      })),
    );
}

/** Unlinks one of the user's own accounts (its token and imported history go with it). */
export async function unlinkAccount(userId: number, linkedAccountId: number): Promise<boolean> {
  const db = await getDb();
  const res = await db
    .deleteFrom("linked_accounts")
    .where("id", "=", linkedAccountId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export const MESSAGE_406 =
  "This investment account has been associated with a Grader account. Please use a new investment account or switch to the associated Grader account.";
