import { performance } from "node:perf_hooks";

// The Stats tab's cost for a 100,000-trade account (50,000 round trips): one request reads the
// stored ledger (gunzip + JSON.parse), lists its round trips (one engine pass), computes every
// analytic and one journal page. In process, on PGlite (default) or DATABASE_URL's PostgreSQL.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";

const { getDb, migrateToLatest, dbKind } = await import("../app/server/platform/db.server");
const { evaluateUser, gradeReportFor } = await import("../app/server/grades/evaluation.server");
const { linkAccount, saveImport } = await import("../app/server/linking/imports.server");
const { evaluationLedger } = await import("../app/server/grades/ledger.server");
const { statsPage } = await import("../app/server/grades/analytics.server");
const { listRoundTrips } = await import("../app/grading/index");
const { analyse } = await import("../app/analytics/index");
const { journalPage, DEFAULT_JOURNAL_QUERY } = await import("../app/analytics/journal");
type Batch = Parameters<typeof saveImport>[1];

const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! * 10) / 10;

/** Round trips in 2,000 symbols (one open at a time in each): a buy, then a sell of the same quantity minutes to weeks later. */
function roundTripHistory(trades: number, seed = 11): Batch {
  let x = seed;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const start = Date.UTC(2025, 0, 2);
  const span = 365 * 86_400_000;
  const out: Batch["trades"] = [];
  for (let i = 0; i < trades / 2; i++) {
    const symbol = `S${i % 2000}`;
    const open = start + (i / (trades / 2)) * span;
    const hold = [30 * 60_000, 6 * 3_600_000, 3 * 86_400_000][i % 3]! * (0.5 + rand());
    const quantity = 1 + Math.floor(rand() * 20);
    const price = 20 + rand() * 200;
    out.push({
      externalId: `o${i}`,
      time: new Date(open),
      symbol,
      assetClass: "stock",
      side: "buy",
      quantity,
      price,
      fee: 0.5,
    });
    out.push({
      externalId: `c${i}`,
      time: new Date(open + hold),
      symbol,
      assetClass: "stock",
      side: "sell",
      quantity,
      price: price * (0.97 + rand() * 0.065),
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

export async function benchStats(opts: { trades?: number; runs?: number } = {}) {
  const trades = opts.trades ?? 100_000;
  const runs = opts.runs ?? 5;
  await migrateToLatest();
  const db = await getDb();
  const user = await db
    .insertInto("users")
    .values({ email: `bench-stats-${Date.now()}@example.com`, extra_tries: 1000, time_zone: "America/New_York" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const link = await linkAccount({
    userId: user.id,
    kind: "plaid",
    fingerprint: `plaid:bench-stats:${Date.now()}`,
    label: "Bench brokerage",
  });
  if (!link.ok) throw new Error("link failed");
  await saveImport(link.id, roundTripHistory(trades));
  const out = await evaluateUser(user.id, "all", async () => {});
  if (out.code !== 200) throw new Error(`unexpected code ${out.code}`);

  const page: number[] = [];
  const parts = {
    reportMs: [] as number[],
    ledgerMs: [] as number[],
    tripsMs: [] as number[],
    analyseMs: [] as number[],
    journalMs: [] as number[],
  };
  let tripCount = 0;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const result = await statsPage(user.id, user.id, new URLSearchParams("sort_by=return&order=asc&page=3"));
    page.push(performance.now() - t);
    tripCount = result.analytics?.trips ?? 0;
    // The same steps one by one (the page runs the report and the ledger read in parallel).
    t = performance.now();
    const report = await gradeReportFor(user.id, user.id);
    parts.reportMs.push(performance.now() - t);
    t = performance.now();
    const found = await evaluationLedger(user.id);
    parts.ledgerMs.push(performance.now() - t);
    t = performance.now();
    const list = listRoundTrips(found!.ledger);
    parts.tripsMs.push(performance.now() - t);
    t = performance.now();
    analyse(report!.evaluation.curve, list, { timeZone: "America/New_York" });
    parts.analyseMs.push(performance.now() - t);
    t = performance.now();
    journalPage(list, { ...DEFAULT_JOURNAL_QUERY, sort_by: "return", order: "asc", page: 3 });
    parts.journalMs.push(performance.now() - t);
  }
  return {
    db: await dbKind(),
    trades,
    roundTrips: tripCount,
    // The first request reads the stored ledger; later ones (journal pages) find the round trips cached.
    statsPageColdMs: Math.round(page[0]! * 10) / 10,
    statsPageWarmMsMedian: median(page.slice(1)),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, median(v)])),
  };
}
