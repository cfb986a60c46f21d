// Import benchmarks, on PGlite (in memory) always and on PostgreSQL too when DATABASE_URL is set.
// benchImport (section "import"): a generated 100,000-trade Plaid history (plus deposits,
// withdrawals and holdings marks) mapped by mapPlaidInvestments and stored by saveImport in one
// transaction, then imported again (idempotent: adds nothing).
// benchImportJobs (section "importJobs"): the real path through the job queue against the
// simulators: the demo broker from link to its first automatic grade, and the 5,600-swap EVM wallet
// (one explorer page per job, then parts of IMPORT_CHUNK_ROWS) for trades/s through the jobs.
// Run alone with `npx tsx bench/import.ts [jobs]`.
import os from "node:os";
import { sql } from "kysely";
import { closeDb, copyInto, dbKind, getDb, migrateToLatest, type DB } from "../app/server/platform/db.server";
import { getEnv, parseEnv, setEnv, type Env } from "../app/server/platform/env.server";
import { saveImport, type ImportBatch } from "../app/server/linking/imports.server";
import {
  mapPlaidInvestments,
  type PlaidHolding,
  type PlaidInvestmentTransaction,
  type PlaidSecurity,
} from "../app/sources/plaid.server";
import { mulberry32 } from "../test/mocks/random";
import { checkoutRevision, importFromCheckout, removeCheckout, shortCommit } from "./git-revision";

const TRADES = 100_000;
const SYMBOLS = 300;
const START = Date.UTC(2024, 10, 1);

/** Plaid-shaped input: TRADES buys/sells over two years, a deposit a week, a withdrawal a quarter. */
function generate() {
  const rand = mulberry32(42);
  const securities: PlaidSecurity[] = Array.from({ length: SYMBOLS }, (_, i) => ({
    security_id: `sec-${i}`,
    name: `Company ${i}`,
    ticker_symbol: `T${i.toString(36).toUpperCase()}`,
    type: i % 10 === 0 ? "etf" : "equity",
    is_cash_equivalent: false,
    close_price: 50 + (i % 200),
  }));
  const transactions: PlaidInvestmentTransaction[] = [];
  const held = new Map<number, number>();
  const base = (i: number) => 20 + (i % 400);
  for (let n = 0; n < TRADES; n++) {
    const day = Math.floor((n / TRADES) * 730);
    const date = new Date(START + day * 86_400_000).toISOString().slice(0, 10);
    const s = Math.floor(rand() * SYMBOLS);
    const q = held.get(s) ?? 0;
    const sell = q > 0 && rand() < 0.45;
    const qty = sell ? Math.max(1, Math.floor(q * rand())) : 1 + Math.floor(rand() * 50);
    held.set(s, q + (sell ? -qty : qty));
    const price = Math.round(base(s) * (0.8 + rand() * 0.4) * 100) / 100;
    const fees = sell ? 0.02 : 0;
    transactions.push({
      investment_transaction_id: `tx-${n}`,
      account_id: "acct",
      security_id: `sec-${s}`,
      date,
      quantity: sell ? -qty : qty,
      amount: sell ? -(qty * price - fees) : qty * price,
      price,
      fees,
      type: sell ? "sell" : "buy",
      subtype: sell ? "sell" : "buy",
      iso_currency_code: "USD",
    });
  }
  for (let w = 0; w < 104; w++) {
    const date = new Date(START + w * 7 * 86_400_000).toISOString().slice(0, 10);
    transactions.push({
      investment_transaction_id: `dep-${w}`,
      account_id: "acct",
      security_id: null,
      date,
      quantity: 0,
      amount: -5000,
      price: 0,
      fees: 0,
      type: "cash",
      subtype: "deposit",
      iso_currency_code: "USD",
    });
    if (w % 13 === 12)
      transactions.push({
        investment_transaction_id: `wd-${w}`,
        account_id: "acct",
        security_id: null,
        date,
        quantity: 0,
        amount: 2000,
        price: 0,
        fees: 0,
        type: "cash",
        subtype: "withdrawal",
        iso_currency_code: "USD",
      });
  }
  const holdings: PlaidHolding[] = [...held.entries()]
    .filter(([, q]) => q > 0)
    .map(([s, q]) => ({
      account_id: "acct",
      security_id: `sec-${s}`,
      institution_price: base(s),
      institution_price_as_of: "2026-10-30",
      quantity: q,
    }));
  return { transactions, securities, holdings };
}

type Figure = {
  db: string;
  trades: number;
  cashFlows: number;
  mapMs: number;
  firstImportMs: number;
  tradesPerSecond: number;
  reimportMs: number;
  reimportAdded: number;
};

async function runOn(env: Env, input: ReturnType<typeof generate>): Promise<Figure> {
  const previous = getEnv();
  await closeDb();
  setEnv(env);
  try {
    await migrateToLatest();
    const db = await getDb();
    const stamp = `${Date.now()}-${process.pid}`;
    const user = await db
      .insertInto("users")
      .values({ email: `bench-import-${stamp}@example.com`, password_hash: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const account = await db
      .insertInto("linked_accounts")
      .values({ user_id: user.id, kind: "plaid", fingerprint: `plaid:bench:${stamp}`, label: "Bench brokerage" })
      .returning("id")
      .executeTakeFirstOrThrow();
    try {
      const t0 = performance.now();
      const mapped = mapPlaidInvestments({ ...input, asOf: new Date() });
      const mapMs = performance.now() - t0;
      const batch: ImportBatch = {
        trades: mapped.trades,
        cashFlows: mapped.cashFlows,
        marks: mapped.marks,
        payloads: [],
      };
      const t1 = performance.now();
      const first = await saveImport(account.id, batch);
      const firstImportMs = performance.now() - t1;
      const t2 = performance.now();
      const again = await saveImport(account.id, batch);
      const reimportMs = performance.now() - t2;
      const count = await db
        .selectFrom("trades")
        .select(sql<string>`count(*)`.as("n"))
        .where("linked_account_id", "=", account.id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) !== mapped.trades.length || first.tradesAdded !== mapped.trades.length)
        throw new Error(`stored ${count.n} of ${mapped.trades.length} trades`);
      return {
        db: await dbKind(),
        trades: first.tradesAdded,
        cashFlows: first.cashFlowsAdded,
        mapMs: Math.round(mapMs),
        firstImportMs: Math.round(firstImportMs),
        tradesPerSecond: Math.round(first.tradesAdded / (firstImportMs / 1000)),
        reimportMs: Math.round(reimportMs),
        reimportAdded: again.tradesAdded + again.cashFlowsAdded,
      };
    } finally {
      await db.deleteFrom("users").where("id", "=", user.id).execute();
    }
  } finally {
    await closeDb();
    setEnv(previous);
  }
}

export async function benchImport(): Promise<Figure[]> {
  const input = generate();
  const figures: Figure[] = [];
  const { DATABASE_URL, ...rest } = process.env;
  figures.push(await runOn(parseEnv({ ...rest, DATA_DIR: "memory://", LOG_LEVEL: "error" }), input));
  if (DATABASE_URL) figures.push(await runOn(parseEnv({ ...process.env, LOG_LEVEL: "error" }), input));
  return figures;
}

type JobsFigure = {
  db: string;
  /** SIM_DELAY_FACTOR 1: the simulators at the real services' pace, what a demo user sees. */
  demoBroker: Record<string, { linkMs: number; tradesStoredMs: number; firstGradeMs: number; trades: number }[]>;
  evmWallet: { trades: number; importMs: number; tradesPerSecond: number; jobs: number };
};

async function waitForImport(db: Awaited<ReturnType<typeof getDb>>, userId: number, until: string[]) {
  for (;;) {
    const row = await db
      .selectFrom("imports")
      .select(["state", "trades_added", "attempts", "error"])
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (row?.state === "failed") throw new Error(`import failed: ${row.error}`);
    if (row && until.includes(row.state)) return row;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function jobsOn(env: Env): Promise<JobsFigure> {
  const previous = getEnv();
  await closeDb();
  setEnv(env);
  const { importJobHandlers, linkWallet } = await import("../app/server/linking/linking.server");
  const { linkPlaidItem } = await import("../app/server/linking/providers/plaid.server");
  const { startJobs, stopJobs } = await import("../app/server/platform/jobs.server");
  const { computeAddress } = await import("ethers");
  const { EVM_BIG_WALLET_KEY } = await import("../test/mocks/evm");
  try {
    await migrateToLatest();
    const db = await getDb();
    await startJobs(importJobHandlers);
    const newUser = async (tag: string) =>
      (
        await db
          .insertInto("users")
          .values({ email: `bench-${tag}-${Date.now()}-${process.pid}@example.com`, password_hash: null })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const users: number[] = [];
    const demoBroker: JobsFigure["demoBroker"] = { "SIM_DELAY_FACTOR=1": [], "SIM_DELAY_FACTOR=0": [] };
    try {
      // Alternated, three of each: the simulators' pace, then our own cost.
      for (let run = 0; run < 6; run++) {
        const factor = run % 2 ? "0" : "1";
        process.env.SIM_DELAY_FACTOR = factor;
        const userId = await newUser("demo");
        users.push(userId);
        const t0 = performance.now();
        await linkPlaidItem(userId, `public-sandbox-user_good_bench${Date.now().toString(36)}${run}`);
        const linkMs = performance.now() - t0;
        const stored = await waitForImport(db, userId, ["grading", "done"]);
        const tradesStoredMs = performance.now() - t0;
        await waitForImport(db, userId, ["done"]);
        const firstGradeMs = performance.now() - t0;
        const graded = await db
          .selectFrom("users")
          .select("current_evaluation_id")
          .where("id", "=", userId)
          .executeTakeFirstOrThrow();
        if (!graded.current_evaluation_id) throw new Error("the import finished without a grade");
        demoBroker[`SIM_DELAY_FACTOR=${factor}`]!.push({
          linkMs: Math.round(linkMs),
          tradesStoredMs: Math.round(tradesStoredMs),
          firstGradeMs: Math.round(firstGradeMs),
          trades: stored.trades_added,
        });
      }
      process.env.SIM_DELAY_FACTOR = "0";
      const walletUser = await newUser("evm");
      users.push(walletUser);
      const t0 = performance.now();
      const linked = await linkWallet({
        userId: walletUser,
        kind: "evm",
        fingerprint: `evm:${computeAddress(EVM_BIG_WALLET_KEY)}`,
        label: "Bench wallet",
        institutionName: "Ethereum",
      });
      if (!linked.ok) throw new Error("the bench wallet is linked to another user");
      const done = await waitForImport(db, walletUser, ["grading", "done"]);
      const importMs = performance.now() - t0;
      await waitForImport(db, walletUser, ["done"]);
      return {
        db: await dbKind(),
        demoBroker,
        evmWallet: {
          trades: done.trades_added,
          importMs: Math.round(importMs),
          tradesPerSecond: Math.round(done.trades_added / (importMs / 1000)),
          jobs: done.attempts,
        },
      };
    } finally {
      await stopJobs(5000);
      for (const id of users) await db.deleteFrom("users").where("id", "=", id).execute();
    }
  } finally {
    await closeDb();
    setEnv(previous);
  }
}

export async function benchImportJobs(): Promise<JobsFigure[]> {
  const { startProviderMocks } = await import("../test/mocks/index");
  const mocks = await startProviderMocks({ plaid: true, evm: true, prices: true });
  const figures: JobsFigure[] = [];
  const { DATABASE_URL, ...rest } = process.env;
  // Ethereum only for the wallet (its 5,600 swaps are there); every other setting the default.
  const settings = { LOG_LEVEL: "error", EVM_CHAINS: "1" };
  try {
    figures.push(await jobsOn(parseEnv({ ...rest, DATA_DIR: "memory://", ...settings })));
    if (DATABASE_URL) figures.push(await jobsOn(parseEnv({ ...process.env, ...settings })));
  } finally {
    mocks?.server.close();
  }
  return figures;
}

/**
 * The "before" of benchImportCopy: `saveImport` of a git revision (bench/git-revision.ts). By default
 * main before COPY, whose saveImport sent every database's trades as nine arrays through unnest(),
 * as PGlite's path still does (DECISIONS 135); BENCH_BASE names another revision.
 */
export const IMPORT_BASE = "891c272^";
type SaveImport = (id: number, batch: ImportBatch, trx: DB) => Promise<unknown>;
async function saveImportOf(rev: string): Promise<{ saveImport: SaveImport; dir: string }> {
  const dir = checkoutRevision(rev, ["app", "migrations"]);
  const mod = await importFromCheckout<{ saveImport: SaveImport }>(dir, [
    "app/server/linking/imports.server.ts",
    "app/server/imports.server.ts",
  ]);
  return { saveImport: mod.saveImport, dir };
}

/**
 * Trades into PostgreSQL (DATABASE_URL), 100,000 a run, each into a fresh linked account, in one
 * run alternating: before (`saveImport` of BENCH_BASE, default IMPORT_BASE: the unnest insert),
 * after (this tree's saveImport: COPY, DECISIONS 135 and 139), and the floor: PostgreSQL's own COPY
 * of the same rows straight into trades (its foreign-key check and indexes, no ON CONFLICT).
 */
export async function benchImportCopy(
  runs = Number(process.env.BENCH_ROUNDS ?? 5),
  base = process.env.BENCH_BASE || IMPORT_BASE,
) {
  if (!process.env.DATABASE_URL) return { skipped: "PostgreSQL only: set DATABASE_URL" };
  const mapped = mapPlaidInvestments({ ...generate(), asOf: new Date() });
  const trades = mapped.trades.slice(0, Number(process.env.BENCH_TRADES ?? TRADES));
  const before = await saveImportOf(base);
  await migrateToLatest();
  const db = await getDb();
  const stamp = `${Date.now()}-${process.pid}`;
  const user = await db
    .insertInto("users")
    .values({ email: `bench-copy-${stamp}@example.com`, password_hash: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  const floorText = (id: number) =>
    (function* () {
      let out = "";
      for (const t of trades) {
        out += `${id}\t${t.externalId}\t${t.time.toISOString()}\t${t.symbol}\t${t.assetClass}\t${t.side}\t${t.quantity}\t${t.price}\t${t.fee}\n`;
        if (out.length > 65_536) {
          yield out;
          out = "";
        }
      }
      yield out;
    })();
  const ways: Record<string, (trx: DB, id: number) => Promise<unknown>> = {
    before: (trx, id) => before.saveImport(id, { trades, cashFlows: [], marks: [], payloads: [] }, trx),
    after: (trx, id) => saveImport(id, { trades, cashFlows: [], marks: [], payloads: [] }, trx),
    floor: (trx, id) =>
      copyInto(
        trx,
        "copy trades (linked_account_id, external_id, time, symbol, asset_class, side, quantity, price, fee) from stdin",
        floorText(id),
      ),
  };
  const rowsPerSecond: Record<string, number[]> = { before: [], after: [], floor: [] };
  // Node's own CPU per 100,000 rows: what the client side of each way costs, whatever the load.
  const nodeCpuMs: Record<string, number[]> = { before: [], after: [], floor: [] };
  const load: number[] = [];
  try {
    for (let run = 0; run < runs; run++)
      for (const [name, way] of Object.entries(ways)) {
        const account = await db
          .insertInto("linked_accounts")
          .values({ user_id: user.id, kind: "plaid", fingerprint: `plaid:copy:${stamp}:${name}:${run}`, label: name })
          .returning("id")
          .executeTakeFirstOrThrow();
        load.push(os.loadavg()[0]!);
        const t = performance.now();
        const cpu = process.cpuUsage();
        await db.transaction().execute((trx) => way(trx, account.id));
        const used = process.cpuUsage(cpu);
        const ms = performance.now() - t;
        nodeCpuMs[name]!.push(Math.round((used.user + used.system) / 1000));
        const n = await db
          .selectFrom("trades")
          .select(sql<string>`count(*)`.as("n"))
          .where("linked_account_id", "=", account.id)
          .executeTakeFirstOrThrow();
        if (Number(n.n) !== trades.length) throw new Error(`${name}: stored ${n.n} of ${trades.length}`);
        rowsPerSecond[name]!.push(Math.round(trades.length / (ms / 1000)));
      }
  } finally {
    await db.deleteFrom("users").where("id", "=", user.id).execute();
    removeCheckout(before.dir);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    db: await dbKind(),
    base: shortCommit(base),
    trades: trades.length,
    runs,
    loadAvg1m: { min: Math.min(...load), max: Math.max(...load) },
    rowsPerSecondP50: {
      before: median(rowsPerSecond.before!),
      after: median(rowsPerSecond.after!),
      floor: median(rowsPerSecond.floor!),
    },
    nodeCpuMsP50: {
      before: median(nodeCpuMs.before!),
      after: median(nodeCpuMs.after!),
      floor: median(nodeCpuMs.floor!),
    },
    rowsPerSecond,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const jobs = process.argv[2] === "jobs";
  console.log(JSON.stringify(jobs ? await benchImportJobs() : await benchImport(), null, 2));
  process.exit(0);
}
