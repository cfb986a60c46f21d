import { performance } from "node:perf_hooks";

// End-to-end evaluation time (ledger from the database → engine → stored evaluation), in process,
// on PGlite (default) or the PostgreSQL of DATABASE_URL. Import excluded and included.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";

const { getDb, migrateToLatest, closeDb, dbKind } = await import("../app/server/platform/db.server");
const { evaluateUser } = await import("../app/server/grades/evaluation.server");
const { linkAccount, saveImport } = await import("../app/server/linking/imports.server");
type Batch = Parameters<typeof saveImport>[1];

function percentile(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
}

export function generatedHistory(trades: number, seed = 7): Batch {
  let x = seed;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const symbols = Array.from({ length: 200 }, (_, i) => `S${i}`);
  const held = new Map<string, number>();
  const start = Date.UTC(2025, 0, 2);
  const span = 365 * 86_400_000;
  const out: Batch["trades"] = [];
  for (let i = 0; i < trades; i++) {
    const symbol = symbols[Math.floor(rand() * symbols.length)]!;
    const have = held.get(symbol) ?? 0;
    const side = have > 0 && rand() < 0.5 ? "sell" : "buy";
    const quantity = side === "sell" ? Math.max(1, Math.floor(have * rand())) : 1 + Math.floor(rand() * 20);
    held.set(symbol, have + (side === "buy" ? quantity : -quantity));
    out.push({
      externalId: `g${i}`,
      time: new Date(start + (i / trades) * span),
      symbol,
      assetClass: "stock",
      side,
      quantity,
      price: 20 + rand() * 200,
      fee: 0.5,
    });
  }
  return {
    trades: out,
    cashFlows: [{ externalId: "seed", time: new Date(start - 86_400_000), amount: 50_000_000 }],
    marks: [],
    payloads: [],
  };
}

export async function benchEvaluation(opts: { trades?: number; runs?: number } = {}) {
  const trades = opts.trades ?? 100_000;
  const runs = opts.runs ?? 5;
  await migrateToLatest();
  const db = await getDb();
  const user = await db
    .insertInto("users")
    .values({ email: `bench-${Date.now()}@example.com`, extra_tries: 1000 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const link = await linkAccount({
    userId: user.id,
    kind: "plaid",
    fingerprint: `plaid:bench:${Date.now()}`,
    label: "Bench brokerage",
  });
  if (!link.ok) throw new Error("link failed");
  const history = generatedHistory(trades);

  const importStart = performance.now();
  await saveImport(link.id, history);
  const importMs = performance.now() - importStart;

  const noop = async () => {};
  const evalMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    // One new trade each run, so every run grades (otherwise the answer is 2002).
    await saveImport(link.id, {
      trades: [{ ...history.trades[0]!, externalId: `extra${i}`, time: new Date(Date.UTC(2025, 11, 31, 12, i)) }],
      cashFlows: [],
      marks: [],
      payloads: [],
    });
    const t = performance.now();
    const out = await evaluateUser(user.id, "all", noop);
    evalMs.push(performance.now() - t);
    if (out.code !== 200) throw new Error(`unexpected code ${out.code}`);
  }
  const result = {
    db: await dbKind(),
    trades,
    importMs: Math.round(importMs),
    importTradesPerSec: Math.round(trades / (importMs / 1000)),
    reevaluateMsP50: percentile(evalMs, 50),
    reevaluateMsP95: percentile(evalMs, 95),
    importPlusEvaluateMs: Math.round(importMs + percentile(evalMs, 50)),
  };
  return result;
}

/**
 * The demo broker account end to end: link (import included) then evaluations that re-import
 * from the Plaid simulator each time (import included) and that skip the re-import (excluded).
 */
export async function benchDemoEvaluation(runs = 5) {
  const { startProviderMocks } = await import("../test/mocks/index");
  // Prices too: the benchmark series of Grade v2 comes from the price source, simulated here.
  const mocks = await startProviderMocks({ plaid: true, prices: true });
  const { importJobHandlers, reimportForEvaluation } = await import("../app/server/linking/linking.server");
  const { linkPlaidItem } = await import("../app/server/linking/providers/plaid.server");
  const { startJobs, stopJobs } = await import("../app/server/platform/jobs.server");
  try {
    await migrateToLatest();
    const db = await getDb();
    const user = await db
      .insertInto("users")
      .values({ email: `bench-demo-${Date.now()}@example.com`, extra_tries: 1000 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const t0 = performance.now();
    // Linking answers at once; the import runs as jobs (link → first grade is the figure that matters).
    await startJobs(importJobHandlers);
    await linkPlaidItem(user.id, `public-sandbox-user_good_bench${Date.now().toString(36)}`);
    while (
      (
        await db
          .selectFrom("imports")
          .select("id")
          .where("user_id", "=", user.id)
          .where("state", "not in", ["done", "failed"])
          .execute()
      ).length
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const linkMs = performance.now() - t0;
    const included: number[] = [];
    const excluded: number[] = [];
    for (let i = 0; i < runs; i++) {
      // A fresh evaluation each time: forget the previous one's digest.
      await db.updateTable("users").set({ current_evaluation_id: null }).where("id", "=", user.id).execute();
      await db.deleteFrom("evaluations").where("user_id", "=", user.id).execute();
      let t = performance.now();
      await evaluateUser(user.id, "all", reimportForEvaluation);
      included.push(performance.now() - t);
      await db.updateTable("users").set({ current_evaluation_id: null }).where("id", "=", user.id).execute();
      await db.deleteFrom("evaluations").where("user_id", "=", user.id).execute();
      t = performance.now();
      await evaluateUser(user.id, "all", async () => {});
      excluded.push(performance.now() - t);
    }
    return {
      db: await dbKind(),
      linkAndFirstImportMs: Math.round(linkMs),
      evaluateWithImportMsP50: percentile(included, 50),
      evaluateWithImportMsP95: percentile(included, 95),
      evaluateWithoutImportMsP50: percentile(excluded, 50),
      evaluateWithoutImportMsP95: percentile(excluded, 95),
    };
  } finally {
    await stopJobs(5000);
    mocks?.server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchDemoEvaluation(), null, 2));
  console.log(JSON.stringify(await benchEvaluation(), null, 2));
  await closeDb();
}
