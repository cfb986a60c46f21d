import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { sql } from "kysely";
import { canonicalJson, canonicalLedger, dominantAssetClass, type Ledger } from "~/grading";
import { getDb } from "./db.server";
import { resolveEvents, type StoredEvent } from "./ledger-events";
import { log } from "./log.server";
import { benchmarkSeries } from "./prices.server";
import type { LinkedAccountKind } from "./db/schema";

// Times come out of the database as ISO text directly (no Date round trip for 100k rows).
const isoTime = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const LEDGER_DIGEST_VERSION = "v1";

/**
 * The user's whole ledger in the engine's terms, from every linked account (the grade is of the
 * trader, not of one account; `account` is the linked account's id), and its digest: SHA-256 over
 * every trade, cash flow and mark in a fixed order. asOf is left out of the digest, so "nothing
 * new" means no new rows.
 */
export async function buildUserLedger(
  userId: number,
  asOf: Date,
): Promise<{ ledger: Ledger; digest: string; skipped: Record<string, number> }> {
  const db = await getDb();
  const [trades, cashFlows, marks, stored] = await Promise.all([
    db
      .selectFrom("trades")
      .innerJoin("linked_accounts", "linked_accounts.id", "trades.linked_account_id")
      .select([
        "trades.external_id",
        "trades.linked_account_id",
        isoTime("trades.time").as("time"),
        "trades.symbol",
        "trades.asset_class",
        "trades.side",
        "trades.quantity",
        "trades.price",
        "trades.fee",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where("trades.time", "<=", asOf)
      .orderBy("trades.linked_account_id")
      .orderBy("trades.external_id")
      .execute(),
    db
      .selectFrom("cash_flows")
      .innerJoin("linked_accounts", "linked_accounts.id", "cash_flows.linked_account_id")
      .select([
        "cash_flows.linked_account_id",
        "cash_flows.external_id",
        isoTime("cash_flows.time").as("time"),
        "cash_flows.amount",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where("cash_flows.time", "<=", asOf)
      .orderBy("cash_flows.linked_account_id")
      .orderBy("cash_flows.external_id")
      .execute(),
    db
      .selectFrom("price_marks")
      .innerJoin("linked_accounts", "linked_accounts.id", "price_marks.linked_account_id")
      .select([
        "price_marks.linked_account_id",
        "price_marks.symbol",
        isoTime("price_marks.time").as("time"),
        "price_marks.price",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where("price_marks.time", "<=", asOf)
      .orderBy("price_marks.linked_account_id")
      .orderBy("price_marks.symbol")
      .orderBy("price_marks.time")
      .execute(),
    db
      .selectFrom("ledger_events")
      .innerJoin("linked_accounts", "linked_accounts.id", "ledger_events.linked_account_id")
      .select([
        "ledger_events.linked_account_id",
        "ledger_events.external_id",
        isoTime("ledger_events.time").as("time"),
        "ledger_events.kind",
        "ledger_events.symbol",
        "ledger_events.data",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where("ledger_events.time", "<=", asOf)
      .orderBy("ledger_events.linked_account_id")
      .orderBy("ledger_events.external_id")
      .execute(),
  ]);
  const hash = crypto.createHash("sha256").update(`${LEDGER_DIGEST_VERSION}\n`);
  const ledger: Ledger = {
    asOf: asOf.toISOString(),
    trades: trades.map((t) => {
      hash.update(
        `T|${t.linked_account_id}|${t.external_id}|${t.time}|${t.symbol}|${t.asset_class}|${t.side}|${t.quantity}|${t.price}|${t.fee}\n`,
      );
      return {
        // Unique across accounts: two providers may reuse an id.
        id: `${t.linked_account_id}:${t.external_id}`,
        account: String(t.linked_account_id),
        time: t.time,
        symbol: t.symbol,
        assetClass: t.asset_class,
        side: t.side,
        quantity: t.quantity,
        price: t.price,
        fee: t.fee,
      };
    }),
    cashFlows: cashFlows.map((c) => {
      hash.update(`C|${c.linked_account_id}|${c.external_id}|${c.time}|${c.amount}\n`);
      return { account: String(c.linked_account_id), time: c.time, amount: c.amount };
    }),
    prices: marks.map((m) => {
      hash.update(`P|${m.linked_account_id}|${m.symbol}|${m.time}|${m.price}\n`);
      return { symbol: m.symbol, time: m.time, price: m.price };
    }),
    events: [],
  };
  const storedEvents: StoredEvent[] = stored.map((e) => {
    const data = (typeof e.data === "string" ? JSON.parse(e.data) : e.data) as Record<string, unknown>;
    hash.update(
      `E|${e.linked_account_id}|${e.external_id}|${e.time}|${e.kind}|${e.symbol ?? ""}|${JSON.stringify(data)}\n`,
    );
    return {
      account: String(e.linked_account_id),
      externalId: e.external_id,
      time: e.time,
      kind: e.kind,
      symbol: e.symbol,
      data,
    };
  });
  const resolved = resolveEvents(ledger.trades, storedEvents);
  ledger.trades = resolved.trades;
  ledger.events = resolved.events;
  return { ledger, digest: hash.digest("hex"), skipped: resolved.skipped };
}

export async function linkedKinds(userId: number): Promise<Set<LinkedAccountKind>> {
  const db = await getDb();
  const rows = await db.selectFrom("linked_accounts").select("kind").distinct().where("user_id", "=", userId).execute();
  return new Set(rows.map((r) => r.kind));
}

/**
 * The ledger with the market to measure it against: the S&P 500 (SPY, total return) for a record
 * mostly in stocks, ETFs and options, bitcoin for one mostly in crypto (by average exposure), from
 * the first activity to asOf. Without prices (the source failing) the grade goes without one.
 */
export async function withBenchmark(ledger: Ledger): Promise<Ledger> {
  const kind = dominantAssetClass(ledger);
  if (kind === null || ledger.asOf === undefined) return ledger;
  let first = Infinity;
  for (const items of [ledger.trades, ledger.cashFlows, ledger.events])
    for (const x of items) first = Math.min(first, Date.parse(x.time));
  if (!Number.isFinite(first)) return ledger;
  try {
    const series = await benchmarkSeries(kind, new Date(first), new Date(ledger.asOf));
    return series.prices.length === 0 ? ledger : { ...ledger, benchmark: series };
  } catch (error) {
    log("error", "benchmark unavailable", { kind, error: String((error as Error)?.message ?? error) });
    return ledger;
  }
}

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * A graded ledger as it is kept with its evaluation: its JSON gzipped, and the engine's
 * ledgerDigest (SHA-256 of the canonical ledger; node's hash gives the engine's pure-TS result).
 */
export async function storedLedger(ledger: Ledger): Promise<{ gzip: Buffer; digest: string }> {
  const digest = crypto
    .createHash("sha256")
    .update(canonicalJson(canonicalLedger(ledger)))
    .digest("hex");
  return { gzip: await gzip(JSON.stringify(ledger)), digest };
}

/**
 * The ledger an evaluation of this user graded: the current one, or `evaluationId` (null when
 * it is not theirs, or was graded before ledgers were kept).
 */
export async function evaluationLedger(
  userId: number,
  evaluationId?: number,
): Promise<{ evaluationId: number; ledgerDigest: string; engineVersion: string; ledger: Ledger } | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("evaluations")
    .innerJoin("evaluation_ledgers", "evaluation_ledgers.evaluation_id", "evaluations.id")
    .innerJoin("users", "users.id", "evaluations.user_id")
    .select(["evaluations.id", "evaluations.ledger_digest", "evaluations.engine_version", "evaluation_ledgers.ledger"])
    .where("evaluations.user_id", "=", userId)
    .$if(evaluationId === undefined, (q) => q.whereRef("evaluations.id", "=", "users.current_evaluation_id"))
    .$if(evaluationId !== undefined, (q) => q.where("evaluations.id", "=", evaluationId!))
    .executeTakeFirst();
  if (!row) return null;
  const ledger = JSON.parse((await gunzip(row.ledger)).toString("utf8")) as Ledger;
  return { evaluationId: row.id, ledgerDigest: row.ledger_digest, engineVersion: row.engine_version, ledger };
}
