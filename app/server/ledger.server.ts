import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { sql } from "kysely";
import { canonicalJson, canonicalLedger, dominantAssetClass, type Ledger } from "~/grading";
import { getDb, type DB } from "./db.server";
import { resolveEvents, type StoredEvent } from "./ledger-events";
import { log } from "./log.server";
import { benchmarkSeries } from "./prices.server";
import { type DataQuality, readDataQuality } from "~/lib/data-quality";

// Times come out of the database as ISO text directly (no Date round trip for 100k rows).
const isoTime = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type AssetClass = Ledger["trades"][number]["assetClass"];

/**
 * A float8 as JavaScript writes it, from PostgreSQL's text of it. Both write the shortest digits
 * that read back as the same double, so a plain positive number is already JavaScript's text
 * (ledger.server.test.ts); exponents and signs are written differently ("1e-07", "-0"), so those
 * go through the number. Formatting 300,000 numbers again cost 60–90 ms of a re-evaluation.
 */
export function asJs(text: string): string {
  return text.indexOf("e") === -1 && text.charCodeAt(0) !== 45 ? text : `${parseFloat(text)}`;
}

/**
 * A user's trades as columns, one row per linked account (by id; within it by external id, the
 * digest's order): external ids and symbols as JSON arrays (any text survives), the other columns
 * joined by commas (ISO times, enums and numbers hold none). Decoding 100,000 rows of nine fields was
 * most of a re-evaluation (docs/PERFORMANCE.md); nine strings per account split in a few ms. The
 * ordered subquery feeds every aggregate in its order, which one `order by` per aggregate would
 * sort nine times.
 */
async function tradeColumns(db: DB, userId: number, asOf: Date) {
  const { rows } = await sql<{
    id: number;
    n: number;
    ids: string[];
    symbols: string[];
    times: string;
    classes: string;
    sides: string;
    quantities: string;
    prices: string;
    fees: string;
  }>`
    select a.id, t.*
    from linked_accounts a cross join lateral (
      select count(*)::int as n, json_agg(external_id) as ids, json_agg(symbol) as symbols,
        string_agg(time, ',') as times, string_agg(asset_class, ',') as classes, string_agg(side, ',') as sides,
        string_agg(quantity::text, ',') as quantities, string_agg(price::text, ',') as prices,
        string_agg(fee::text, ',') as fees
      from (
        select external_id, symbol, ${isoTime("time")} as time, asset_class, side, quantity, price, fee
        from trades where linked_account_id = a.id and time <= ${asOf}
        order by external_id
      ) trade
    ) t
    where a.user_id = ${userId}
    order by a.id`.execute(db);
  return rows;
}

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
  const [accounts, cashFlows, marks, stored] = await Promise.all([
    tradeColumns(db, userId, asOf),
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
  const trades: Ledger["trades"] = [];
  // The digest lines go to the hash a few hundred at a time: one update per trade cost more than the lines.
  let lines = "";
  for (const a of accounts) {
    if (a.n === 0) continue;
    const account = String(a.id);
    const times = a.times.split(",");
    const classes = a.classes.split(",");
    const sides = a.sides.split(",");
    const quantities = a.quantities.split(",");
    const prices = a.prices.split(",");
    const fees = a.fees.split(",");
    for (let i = 0; i < a.n; i++) {
      const externalId = a.ids[i]!;
      // parseFloat, as pg itself parses a float8 column: the same numbers, so the same digest.
      const t = {
        // Unique across accounts: two providers may reuse an id.
        id: `${account}:${externalId}`,
        account,
        time: times[i]!,
        symbol: a.symbols[i]!,
        assetClass: classes[i] as AssetClass,
        side: sides[i] as "buy" | "sell",
        quantity: parseFloat(quantities[i]!),
        price: parseFloat(prices[i]!),
        fee: parseFloat(fees[i]!),
      };
      lines += `T|${account}|${externalId}|${t.time}|${t.symbol}|${t.assetClass}|${t.side}|${asJs(quantities[i]!)}|${asJs(prices[i]!)}|${asJs(fees[i]!)}\n`;
      if (lines.length > 65_536) {
        hash.update(lines);
        lines = "";
      }
      trades.push(t);
    }
  }
  hash.update(lines);
  const ledger: Ledger = {
    asOf: asOf.toISOString(),
    trades,
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
  // Compressed on libuv's thread pool while the digest is computed here (both ~0.2 s at 100,000
  // trades). Large chunks: with zlib's 16 KB default every chunk waits for this busy thread, and
  // the compression ran after the digest instead of beside it (424 → 318 ms measured).
  const zipped = gzip(JSON.stringify(ledger), { chunkSize: 4 << 20 });
  const digest = crypto
    .createHash("sha256")
    .update(canonicalJson(canonicalLedger(ledger)))
    .digest("hex");
  return { gzip: await zipped, digest };
}

/**
 * The ledger an evaluation of this user graded: the current one, or `evaluationId` (null when
 * it is not theirs, or was graded before ledgers were kept).
 */
export async function evaluationLedger(
  userId: number,
  evaluationId?: number,
): Promise<{
  evaluationId: number;
  ledgerDigest: string;
  engineVersion: string;
  dataQuality: DataQuality | null;
  ledger: Ledger;
} | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("evaluations")
    .innerJoin("evaluation_ledgers", "evaluation_ledgers.evaluation_id", "evaluations.id")
    .innerJoin("users", "users.id", "evaluations.user_id")
    .select([
      "evaluations.id",
      "evaluations.ledger_digest",
      "evaluations.engine_version",
      "evaluations.data_quality",
      "evaluation_ledgers.ledger",
    ])
    .where("evaluations.user_id", "=", userId)
    .$if(evaluationId === undefined, (q) => q.whereRef("evaluations.id", "=", "users.current_evaluation_id"))
    .$if(evaluationId !== undefined, (q) => q.where("evaluations.id", "=", evaluationId!))
    .executeTakeFirst();
  if (!row) return null;
  const ledger = JSON.parse((await gunzip(row.ledger)).toString("utf8")) as Ledger;
  return {
    evaluationId: row.id,
    ledgerDigest: row.ledger_digest,
    engineVersion: row.engine_version,
    dataQuality: readDataQuality(row.data_quality),
    ledger,
  };
}
