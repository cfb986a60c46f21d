import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { sql } from "kysely";
import {
  canonicalLedgerBytes,
  canonicalLedgerParts,
  cryptoShare,
  ENGINE_VERSION,
  isTimeZone,
  prepareLedger,
  TRUSTED_CONFIDENCE,
  withBenchmarkColumns,
  withRiskFreeColumns,
  type Ledger,
  type PreparedLedger,
  type Trade,
} from "~/grading";
import { DEFAULT_BASE_CURRENCY, isBaseCurrency } from "~/lib/currencies";
import { ACCOUNT_KIND_VIEWS, SELF_REPORTED_KINDS } from "~/lib/account-kinds";
import type { LinkedAccountKind } from "~/lib/vocabulary";
import { fxRatesFor } from "./fx-rates.server";
import { getDb, type DB } from "../platform/db.server";
import { resolveEvents, type StoredEvent } from "./ledger-events";
import { chainId, pairTransfers, moveFactsOf } from "./transfers";
import { log } from "../platform/log.server";
import { BLEND_MIN_SHARE, benchmarkSeries, blendedBenchmark, marketCloses, riskFreeSeries } from "./prices.server";
import { symbolsToMark, withMarketCloses } from "./market-marks";
import { type DataQuality, readDataQuality } from "~/lib/data-quality";

// Times come out of the database as ISO text directly (no Date round trip for 100k rows).
const isoTime = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type AssetClass = Ledger["trades"][number]["assetClass"];

/**
 * Trades read from `trades` as columns: external ids and symbols as arrays (any text survives),
 * the other columns joined by commas (ISO times, enums and numbers hold none), in (time, id)
 * order. Decoding 100,000 rows of nine fields was most of a re-evaluation (docs/PERFORMANCE.md);
 * nine strings split in a few ms.
 */
type RowColumns = {
  n: number;
  ids: string[] | null;
  symbols: string[] | null;
  times: string | null;
  classes: string | null;
  sides: string | null;
  quantities: string | null;
  prices: string | null;
  fees: string | null;
};

/**
 * An account's trades decoded: asset class and side one character each (CLASS_CODES, "b"/"s"),
 * numbers as doubles. The form a trade snapshot keeps (snapshotBody).
 */
type Trades = {
  n: number;
  /** As the ledger names a trade: `account:external id` (unique across accounts: two providers may reuse an id). */
  ids: string[];
  symbols: string[];
  times: string[];
  classes: string;
  sides: string;
  quantities: Float64Array;
  prices: Float64Array;
  fees: Float64Array;
};

const CLASS_CODES: Record<AssetClass, string> = {
  stock: "s",
  etf: "e",
  crypto: "c",
  option: "o",
  future: "f",
  forex: "x",
  cfd: "d",
};
const CLASS_OF: Record<string, AssetClass> = Object.fromEntries(
  Object.entries(CLASS_CODES).map(([k, v]) => [v, k as AssetClass]),
);
const SIDE_OF: Record<string, "buy" | "sell"> = { b: "buy", s: "sell" };
// A snapshot's numbers are this machine's doubles as bytes; every platform Node runs on here is little-endian.
if (new Uint8Array(new Float64Array([1]).buffer)[7] !== 0x3f)
  throw new Error("trade snapshots need a little-endian machine");

function fromRows(c: RowColumns, account: string): Trades {
  if (c.n === 0) return emptyTrades();
  const numbers = (text: string) => Float64Array.from(text.split(","), parseFloat);
  return {
    n: c.n,
    ids: c.ids!.map((id) => `${account}:${id}`),
    symbols: c.symbols!,
    times: c.times!.split(","),
    classes: c
      .classes!.split(",")
      .map((x) => CLASS_CODES[x as AssetClass])
      .join(""),
    sides: c
      .sides!.split(",")
      .map((x) => x[0])
      .join(""),
    // parseFloat, as pg itself parses a float8: the same doubles.
    quantities: numbers(c.quantities!),
    prices: numbers(c.prices!),
    fees: numbers(c.fees!),
  };
}

function emptyTrades(): Trades {
  const none = new Float64Array(0);
  return { n: 0, ids: [], symbols: [], times: [], classes: "", sides: "", quantities: none, prices: none, fees: none };
}

function joinTrades(a: Trades, b: Trades): Trades {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const numbers = (x: Float64Array, y: Float64Array) => {
    const out = new Float64Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return {
    n: a.n + b.n,
    ids: a.ids.concat(b.ids),
    symbols: a.symbols.concat(b.symbols),
    times: a.times.concat(b.times),
    classes: a.classes + b.classes,
    sides: a.sides + b.sides,
    quantities: numbers(a.quantities, b.quantities),
    prices: numbers(a.prices, b.prices),
    fees: numbers(a.fees, b.fees),
  };
}

type SnapshotRow = { through_id: string; n: number; lanes: string; body: Buffer };

/**
 * A snapshot's trades as one run of bytes (migration 0028): the byte lengths of the three text
 * parts (u32 LE each), the trades' ids (`account:external id`) and the symbols each joined by NUL
 * (which PostgreSQL text cannot hold), the ISO times joined by commas, a character per trade for class and for side,
 * then, at a multiple of 8, the quantities, prices and fees as n little-endian doubles each.
 * Read in a few ms: split strings and the doubles' own bytes, where JSON arrays took 13 ms to
 * parse and number text as long again, with 300,000 short strings for the collector.
 */
function snapshotBody(t: Trades): Buffer {
  const ids = Buffer.from(t.ids.join("\0"));
  const symbols = Buffer.from(t.symbols.join("\0"));
  const times = Buffer.from(t.times.join(","), "latin1");
  const head = Buffer.alloc(12);
  head.writeUInt32LE(ids.length, 0);
  head.writeUInt32LE(symbols.length, 4);
  head.writeUInt32LE(times.length, 8);
  const codes = Buffer.from(t.classes + t.sides, "latin1");
  const textEnd = 12 + ids.length + symbols.length + times.length + codes.length;
  const pad = Buffer.alloc((8 - (textEnd % 8)) % 8);
  const numbers = Buffer.alloc(24 * t.n);
  const doubles = new Float64Array(numbers.buffer, numbers.byteOffset, 3 * t.n);
  doubles.set(t.quantities);
  doubles.set(t.prices, t.n);
  doubles.set(t.fees, 2 * t.n);
  return Buffer.concat([head, ids, symbols, times, codes, pad, numbers]);
}

function fromSnapshot(s: SnapshotRow): Trades {
  const n = s.n;
  if (n === 0) return emptyTrades();
  const b = s.body;
  const idsEnd = 12 + b.readUInt32LE(0);
  const symbolsEnd = idsEnd + b.readUInt32LE(4);
  const timesEnd = symbolsEnd + b.readUInt32LE(8);
  const numbersAt = timesEnd + 2 * n + ((8 - ((timesEnd + 2 * n) % 8)) % 8);
  // Read in place when aligned (snapshotBodies' buffers are), else copied out.
  const at = b.byteOffset + numbersAt;
  const doubles =
    at % 8 === 0 ? new Float64Array(b.buffer, at, 3 * n) : new Float64Array(b.buffer.slice(at, at + 24 * n));
  return {
    n,
    ids: b.toString("utf8", 12, idsEnd).split("\0"),
    symbols: b.toString("utf8", idsEnd, symbolsEnd).split("\0"),
    times: b.toString("latin1", symbolsEnd, timesEnd).split(","),
    classes: b.toString("latin1", timesEnd, timesEnd + n),
    sides: b.toString("latin1", timesEnd + n, timesEnd + 2 * n),
    quantities: doubles.subarray(0, n),
    prices: doubles.subarray(n, 2 * n),
    fees: doubles.subarray(2 * n, 3 * n),
  };
}

/** A snapshot takes in the trades read after it once they are this many (until then they are read each time). */
export const SNAPSHOT_REWRITE_ROWS = 1_000;

/**
 * A snapshot's body is read in runs of this many bytes, a row each: pg holds one large row in a
 * buffer it grows by doubling (~40 MB of allocations for a 100,000-trade body, and the collections
 * they bring), and PostgreSQL encodes the runs faster than one value.
 */
const BODY_PART = 1 << 20;

type SnapshotBody = { throughId: string; n: number; lanes: string; body: Buffer };

/** The bodies of the user's trade snapshots by account, each with what names its snapshot. */
async function snapshotBodies(db: DB, userId: number, scope: Provenance): Promise<Map<number, SnapshotBody>> {
  const { rows } = await sql<{
    id: number;
    through_id: string;
    n: number;
    lanes: string;
    size: number;
    k: number;
    part: string;
  }>`
    select s.linked_account_id as id, s.through_id::text as through_id, s.n, s.lanes, length(s.body) as size, k,
      encode(substring(s.body from k * ${BODY_PART} + 1 for ${BODY_PART}), 'base64') as part
    from trade_snapshots s
    join linked_accounts a on a.id = s.linked_account_id
    cross join generate_series(0, (length(s.body) - 1) / ${BODY_PART}) k
    where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)}
    order by s.linked_account_id, k`.execute(db);
  const bodies = new Map<number, SnapshotBody>();
  for (const r of rows) {
    let b = bodies.get(r.id);
    // Its own memory, at offset 0: the doubles in it are aligned and read in place (fromSnapshot).
    if (!b)
      bodies.set(r.id, (b = { throughId: r.through_id, n: r.n, lanes: r.lanes, body: Buffer.allocUnsafeSlow(r.size) }));
    b.body.write(r.part, r.k * BODY_PART, "base64");
  }
  return bodies;
}

/**
 * Each linked account of the user, oldest first: its trade snapshot (when `useSnapshots`), the
 * trades after it, and (with a snapshot) its count of trades now, which the snapshot and those
 * trades must make up. One statement, so the three agree; the snapshots' bodies are read beside it
 * (snapshotBodies) and must name the same snapshot (through id, count and digest lanes), or the
 * account is read anew like a snapshot that does not add up. The ordered subquery feeds every
 * aggregate in its order, which one `order by` per aggregate would sort nine times.
 */
async function readAccounts(db: DB, userId: number, useSnapshots: boolean, scope: Provenance) {
  const [{ rows }, bodies] = await Promise.all([
    sql<
      RowColumns & {
        id: number;
        max_id: string | null;
        total: number | null;
        s_through_id: string | null;
        s_n: number | null;
        s_lanes: string | null;
      }
    >`
    select a.id,
      case when s.linked_account_id is null then null
        else (select count(*)::int from trades c where c.linked_account_id = a.id and c.currency = 'USD') end as total,
      s.through_id::text as s_through_id, s.n as s_n, s.lanes as s_lanes, d.*
    from linked_accounts a
    left join trade_snapshots s on s.linked_account_id = a.id and ${useSnapshots}
    cross join lateral (
      select count(*)::int as n, max(id)::text as max_id, json_agg(external_id) as ids, json_agg(symbol) as symbols,
        string_agg(time, ',') as times, string_agg(asset_class, ',') as classes, string_agg(side, ',') as sides,
        string_agg(quantity::text, ',') as quantities, string_agg(price::text, ',') as prices,
        string_agg(fee::text, ',') as fees
      from (
        select id, external_id, symbol, ${isoTime("time")} as time, asset_class, side, quantity, price, fee
        from trades where linked_account_id = a.id and id > coalesce(s.through_id, 0) and currency = 'USD'
        order by trades.time, external_id collate "C"
      ) trade
    ) d
    where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)}
    order by a.id`.execute(db),
    useSnapshots ? snapshotBodies(db, userId, scope) : new Map<number, SnapshotBody>(),
  ]);
  return rows.map((r) => {
    const body = bodies.get(r.id);
    const same = body?.throughId === r.s_through_id && body.n === r.s_n && body.lanes === r.s_lanes;
    const snapshot: SnapshotRow | null =
      r.s_through_id === null || !same
        ? null
        : { through_id: r.s_through_id, n: r.s_n!, lanes: r.s_lanes!, body: body.body };
    const after = fromRows(r, String(r.id));
    const valid = r.s_through_id === null || (snapshot !== null && snapshot.n + after.n === r.total);
    return { id: r.id, snapshot, after, maxId: r.max_id, valid };
  });
}

/**
 * An order-free digest of a set of lines: four 32-bit sums of their SHA-256. Lines join and leave
 * it one at a time, so a snapshot keeps its lines' sum and a read adds only the trades after it.
 */
class LineSum {
  readonly lanes: Uint32Array;
  constructor(hex?: string) {
    this.lanes = new Uint32Array(4);
    if (hex) for (let i = 0; i < 4; i++) this.lanes[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16);
  }
  private apply(line: string, sign: 1 | -1): void {
    const h = crypto.hash("sha256", line, "buffer");
    for (let i = 0; i < 4; i++) this.lanes[i] = this.lanes[i]! + sign * h.readUInt32LE(i * 4);
  }
  add(line: string): void {
    this.apply(line, 1);
  }
  remove(line: string): void {
    this.apply(line, -1);
  }
  hex(): string {
    let out = "";
    for (const x of this.lanes) out += x.toString(16).padStart(8, "0");
    return out;
  }
}

/**
 * The trades by time, then id: the order the engine and the canonical writer sort into, so that
 * theirs finds them sorted and is one pass (the read gives them so, and the trades after a
 * snapshot are mostly later than it; a backfill is sorted in here, before it is kept).
 */
function inLedgerOrder(t: Trades): Trades {
  const before = (i: number, j: number) =>
    t.times[i]! < t.times[j]! || (t.times[i] === t.times[j] && t.ids[i]! < t.ids[j]!);
  let sorted = true;
  for (let i = 1; i < t.n && sorted; i++) if (before(i, i - 1)) sorted = false;
  if (sorted) return t;
  const order = Array.from({ length: t.n }, (_, i) => i).sort((i, j) => (before(i, j) ? -1 : before(j, i) ? 1 : 0));
  const pick = <T>(xs: ArrayLike<T>) => order.map((i) => xs[i]!);
  const chars = (s: string) => pick(s.split("")).join("");
  return {
    n: t.n,
    ids: pick(t.ids),
    symbols: pick(t.symbols),
    times: pick(t.times),
    classes: chars(t.classes),
    sides: chars(t.sides),
    quantities: Float64Array.from(pick(t.quantities)),
    prices: Float64Array.from(pick(t.prices)),
    fees: Float64Array.from(pick(t.fees)),
  };
}

async function writeSnapshot(db: DB, accountId: number, throughId: string, lanes: string, t: Trades): Promise<void> {
  // Its ledger text is of the trades it held: written again by the next grade.
  const values = {
    through_id: throughId,
    n: t.n,
    lanes,
    body: snapshotBody(t),
    ledger_text_id: null,
  };
  await db
    .insertInto("trade_snapshots")
    .values({ linked_account_id: accountId, ...values })
    .onConflict((oc) => oc.column("linked_account_id").doUpdateSet(values))
    .execute();
}

/**
 * A trade snapshot as the ledger holds its trades (the very objects, in the snapshot's order): the
 * trades whose canonical text it keeps once a grade has written it (storedLedger).
 */
export type SnapshotTrades = { accountId: number; throughId: string; n: number; trades: readonly Trade[] };

/**
 * Every trade of the user's accounts at or before asOf, and for each account its digest part:
 * `A|account|count|sum of its trades' lines`. The trades come from the account's snapshot and
 * the trades after it; the snapshot takes those in once they are SNAPSHOT_REWRITE_ROWS, and is
 * made anew when it no longer adds up (trades it cannot see: a transaction that committed after
 * it with lower ids). And the largest snapshot whose trades are all in the ledger.
 */
async function userTrades(
  db: DB,
  userId: number,
  asOf: Date,
  scope: Provenance,
): Promise<{ trades: Trade[]; digest: string; snapshot: SnapshotTrades | null }> {
  let accounts = await readAccounts(db, userId, true, scope);
  if (accounts.some((a) => !a.valid)) accounts = await readAccounts(db, userId, false, scope);
  const asOfIso = asOf.toISOString();
  const asOfMs = asOf.getTime();
  const trades: Trade[] = [];
  let digest = "";
  let snapshot: SnapshotTrades | null = null;
  for (const a of accounts) {
    const account = String(a.id);
    let t = a.snapshot ? joinTrades(fromSnapshot(a.snapshot), a.after) : a.after;
    if (t.n === 0) continue;
    // Numbers as JavaScript writes the doubles, whether they came from a snapshot or from text.
    const line = (i: number) =>
      `T|${account}|${t.ids[i]!.slice(account.length + 1)}|${t.times[i]}|${t.symbols[i]}|${CLASS_OF[t.classes[i]!]}|${SIDE_OF[t.sides[i]!]}|${t.quantities[i]}|${t.prices[i]}|${t.fees[i]}\n`;
    const sum = new LineSum(a.snapshot?.lanes);
    for (let i = a.snapshot?.n ?? 0; i < t.n; i++) sum.add(line(i));
    let kept = { throughId: a.snapshot?.through_id ?? "", n: a.snapshot?.n ?? 0 };
    if (a.snapshot === null || a.after.n >= SNAPSHOT_REWRITE_ROWS) {
      t = inLedgerOrder(t);
      kept = { throughId: a.maxId ?? a.snapshot!.through_id, n: t.n };
      await writeSnapshot(db, a.id, kept.throughId, sum.hex(), t);
    }
    const start = trades.length;
    let included = 0;
    let firstLeftOut = -1;
    for (let i = 0; i < t.n; i++) {
      const time = t.times[i]!;
      // Canonical ISO text sorts as time does; another length (a year beyond 9999) is parsed.
      if (time.length === 24 ? time > asOfIso : Date.parse(time) > asOfMs) {
        sum.remove(line(i));
        if (firstLeftOut < 0) firstLeftOut = i;
        continue;
      }
      included++;
      trades.push({
        id: t.ids[i]!,
        account,
        time,
        symbol: t.symbols[i]!,
        assetClass: CLASS_OF[t.classes[i]!]!,
        side: SIDE_OF[t.sides[i]!]!,
        quantity: t.quantities[i]!,
        price: t.prices[i]!,
        fee: t.fees[i]!,
      });
    }
    if (included > 0) digest += `A|${account}|${included}|${sum.hex()}\n`;
    // The snapshot's trades come first in t: all in the ledger when none of them was left out.
    if (kept.n > 0 && (firstLeftOut < 0 || firstLeftOut >= kept.n) && kept.n > (snapshot?.n ?? 0))
      snapshot = { accountId: a.id, ...kept, trades: trades.slice(start, start + kept.n) };
  }
  return { trades, digest, snapshot };
}

/** v2: each account's trades by the sum of their lines' hashes (userTrades), no longer every line in order. */
export const LEDGER_DIGEST_VERSION = "v2";

/**
 * Who quoted a stored mark (price_marks: Plaid's holdings, an IBKR statement's open positions) and
 * how far it vouches for it: the broker's own price, trusted (DECISIONS 208). The same for every
 * stored mark, so it adds nothing to the ledger digest.
 */
export const STORED_MARK = { source: "broker", confidence: 1 } as const;

/**
 * Which accounts a grade reads (DECISIONS 198): a verified grade every account a provider gave
 * us, never an uploaded statement; a self-reported grade the statements only. The two histories
 * are never mixed in one grade.
 */
export type Provenance = "verified" | "self_reported";

/** The scope's condition on an account's kind column (`linked_accounts.kind` or an alias's). */
export function ofProvenance(column: string, scope: Provenance) {
  const kinds = sql.val([...SELF_REPORTED_KINDS]);
  return scope === "self_reported"
    ? sql<boolean>`${sql.ref(column)} = any(${kinds}::text[])`
    : sql<boolean>`${sql.ref(column)} <> all(${kinds}::text[])`;
}

/**
 * The user's whole ledger in the engine's terms, from every linked account (the grade is of the
 * trader, not of one account; `account` is the linked account's id), and its digest: SHA-256 over
 * each account's trades (userTrades), then every cash flow, mark and event in a fixed order. asOf
 * is left out of the digest, so "nothing new" means no new rows.
 */
export async function buildUserLedger(
  userId: number,
  asOf: Date,
  scope: Provenance = "verified",
): Promise<{ ledger: Ledger; digest: string; skipped: Record<string, number>; snapshot: SnapshotTrades | null }> {
  const db = await getDb();
  // Every currency (issue 32, DECISIONS 192): a trader in dollars with every row in dollars keeps
  // this path, its snapshots and its digest byte for byte; any other base or any row in another
  // currency takes rowByRowLedger, which names every row's currency and adds the rates.
  // Futures, forex and CFDs (issue 33, DECISIONS 202) take it too: snapshots hold no contract size.
  // Wallet fills their price source does not vouch for (DECISIONS 219) take it too: snapshots hold no confidence.
  const [base, zone, others, contracts, thin] = await Promise.all([
    baseCurrencyOf(db, userId),
    timeZoneOf(db, userId),
    otherCurrencyRows(db, userId, asOf, scope),
    hasContracts(db, userId, asOf, scope),
    hasThinFills(db, userId, asOf, scope),
  ]);
  if (base !== DEFAULT_BASE_CURRENCY || others.size > 0 || contracts || thin)
    return rowByRowLedger(db, userId, asOf, base, zone, others, scope);
  const [userTradesRead, cashFlows, marks, stored] = await Promise.all([
    userTrades(db, userId, asOf, scope),
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
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("cash_flows.time", "<=", asOf)
      .where("cash_flows.currency", "=", "USD")
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
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("price_marks.time", "<=", asOf)
      .where("price_marks.currency", "=", "USD")
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
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("ledger_events.time", "<=", asOf)
      .where("ledger_events.currency", "=", "USD")
      .orderBy("ledger_events.linked_account_id")
      .orderBy("ledger_events.external_id")
      .execute(),
  ]);
  const hash = crypto.createHash("sha256").update(`${LEDGER_DIGEST_VERSION}\n${userTradesRead.digest}`);
  // The trader's zone changes the grade's days: a new zone is something new (UTC adds nothing, so digests keep).
  if (zone !== undefined) hash.update(`Z|${zone}\n`);
  const trades = userTradesRead.trades;
  const ledger: Ledger = {
    asOf: asOf.toISOString(),
    ...(zone !== undefined ? { timeZone: zone } : {}),
    trades,
    cashFlows: cashFlows.flatMap((c) => {
      hash.update(`C|${c.linked_account_id}|${c.external_id}|${c.time}|${c.amount}\n`);
      // A flow of 0 moves nothing, and the engine's validation refuses it: left out, so the ledger
      // exported with a grade passes `npm run grade` (docs/GRADING.md §1, edges).
      return c.amount === 0 ? [] : [{ account: String(c.linked_account_id), time: c.time, amount: c.amount }];
    }),
    // A stored mark is the broker's or exchange's own price (DECISIONS 208): trusted, and the same
    // for every stored mark, so the digest line stays as it was.
    prices: marks.map((m) => {
      hash.update(`P|${m.linked_account_id}|${m.symbol}|${m.time}|${m.price}\n`);
      return { symbol: m.symbol, time: m.time, price: m.price, ...STORED_MARK };
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
  const paired = pairTransfers(
    { ...ledger, events: resolved.events },
    await coinAccounts(db, userId),
    moveFactsOf(storedEvents),
  );
  ledger.cashFlows = paired.cashFlows;
  ledger.events = paired.events;
  return { ledger, digest: hash.digest("hex"), skipped: { ...resolved.skipped }, snapshot: userTradesRead.snapshot };
}

/**
 * The trader's accounts that hold coins (wallets and exchanges), moves between which are
 * transfers, each with a wallet's own address (its fingerprint "evm:0x…", "solana:…").
 */
async function coinAccounts(db: DB, userId: number): Promise<Map<string, string | null>> {
  const rows = await db
    .selectFrom("linked_accounts")
    .select(["id", "kind", "fingerprint"])
    .where("user_id", "=", userId)
    .execute();
  const accounts = new Map<string, string | null>();
  for (const r of rows) {
    const family = ACCOUNT_KIND_VIEWS[r.kind as LinkedAccountKind]?.family;
    if (family === "wallet") accounts.set(String(r.id), chainId(r.fingerprint.slice(r.kind.length + 1)));
    else if (family === "exchange") accounts.set(String(r.id), null);
  }
  return accounts;
}

/**
 * The trader's time zone (users.time_zone, settings) when it is not UTC and the engine knows it:
 * where the grade's days start (docs/GRADING.md §6). Undefined: UTC.
 */
async function timeZoneOf(db: DB, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("time_zone").where("id", "=", userId).executeTakeFirst();
  const zone = row?.time_zone;
  return zone && zone !== "UTC" && isTimeZone(zone) ? zone : undefined;
}

/** The trader's base currency (users.base_currency; USD for one the list no longer knows). */
async function baseCurrencyOf(db: DB, userId: number): Promise<string> {
  const row = await db.selectFrom("users").select("base_currency").where("id", "=", userId).executeTakeFirst();
  return row && isBaseCurrency(row.base_currency) ? row.base_currency : DEFAULT_BASE_CURRENCY;
}

/** How many of the user's trades, cash flows, events and marks at or before asOf are in each currency other than USD. */
async function otherCurrencyRows(db: DB, userId: number, asOf: Date, scope: Provenance): Promise<Map<string, number>> {
  const { rows } = await sql<{ currency: string; n: number }>`
    select currency, count(*)::int as n from (
      select t.currency from trades t join linked_accounts a on a.id = t.linked_account_id
        where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)} and t.currency <> 'USD' and t.time <= ${asOf}
      union all
      select c.currency from cash_flows c join linked_accounts a on a.id = c.linked_account_id
        where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)} and c.currency <> 'USD' and c.time <= ${asOf}
      union all
      select e.currency from ledger_events e join linked_accounts a on a.id = e.linked_account_id
        where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)} and e.currency <> 'USD' and e.time <= ${asOf}
      union all
      select m.currency from price_marks m join linked_accounts a on a.id = m.linked_account_id
        where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)} and m.currency <> 'USD' and m.time <= ${asOf}
    ) other group by currency`.execute(db);
  return new Map(rows.map((r) => [r.currency, r.n]));
}

/** Whether the trader holds a trade with a contract size or an expiry (a future, an option from IBKR …). */
// The condition is written as the partial index trades_contracts says it (migration 0045), so a
// trader without contracts is answered from that small index, not by reading every trade.
async function hasContracts(db: DB, userId: number, asOf: Date, scope: Provenance): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from trades t join linked_accounts a on a.id = t.linked_account_id
      where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)} and t.time <= ${asOf}
        and (t.multiplier <> 1 or t.expiry is not null)
      limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * Whether the trader holds a fill whose price its source does not vouch for (a confidence below
 * TRUSTED_CONFIDENCE, DECISIONS 219). Above it a fill grades as a market fill, so only these rows
 * need the row-by-row path. Written as the partial index trades_thin says it (migration 0052).
 */
async function hasThinFills(db: DB, userId: number, asOf: Date, scope: Provenance): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from trades t join linked_accounts a on a.id = t.linked_account_id
      where a.user_id = ${userId} and ${ofProvenance("a.kind", scope)} and t.time <= ${asOf}
        and t.confidence < ${sql.lit(TRUSTED_CONFIDENCE)}
      limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * The ledger of a trader who grades in another currency than USD, holds rows in one, holds
 * contracts (a multiplier or an expiry), or holds thin fills: every row read with its currency,
 * size, expiry and confidence (no
 * trade snapshots: they hold dollars and units only), the base currency, and the
 * ECB's rates of every currency in it over its days (fxRatesFor). A currency the rates source does
 * not know is left out and counted as "unknown currency" in what the grade could not use; the
 * engine lists a row dated before its currency's first rate itself. The digest's lines name the
 * currency, so a change of currency or base is something new.
 */
async function rowByRowLedger(
  db: DB,
  userId: number,
  asOf: Date,
  base: string,
  zone: string | undefined,
  others: Map<string, number>,
  scope: Provenance,
): Promise<{ ledger: Ledger; digest: string; skipped: Record<string, number>; snapshot: null }> {
  const unknown = [...others.keys()].filter((c) => !isBaseCurrency(c));
  const skipped: Record<string, number> = {};
  for (const c of unknown) skipped["unknown currency"] = (skipped["unknown currency"] ?? 0) + others.get(c)!;
  const usable = (col: string) =>
    unknown.length ? sql<boolean>`${sql.ref(col)} <> all(${sql.val(unknown)}::text[])` : sql<boolean>`true`;
  const [trades, cashFlows, marks, stored] = await Promise.all([
    db
      .selectFrom("trades")
      .innerJoin("linked_accounts", "linked_accounts.id", "trades.linked_account_id")
      .select([
        "trades.linked_account_id",
        "trades.external_id",
        isoTime("trades.time").as("time"),
        "trades.symbol",
        "trades.asset_class",
        "trades.side",
        "trades.quantity",
        "trades.price",
        "trades.fee",
        "trades.currency",
        "trades.multiplier",
        sql<string | null>`to_char(trades.expiry, 'YYYY-MM-DD')`.as("expiry"),
        "trades.confidence",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("trades.time", "<=", asOf)
      .where(usable("trades.currency"))
      .orderBy("trades.linked_account_id")
      .orderBy("trades.time")
      .orderBy(sql`trades.external_id collate "C"`)
      .execute(),
    db
      .selectFrom("cash_flows")
      .innerJoin("linked_accounts", "linked_accounts.id", "cash_flows.linked_account_id")
      .select([
        "cash_flows.linked_account_id",
        "cash_flows.external_id",
        isoTime("cash_flows.time").as("time"),
        "cash_flows.amount",
        "cash_flows.currency",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("cash_flows.time", "<=", asOf)
      .where(usable("cash_flows.currency"))
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
        "price_marks.currency",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("price_marks.time", "<=", asOf)
      .where(usable("price_marks.currency"))
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
        "ledger_events.currency",
      ])
      .where("linked_accounts.user_id", "=", userId)
      .where(ofProvenance("linked_accounts.kind", scope))
      .where("ledger_events.time", "<=", asOf)
      .where(usable("ledger_events.currency"))
      .orderBy("ledger_events.linked_account_id")
      .orderBy("ledger_events.external_id")
      .execute(),
  ]);
  const hash = crypto.createHash("sha256").update(`${LEDGER_DIGEST_VERSION}|fx|${base}\n`);
  if (zone !== undefined) hash.update(`Z|${zone}\n`);
  const ledger: Ledger = {
    asOf: asOf.toISOString(),
    baseCurrency: base,
    ...(zone !== undefined ? { timeZone: zone } : {}),
    trades: trades.map((t) => {
      const multiplier = Number(t.multiplier);
      // A contract's size and expiry join its line only when it has them: other rows keep their digest.
      const contract = multiplier !== 1 || t.expiry !== null ? `|${multiplier}|${t.expiry ?? ""}` : "";
      // A fill's confidence likewise, only when its source said one.
      const vouched = t.confidence !== null ? `|c${t.confidence}` : "";
      hash.update(
        `T|${t.linked_account_id}|${t.external_id}|${t.time}|${t.symbol}|${t.asset_class}|${t.side}|${t.quantity}|${t.price}|${t.fee}|${t.currency}${contract}${vouched}\n`,
      );
      return {
        id: `${t.linked_account_id}:${t.external_id}`,
        account: String(t.linked_account_id),
        time: t.time,
        symbol: t.symbol,
        assetClass: t.asset_class,
        side: t.side,
        quantity: t.quantity,
        price: t.price,
        fee: t.fee,
        currency: t.currency,
        ...(multiplier !== 1 ? { multiplier } : {}),
        ...(t.expiry !== null ? { expiry: t.expiry } : {}),
        ...(t.confidence !== null ? { confidence: t.confidence } : {}),
      };
    }),
    cashFlows: cashFlows.flatMap((c) => {
      hash.update(`C|${c.linked_account_id}|${c.external_id}|${c.time}|${c.amount}|${c.currency}\n`);
      return c.amount === 0
        ? []
        : [{ account: String(c.linked_account_id), time: c.time, amount: c.amount, currency: c.currency }];
    }),
    // The broker's own price, as on the dollar path (the digest line unchanged).
    prices: marks.map((m) => {
      hash.update(`P|${m.linked_account_id}|${m.symbol}|${m.time}|${m.price}|${m.currency}\n`);
      return { symbol: m.symbol, time: m.time, price: m.price, ...STORED_MARK };
    }),
    events: [],
  };
  const storedEvents: StoredEvent[] = stored.map((e) => {
    const data = (typeof e.data === "string" ? JSON.parse(e.data) : e.data) as Record<string, unknown>;
    hash.update(
      `E|${e.linked_account_id}|${e.external_id}|${e.time}|${e.kind}|${e.symbol ?? ""}|${JSON.stringify(data)}|${e.currency}\n`,
    );
    return {
      account: String(e.linked_account_id),
      externalId: e.external_id,
      time: e.time,
      kind: e.kind,
      symbol: e.symbol,
      data,
      currency: e.currency,
    };
  });
  const resolved = resolveEvents(ledger.trades, storedEvents);
  ledger.trades = resolved.trades;
  const paired = pairTransfers(
    { ...ledger, events: resolved.events },
    await coinAccounts(db, userId),
    moveFactsOf(storedEvents),
  );
  ledger.cashFlows = paired.cashFlows;
  ledger.events = paired.events;
  for (const [reason, count] of Object.entries(resolved.skipped)) skipped[reason] = (skipped[reason] ?? 0) + count;
  // A mark is in its symbol's currency; one in another (a holding priced apart from its trades) is left out.
  const symbolCurrency = new Map(ledger.trades.map((t) => [t.symbol, t.currency]));
  ledger.prices = ledger.prices.filter(
    (_, i) => (symbolCurrency.get(marks[i]!.symbol) ?? marks[i]!.currency) === marks[i]!.currency,
  );
  // The rates of every currency in the ledger, and of the dollar (the benchmark's), over its days.
  // An exchange names two (its row, one): EUR.GBP's pounds too.
  const currencies = new Set<string>([DEFAULT_BASE_CURRENCY, ...others.keys()]);
  for (const e of ledger.events) if (e.kind === "fx") currencies.add(e.sell).add(e.buy);
  currencies.delete(base);
  let first = asOf.getTime();
  for (const t of ledger.trades) first = Math.min(first, Date.parse(t.time));
  for (const c of ledger.cashFlows) first = Math.min(first, Date.parse(c.time));
  for (const e of ledger.events) if (e.kind === "fx") first = Math.min(first, Date.parse(e.time));
  try {
    const fxRates = await fxRatesFor(
      db,
      base,
      [...currencies].filter(isBaseCurrency),
      new Date(first).toISOString(),
      asOf.toISOString(),
    );
    if (fxRates.rates.length) ledger.fxRates = fxRates;
  } catch (error) {
    // Without rates the engine leaves every row in another currency out and says so.
    log("error", "FX rates unavailable", { error: String((error as Error)?.message ?? error) });
  }
  return { ledger, digest: hash.digest("hex"), skipped, snapshot: null };
}

/**
 * The ledger with the market: each traded stock, ETF and known coin valued at the day's close
 * between its trades, up to asOf, where the closes agree with its fills (market-marks.ts), and
 * the market to measure it against: the S&P 500 (SPY, total return) for a record in stocks, ETFs
 * and options, bitcoin for one in crypto, and for a mixed one (each class at least 10 % of the
 * average exposure) a blend of both weighted by that exposure (Grade v3), from the first activity
 * to asOf, and the risk-free rate (the 13-week T-bill yield, Grade v3) over the same days. Without
 * prices (the source failing) the grade goes without them (a risk-free rate of 0). Prepared once: the
 * exposure and the grade read the same columns. `unpriced`: the symbols valued only at their own
 * trades and the provider's prices.
 */
export async function withMarket(
  ledger: Ledger,
): Promise<{ ledger: Ledger; prepared: PreparedLedger; unpriced: string[] }> {
  let marked = ledger;
  let unpriced: string[] = [];
  if (ledger.asOf !== undefined && ledger.trades.length > 0) {
    let first = Infinity;
    for (const t of ledger.trades) first = Math.min(first, Date.parse(t.time));
    // The price source's closes are in dollars: only symbols traded in dollars are marked with them.
    const base = ledger.baseCurrency ?? DEFAULT_BASE_CURRENCY;
    const inDollars = ledger.trades.filter((t) => (t.currency ?? base) === DEFAULT_BASE_CURRENCY);
    const closes = await marketCloses(symbolsToMark(inDollars), new Date(first), new Date(ledger.asOf));
    ({ ledger: marked, unpriced } = withMarketCloses(ledger, closes));
  }
  let prepared = prepareLedger(marked);
  const share = cryptoShare(prepared);
  if (marked.asOf === undefined || !Number.isFinite(prepared.firstMs)) return { ledger: marked, prepared, unpriced };
  const from = new Date(prepared.firstMs);
  const to = new Date(marked.asOf);
  // The risk-free rate (Grade v3) whatever the market: without it the engine uses 0.
  try {
    const riskFree = await riskFreeSeries(from, to);
    if (riskFree.rates.length > 0) {
      marked = { ...marked, riskFree };
      prepared = withRiskFreeColumns(prepared, riskFree);
    }
  } catch (error) {
    log("error", "risk-free rate unavailable", { error: String((error as Error)?.message ?? error) });
  }
  if (share === null) return { ledger: marked, prepared, unpriced };
  // Grade v3: a mixed record is measured against both markets, weighted by the capital in each.
  const kind = share > 1 - BLEND_MIN_SHARE ? "crypto" : share < BLEND_MIN_SHARE ? "stocks" : "blend";
  try {
    const series =
      kind === "blend"
        ? blendedBenchmark(await benchmarkSeries("stocks", from, to), await benchmarkSeries("crypto", from, to), share)
        : await benchmarkSeries(kind, from, to);
    if (series.prices.length === 0) return { ledger: marked, prepared, unpriced };
    return {
      ledger: { ...marked, benchmark: series },
      prepared: withBenchmarkColumns(prepared, series),
      unpriced,
    };
  } catch (error) {
    log("error", "benchmark unavailable", { kind, error: String((error as Error)?.message ?? error) });
    return { ledger: marked, prepared, unpriced };
  }
}

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * Bytes gzipped at level 1 (twice as fast as the default for 15 % more bytes, DECISIONS 140), a
 * large run in two members compressed side by side on libuv's pool (gunzip reads members as one
 * stream), in large chunks: with zlib's 16 KB default every chunk waits for the busy main thread.
 */
async function gzipped(bytes: Uint8Array): Promise<Buffer> {
  const half = bytes.length > 1 << 20 ? bytes.length >> 1 : bytes.length;
  const parts = [bytes.subarray(0, half), bytes.subarray(half)].filter((part, i) => i === 0 || part.length > 0);
  return Buffer.concat(await Promise.all(parts.map((part) => gzip(part, { chunkSize: 4 << 20, level: 1 }))));
}

/** A snapshot's trades and the ledger text it has of them: its id and, to hash, its bytes with the digest's numbers. */
export type SnapshotText = { snapshot: SnapshotTrades; text: { id: string; rounded: Buffer } | null };

/**
 * The ledger text the snapshot has, if this engine wrote it for the snapshot as it is now. Read
 * as base64: bytea's hex text is twice the bytes, and pg decodes it slowly.
 */
export async function snapshotText(snapshot: SnapshotTrades): Promise<SnapshotText> {
  const db = await getDb();
  const row = await db
    .selectFrom("trade_snapshots")
    .innerJoin("ledger_texts", "ledger_texts.id", "trade_snapshots.ledger_text_id")
    .select([
      "ledger_texts.id",
      sql<string>`encode(coalesce(ledger_texts.rounded, ledger_texts.exact), 'base64')`.as("rounded"),
    ])
    .where("trade_snapshots.linked_account_id", "=", snapshot.accountId)
    .where("trade_snapshots.through_id", "=", snapshot.throughId)
    .where("trade_snapshots.n", "=", snapshot.n)
    .where("ledger_texts.engine_version", "=", ENGINE_VERSION)
    .executeTakeFirst();
  return { snapshot, text: row ? { id: row.id, rounded: Buffer.from(row.rounded, "base64") } : null };
}

/**
 * A graded ledger as kept with its evaluation (keepLedger): its digest and its text as gzip
 * members, `head`, a snapshot's trades' text (one it has, or a new one), `tail`.
 */
export type StoredLedger = {
  digest: string;
  head: Buffer;
  text: { id: string } | { snapshot: SnapshotTrades; exact: Buffer; rounded: Buffer | null } | null;
  tail: Buffer | null;
};

/**
 * A graded ledger as it is kept with its evaluation, and the engine's ledgerDigest: SHA-256 of its
 * canonical JSON. What is kept is the ledger in that same form with its own numbers
 * (canonicalLedgerBytes), gzipped: the very bytes the digest is of when no number has more than
 * ten decimals. The text of a snapshot's trades (`snapshotText`, read by the caller while it
 * prepares the grade) is written once and then shared: later grades write only the rest around it,
 * and the digest reads it back (DECISIONS 142).
 */
export async function storedLedger(
  ledger: Ledger,
  snapshotTextRead: Promise<SnapshotText> | null = null,
): Promise<StoredLedger> {
  const level1 = (b: Uint8Array) => gzip(b, { level: 1 });
  const kept = await snapshotTextRead;
  if (kept) {
    const { snapshot, text } = kept;
    const around = text && canonicalLedgerParts(ledger, snapshot.trades, false);
    if (text && around) {
      const hashed = async () => {
        const hash = crypto.createHash("sha256").update(around.bytes.head);
        // Hashed as it is inflated on the pool, in large chunks (each of zlib's default 16 KB
        // would wait for the busy main thread), and never joined into one 16 MB buffer.
        const inflate = zlib.createGunzip({ chunkSize: 4 << 20 });
        inflate.end(text.rounded);
        for await (const chunk of inflate) hash.update(chunk as Buffer);
        return hash.update(around.bytes.tail).digest("hex");
      };
      const [digest, head, tail] = await Promise.all([hashed(), level1(around.exact.head), level1(around.exact.tail)]);
      return { digest, head, text: { id: text.id }, tail };
    }
    // With a text the run did not fit (a backfill before it, say): writing it would not fit either.
    const parts = text ? null : canonicalLedgerParts(ledger, snapshot.trades, true);
    if (parts) {
      const { bytes, exact } = parts;
      const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length);
      const sameKnown = exact.known === bytes.known || view(exact.known).equals(bytes.known);
      const hash = crypto.createHash("sha256").update(bytes.head).update(bytes.known).update(bytes.tail);
      const [head, knownExact, knownRounded, tail] = await Promise.all([
        level1(exact.head),
        gzipped(exact.known),
        sameKnown ? null : gzipped(bytes.known),
        level1(exact.tail),
      ]);
      return {
        digest: hash.digest("hex"),
        head,
        text: { snapshot, exact: knownExact, rounded: knownRounded },
        tail,
      };
    }
  }
  const { bytes, exact } = canonicalLedgerBytes(ledger);
  // WebCrypto's hash runs on the pool too.
  const [hash, head] = await Promise.all([crypto.subtle.digest("SHA-256", bytes), gzipped(exact)]);
  return { digest: Buffer.from(hash).toString("hex"), head, text: null, tail: null };
}

/**
 * Keeps a graded ledger with its evaluation, in the evaluation's transaction: a new snapshot text
 * is stored and given to its snapshot (if that is still the one it is of).
 */
export async function keepLedger(trx: DB, userId: number, evaluationId: number, stored: StoredLedger): Promise<void> {
  let textId: string | null = null;
  if (stored.text && "id" in stored.text) textId = stored.text.id;
  else if (stored.text) {
    const { snapshot, exact, rounded } = stored.text;
    const row = await trx
      .insertInto("ledger_texts")
      .values({ user_id: userId, engine_version: ENGINE_VERSION, exact, rounded })
      .returning("id")
      .executeTakeFirstOrThrow();
    textId = row.id;
    await trx
      .updateTable("trade_snapshots")
      .set({ ledger_text_id: textId })
      .where("linked_account_id", "=", snapshot.accountId)
      .where("through_id", "=", snapshot.throughId)
      .where("n", "=", snapshot.n)
      .execute();
  }
  await trx
    .insertInto("evaluation_ledgers")
    .values({ evaluation_id: evaluationId, ledger: stored.head, ledger_text_id: textId, ledger_tail: stored.tail })
    .execute();
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
    .leftJoin("ledger_texts", "ledger_texts.id", "evaluation_ledgers.ledger_text_id")
    .innerJoin("users", "users.id", "evaluations.user_id")
    .select([
      "evaluations.id",
      "evaluations.ledger_digest",
      "evaluations.engine_version",
      "evaluations.data_quality",
      "evaluation_ledgers.ledger",
      "ledger_texts.exact as text",
      "evaluation_ledgers.ledger_tail as tail",
    ])
    .where("evaluations.user_id", "=", userId)
    .$if(evaluationId === undefined, (q) => q.whereRef("evaluations.id", "=", "users.current_evaluation_id"))
    .$if(evaluationId !== undefined, (q) => q.where("evaluations.id", "=", evaluationId!))
    .executeTakeFirst();
  if (!row) return null;
  // gzip members of one stream: what comes before a shared text, the text, the rest.
  const gzipped = Buffer.concat([row.ledger, ...(row.text ? [row.text] : []), ...(row.tail ? [row.tail] : [])]);
  const ledger = JSON.parse((await gunzip(gzipped, { chunkSize: 8 << 20 })).toString("utf8")) as Ledger;
  return {
    evaluationId: row.id,
    ledgerDigest: row.ledger_digest,
    engineVersion: row.engine_version,
    dataQuality: readDataQuality(row.data_quality),
    ledger,
  };
}
