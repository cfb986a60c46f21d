// CLI: npm run --silent grade -- path/to/ledger.json [--timings] [--digest] [--population scores.json]
// Prints the canonical evaluation JSON on stdout. Invalid ledger → exit 2, one `path: reason` per
// line on stderr. Unreadable file or bad usage → exit 1. `--zod` validates with the zod schema
// alone (the slow reference; bench/cli.ts compares the two). The file may be a ledger or the
// JSON API's answer `{ "data": ledger }` (GET /api/portal/ledger); `--digest` adds
// `{"ledgerDigest": …}` on stderr, to compare with the stored grade's.
import { readFileSync } from "node:fs";
import { canonicalJson, grade, ledgerDigest, parseLedger, prepareLedger } from "../app/grading/index";

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: grade <ledger.json> [--timings] [--digest] [--population <scores.json>] [--zod]\n`,
  );
  process.exit(1);
}

const args = process.argv.slice(2);
let file: string | undefined;
let timings = false;
let populationFile: string | undefined;
let zod = false;
let digest = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--timings") timings = true;
  else if (a === "--zod") zod = true;
  else if (a === "--digest") digest = true;
  else if (a === "--population") populationFile = args[++i] ?? usage("--population needs a file");
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else if (file === undefined) file = a;
  else usage(`unexpected argument ${a}`);
}
if (file === undefined) usage("missing ledger file");

// The file as one string (less peak memory than a Buffer and its copy as a string), parsed, and
// the string dropped at once so that it can be collected before grading allocates.
const t0 = performance.now();
let text: string | undefined;
try {
  text = readFileSync(file, "utf8");
} catch (e) {
  process.stderr.write(`cannot read ${file}: ${(e as Error).message}\n`);
  process.exit(1);
}
const t1 = performance.now();
let value: unknown;
try {
  value = JSON.parse(text);
} catch {
  value = text; // parseLedger words the JSON error
}
text = undefined;
// The JSON API's envelope, as GET /api/portal/ledger answers.
if (value !== null && typeof value === "object" && !("trades" in value) && "data" in value)
  value = (value as { data: unknown }).data;
const t2 = performance.now();

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

// The clock, for the engine to refuse a ledger without asOf that has items dated in the future.
const parsed = parseLedger(value, { zod, now: Date.now() });
value = undefined;
const t3 = performance.now();
if (!parsed.ok) {
  process.stderr.write(parsed.problems.join("\n") + "\n");
  process.exit(2);
}
const prepared = prepareLedger(parsed.ledger);
const t4 = performance.now();
const evaluation = grade(prepared, population ? { population } : {});
const t5 = performance.now();
process.stdout.write(canonicalJson(evaluation) + "\n");
if (digest) process.stderr.write(JSON.stringify({ ledgerDigest: ledgerDigest(parsed.ledger) }) + "\n");
if (timings) {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  process.stderr.write(
    JSON.stringify({
      readMs: r(t1 - t0),
      parseMs: r(t2 - t1),
      validateMs: r(t3 - t2),
      prepareMs: r(t4 - t3),
      gradeMs: r(t5 - t4),
    }) + "\n",
  );
}
