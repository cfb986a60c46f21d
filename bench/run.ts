import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TEST_ENCRYPTION_KEY } from "../test/support/server";

// `npm run bench`: prints figures and never fails on them (a section that throws is reported and
// the rest still run). BENCH_ONLY=http,engine,… picks sections. Results go to bench/results/latest.json.
// Each section runs in a process of its own: the engine's half-gigabyte heap and reusable scratch
// (or the import's database) would otherwise still be there, and slow, when the cards are timed.
const SECTIONS: Record<string, { title: string; run: () => Promise<unknown> }> = {
  http: {
    title: "HTTP: landing page vs plain Express serving the same bytes (autocannon, 10 connections)",
    run: async () => (await import("./http")).benchHttp(Number(process.env.BENCH_SECONDS ?? 5)),
  },
  limits: {
    title:
      "Limits: 10 MB bodies beside small requests; 200 connections of mixed load (landing, blog, card, signed-in profile, search API)",
    run: async () => (await import("./limits")).benchLimits(Number(process.env.BENCH_SECONDS ?? 10)),
  },
  signedIn: {
    title: "Signed-in pages: server CPU per render of /profile and /profile/stats (a graded demo trader)",
    run: async () => (await import("./signed-in")).benchSignedIn(),
  },
  memory: {
    title: "Memory: heap used + external and RSS after a forced GC, idle vs after /profile/stats load",
    run: async () => (await import("./memory")).benchMemory(Number(process.env.BENCH_SECONDS ?? 20)),
  },
  live: {
    title:
      "Live channel: 1,000 open event streams on one process (memory after GC beside idle), a message's fan-out to 50 tabs, a page beside them",
    run: async () => (await import("./live")).benchLive(),
  },
  engine: {
    title: "Engine: grading a generated 1,000,000-trade ledger",
    run: async () => (await import("./engine")).benchEngine(),
  },
  engineCompare: {
    title: "Engine before and after: bench/engine.ts on BENCH_BASE's engine (from git) and this tree's, alternated",
    run: async () => (await import("./engine-compare")).benchEngineCompare(),
  },
  cli: {
    title: "CLI: `npm run grade` on the 1,000,000-trade ledger file vs a bare read + JSON.parse of it",
    run: async () => (await import("./cli")).benchCli(),
  },
  cards: {
    title: "Cards: render and serve performance-card PNGs",
    run: async () => (await import("./cards")).benchCards(),
  },
  community: {
    title: "Community: search, feed, profile (in process)",
    run: async () => (await import("./community")).benchCommunity(),
  },
  import: {
    title: "Import: a 100,000-trade Plaid history into the database",
    run: async () => (await import("./import")).benchImport(),
  },
  importJobs: {
    title:
      "Import through the job queue: the demo broker from link to first grade, a 5,600-swap EVM wallet in trades/s",
    run: async () => (await import("./import")).benchImportJobs(),
  },
  searchHttp: {
    title: "Trader search over HTTP on the seeded database, one signed-in client, beside /healthz (floor)",
    run: async () => (await import("./search-http")).benchSearchHttp(),
  },
  marketHttp: {
    title:
      "Market leaderboard page over HTTP on the seeded database, 10 connections over its sorts, beside /healthz (floor)",
    run: async () => (await import("./market-http")).benchMarketHttp(Number(process.env.BENCH_SECONDS ?? 10)),
  },
  linkAsync: {
    title:
      "Link → first grade through the demo Link page: Plaid's asynchronous history (30 days, then HISTORICAL_UPDATE), on the built server",
    run: async () => (await import("./link-async")).benchLinkAsync(),
  },
  importCopy: {
    title:
      "Import into PostgreSQL: 100,000 trades, saveImport of BENCH_BASE (default: main's unnest insert, from git) vs this tree's COPY vs PostgreSQL's own COPY (floor)",
    run: async () => (await import("./import")).benchImportCopy(),
  },
  evaluationDemo: {
    title: "Evaluation: the demo broker account, import included and excluded",
    run: async () => (await import("./evaluation")).benchDemoEvaluation(),
  },
  evaluation100k: {
    title: "Evaluation: a 100,000-trade account already imported",
    run: async () => (await import("./evaluation")).benchEvaluation(),
  },
  ledgerRead: {
    title: "Re-evaluating a 100,000-trade account: the ledger read vs a bare SELECT (floor); re-evaluation after",
    run: async () => (await import("./ledger-read")).benchLedgerRead(),
  },
  scale: {
    title:
      "Speed at 100k traders: search, market leaderboard, percentile, each beside the query it replaced and a bare query",
    run: async () => (await import("./scale")).benchScale(),
  },
  rateLimit: {
    title: "Rate limits: one hitLimit beside a bare select 1 on the same database and an argon2 password check",
    run: async () => (await import("./rate-limit")).benchRateLimit(),
  },
  cluster: {
    title:
      "Cluster: market page, signed-in profile and /healthz through nginx before one and two web replicas (PgBouncer), 10 and 200 connections",
    run: async () => (await import("./cluster")).benchCluster(Number(process.env.BENCH_SECONDS ?? 8)),
  },
  stats100k: {
    title: "Stats tab: analytics and a journal page of a 100,000-trade account (50,000 round trips), cold and cached",
    run: async () => (await import("./stats")).benchStats(),
  },
};

// One key for every section, in process or in a server it starts: on one database, what one
// sealed (the grade log's signing key, say) the next must read.
process.env.ENCRYPTION_KEY ||= TEST_ENCRYPTION_KEY;

const sectionArg = process.argv.indexOf("--section");
if (sectionArg > 0) {
  // Child: one section, its result (or error) written to the file the parent named.
  const name = process.argv[sectionArg + 1]!;
  let result: unknown;
  try {
    result = await SECTIONS[name]!.run();
  } catch (error) {
    result = { error: String((error as Error)?.stack ?? error) };
  }
  writeFileSync(process.argv[sectionArg + 2]!, JSON.stringify(result));
  process.exit(0);
}

const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAvg1m: os.loadavg()[0] },
  database: process.env.DATABASE_URL ? "postgres (DATABASE_URL)" : "pglite (in memory)",
};
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
const tmp = mkdtempSync(path.join(os.tmpdir(), "grader-bench-"));

for (const [name, { title }] of Object.entries(SECTIONS)) {
  if (only && !only.includes(name)) continue;
  console.log(`\n== ${title}`);
  const out = path.join(tmp, `${name}.json`);
  try {
    execFileSync(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "run.ts"), "--section", name, out],
      { stdio: "inherit" },
    );
    results[name] = JSON.parse(readFileSync(out, "utf8"));
  } catch (error) {
    results[name] = { error: String((error as Error)?.message ?? error) };
  }
  console.log(JSON.stringify(results[name], null, 2));
}
rmSync(tmp, { recursive: true, force: true });

const dir = path.join(import.meta.dirname, "results");
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "latest.json"), JSON.stringify(results, null, 2));
process.exit(0);
