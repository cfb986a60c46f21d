// CLI: npm run --silent grade -- path/to/ledger.json [--timings] [--population scores.json]
// Prints the canonical evaluation JSON on stdout. Invalid ledger → exit 2, one `path: reason` per
// line on stderr. Unreadable file or bad usage → exit 1.
import { readFileSync } from "node:fs";
import { canonicalJson, grade, parseLedger, prepareLedger } from "../app/grading/index";

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: grade <ledger.json> [--timings] [--population <scores.json>]\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
let file: string | undefined;
let timings = false;
let populationFile: string | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--timings") timings = true;
  else if (a === "--population") populationFile = args[++i] ?? usage("--population needs a file");
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else if (file === undefined) file = a;
  else usage(`unexpected argument ${a}`);
}
if (file === undefined) usage("missing ledger file");

let text: string;
try {
  text = readFileSync(file, "utf8");
} catch (e) {
  process.stderr.write(`cannot read ${file}: ${(e as Error).message}\n`);
  process.exit(1);
}

let population: number[] | undefined;
if (populationFile !== undefined) {
  try {
    const p = JSON.parse(readFileSync(populationFile, "utf8"));
    if (!Array.isArray(p) || !p.every((x) => typeof x === "number")) throw new Error("must be a JSON array of numbers");
    population = p;
  } catch (e) {
    process.stderr.write(`cannot read population ${populationFile}: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

const t0 = performance.now();
const parsed = parseLedger(text);
const t1 = performance.now();
if (!parsed.ok) {
  process.stderr.write(parsed.problems.join("\n") + "\n");
  process.exit(2);
}
const prepared = prepareLedger(parsed.ledger);
const t2 = performance.now();
const evaluation = grade(prepared, population ? { population } : {});
const t3 = performance.now();
process.stdout.write(canonicalJson(evaluation) + "\n");
if (timings) {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  process.stderr.write(JSON.stringify({ parseMs: r(t1 - t0), prepareMs: r(t2 - t1), gradeMs: r(t3 - t2) }) + "\n");
}
