// Import benchmark: a generated 100,000-trade Plaid history (plus deposits, withdrawals and
// holdings marks) mapped by mapPlaidInvestments and stored by saveImport in one transaction, then
// imported again (idempotent: adds nothing). On PGlite (in memory) always, and on PostgreSQL too
// when DATABASE_URL is set. Run alone with `npx tsx bench/import.ts`.
import { sql } from "kysely";
import { closeDb, dbKind, getDb, migrateToLatest } from "../app/server/db.server";
import { parseEnv, type Env } from "../app/server/env.server";
import { saveImport, type ImportBatch } from "../app/server/imports.server";
import {
  mapPlaidInvestments,
  type PlaidHolding,
  type PlaidInvestmentTransaction,
  type PlaidSecurity,
} from "../app/sources/plaid.server";
import { mulberry32 } from "../test/mocks/random";

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
  const g = globalThis as unknown as Record<string, Env | undefined>;
  const previous = g.__grader_env;
  await closeDb();
  g.__grader_env = env;
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
    g.__grader_env = previous;
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

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchImport(), null, 2));
}
