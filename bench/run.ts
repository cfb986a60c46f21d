import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchHttp } from "./http";

// `npm run bench`: prints figures, never fails on them. Results also go to bench/results/latest.json.
const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
};

console.log("HTTP: landing page vs plain Express serving the same bytes (autocannon, 10 connections)…");
results.http = await benchHttp(Number(process.env.BENCH_SECONDS ?? 5));
console.log(JSON.stringify(results.http, null, 2));

const enginePath = path.join(import.meta.dirname, "engine.ts");
if (existsSync(enginePath)) {
  console.log("Engine: grading a generated 1,000,000-trade ledger…");
  const { benchEngine } = await import("./engine");
  results.engine = await benchEngine();
  console.log(JSON.stringify(results.engine, null, 2));
}

const dir = path.join(import.meta.dirname, "results");
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "latest.json"), JSON.stringify(results, null, 2));
