import { performance } from "node:perf_hooks";
import { sql } from "kysely";

// Re-evaluating a 100,000-trade account (issue 18): the ledger read (`buildUserLedger`, from the
// account's snapshot, DECISIONS 141) beside the floor (a bare SELECT of the same rows through pg,
// no order, no formatting), alternated in one run, and the whole re-evaluation after: nothing new
// (2002, the read and its digest) and one new trade (graded, stored). PostgreSQL of DATABASE_URL,
// or PGlite in memory. BENCH_TRADES and BENCH_ROUNDS make it smaller.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
process.env.LOG_LEVEL ??= "error";
// The re-grades below are one trader's, many times: more than the day's default bound.
process.env.AUTO_GRADES_PER_DAY ??= "1000000";

const { getDb, migrateToLatest, closeDb, dbKind } = await import("../app/server/platform/db.server");
const { buildUserLedger } = await import("../app/server/grades/ledger.server");
const { evaluateUser } = await import("../app/server/grades/evaluation.server");
const { linkAccount, saveImport } = await import("../app/server/linking/imports.server");
const { generatedHistory } = await import("./evaluation");
const { canonicalJson, canonicalLedger } = await import("../app/grading/canonical");
const { checkoutRevision, importFromCheckout, removeCheckout } = await import("./git-revision");

/**
 * main's canonical JSON writer before session 7 (a string array, keys sorted per object): the
 * canonicalJson of CANONICAL_BASE, taken out of git (bench/git-revision.ts), not a copy kept here.
 */
const CANONICAL_BASE = "96199fa^";
async function canonicalJsonOf(rev: string): Promise<{ json: (value: unknown) => string; dir: string }> {
  const dir = checkoutRevision(rev, ["app/grading", "app/lib"]);
  const mod = await importFromCheckout<{ canonicalJson: unknown }>(dir, ["app/grading/canonical.ts"]);
  return { json: mod.canonicalJson as (value: unknown) => string, dir };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
};

export async function benchLedgerRead(opts: { trades?: number; runs?: number } = {}) {
  const trades = opts.trades ?? Number(process.env.BENCH_TRADES ?? 100_000);
  const runs = opts.runs ?? Number(process.env.BENCH_ROUNDS ?? 7);
  const { startProviderMocks } = await import("../test/mocks/index");
  // The grade's benchmark series comes from the price source, simulated here.
  const mocks = await startProviderMocks({ prices: true });
  try {
    await migrateToLatest();
    const db = await getDb();
    const stamp = `${Date.now()}-${process.pid}`;
    const user = await db
      .insertInto("users")
      .values({ email: `bench-read-${stamp}@example.com`, extra_tries: 1000 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const link = await linkAccount({ userId: user.id, kind: "plaid", fingerprint: `plaid:read:${stamp}`, label: "B" });
    if (!link.ok) throw new Error("link failed");
    const history = generatedHistory(trades);
    await saveImport(link.id, history);
    // As autovacuum would leave it (it is off on some machines, where earlier sections' churn, the
    // import bench's deleted rows, would otherwise slow every index scan here).
    if ((await dbKind()) === "postgres") await sql`vacuum analyze trades`.execute(db);
    const asOf = new Date();
    // The first read makes the account's snapshot (test/integration/ledger-read.test.ts holds the
    // read to what a read of every row gives).
    const first = await buildUserLedger(user.id, asOf);
    if (first.ledger.trades.length !== history.trades.length) throw new Error("the read gives other trades");

    const wall: Record<string, number[]> = { read: [], floor: [] };
    const cpu: Record<string, number[]> = { read: [], floor: [] };
    const steps: Record<string, () => Promise<unknown>> = {
      read: () => buildUserLedger(user.id, asOf),
      floor: () =>
        sql`select external_id, linked_account_id, time, symbol, asset_class, side, quantity, price, fee
            from trades where linked_account_id = ${link.id}`.execute(db),
    };
    for (let i = 0; i < runs; i++)
      for (const [name, step] of Object.entries(steps)) {
        const t = performance.now();
        const c = process.cpuUsage();
        await step();
        const used = process.cpuUsage(c);
        wall[name]!.push(performance.now() - t);
        cpu[name]!.push((used.user + used.system) / 1000);
      }

    const noop = async () => {};
    // As the re-grade job after an import runs it (automatic: no try spent): nothing new (2002),
    // then one new trade, `runs` times.
    const regrades = async (userId: number, linkId: number, trades: typeof history.trades) => {
      const nothingNew: number[] = [];
      const oneNew: number[] = [];
      await evaluateUser(userId, "all", noop, { automatic: true });
      for (let i = 0; i < runs; i++) {
        let t = performance.now();
        const same = await evaluateUser(userId, "all", noop, { automatic: true });
        nothingNew.push(performance.now() - t);
        if (same.code !== 2002) throw new Error(`expected 2002, got ${same.code}`);
        await saveImport(linkId, {
          trades: [{ ...trades[0]!, externalId: `extra${i}`, time: new Date(asOf.getTime() - 60_000 + i) }],
          cashFlows: [],
          marks: [],
          payloads: [],
        });
        t = performance.now();
        const graded = await evaluateUser(userId, "all", noop, { automatic: true });
        oneNew.push(performance.now() - t);
        if (graded.code !== 200) throw new Error(`expected 200, got ${graded.code}`);
      }
      return { nothingNew: median(nothingNew), oneNew: median(oneNew) };
    };
    // The generated prices carry every digit of a double, so the kept ledger is written beside
    // the digest's rounded one (DECISIONS 140); a broker's prices in cents need no second text.
    const full = await regrades(user.id, link.id, history.trades);
    const centsUser = await db
      .insertInto("users")
      .values({ email: `bench-read-cents-${stamp}@example.com`, extra_tries: 1000 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const centsLink = await linkAccount({
      userId: centsUser.id,
      kind: "plaid",
      fingerprint: `plaid:read-cents:${stamp}`,
      label: "C",
    });
    if (!centsLink.ok) throw new Error("link failed");
    const centsTrades = history.trades.map((t) => ({ ...t, price: Math.round(t.price * 100) / 100 }));
    await saveImport(centsLink.id, { ...history, trades: centsTrades });
    const cents = await regrades(centsUser.id, centsLink.id, centsTrades);
    // After the re-evaluations (its 100,000 objects would otherwise slow their GCs): the stored
    // ledger's digest text: main's writer before this session (from git) and
    // canonicalJson now, alternated on the same canonical ledger; the texts must be identical.
    const canonical = canonicalLedger((await buildUserLedger(user.id, asOf)).ledger);
    const digestMs: Record<string, number[]> = { before: [], after: [] };
    const base = await canonicalJsonOf(CANONICAL_BASE);
    const canonicalJsonBefore = base.json;
    removeCheckout(base.dir);
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const a = canonicalJsonBefore(canonical);
      digestMs.before!.push(performance.now() - t);
      t = performance.now();
      const b = canonicalJson(canonical);
      digestMs.after!.push(performance.now() - t);
      if (a !== b) throw new Error("canonical JSON differs from main's writer");
    }

    return {
      db: await dbKind(),
      trades,
      runs,
      readMsP50: { read: median(wall.read!), floor: median(wall.floor!) },
      readCpuMsP50: { read: median(cpu.read!), floor: median(cpu.floor!) },
      canonicalJsonMsP50: { before: median(digestMs.before!), after: median(digestMs.after!) },
      reevaluateNothingNewMsP50: full.nothingNew,
      reevaluateOneNewTradeMsP50: full.oneNew,
      centsPrices: { reevaluateNothingNewMsP50: cents.nothingNew, reevaluateOneNewTradeMsP50: cents.oneNew },
    };
  } finally {
    mocks?.server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchLedgerRead(), null, 2));
  await closeDb();
}
