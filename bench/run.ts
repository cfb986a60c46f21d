import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// `npm run bench`: prints figures and never fails on them (a section that throws is reported and
// the rest still run). BENCH_ONLY=http,engine,… picks sections. Results go to bench/results/latest.json.
const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAvg1m: os.loadavg()[0] },
  database: process.env.DATABASE_URL ? "postgres (DATABASE_URL)" : "pglite (in memory)",
};
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());

async function section(name: string, title: string, run: () => Promise<unknown>) {
  if (only && !only.includes(name)) return;
  console.log(`\n== ${title}`);
  try {
    results[name] = await run();
  } catch (error) {
    results[name] = { error: String((error as Error)?.stack ?? error) };
  }
  console.log(JSON.stringify(results[name], null, 2));
}

await section("http", "HTTP: landing page vs plain Express serving the same bytes (autocannon, 10 connections)", async () =>
  (await import("./http")).benchHttp(Number(process.env.BENCH_SECONDS ?? 5)),
);
await section("engine", "Engine: grading a generated 1,000,000-trade ledger", async () => (await import("./engine")).benchEngine());
await section("cards", "Cards: render and serve performance-card PNGs", async () => (await import("./cards")).benchCards());
await section("community", "Community: search, feed, profile (in process)", async () => (await import("./community")).benchCommunity());
await section("import", "Import: a 100,000-trade Plaid history into the database", async () => (await import("./import")).benchImport());
await section("evaluationDemo", "Evaluation: the demo broker account, import included and excluded", async () => (await import("./evaluation")).benchDemoEvaluation());
await section("evaluation100k", "Evaluation: a 100,000-trade account already imported", async () => (await import("./evaluation")).benchEvaluation());

const dir = path.join(import.meta.dirname, "results");
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "latest.json"), JSON.stringify(results, null, 2));
process.exit(0);
