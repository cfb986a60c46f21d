// The engine before and after a change, measured in one run: bench/engine.ts on the engine of a git
// revision (taken out of git into a temporary folder, never kept in the repo) and on this working
// tree's, alternating, each run in a process of its own. First both engines grade the same
// generated ledgers and their evaluations are compared byte for byte.
//
//   npx tsx bench/engine-compare.ts <rev> [pairs]      (or BENCH_ONLY=engineCompare BENCH_BASE=<rev> npm run bench)
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateLedger, loadEngine } from "./engine";
import { checkoutRevision, removeCheckout, ROOT, shortCommit } from "./git-revision";

/** Figures of bench/engine.ts compared (each engine's median over its runs). */
const FIGURES = ["gradeMsP50", "gradeMsMin", "gradeCpuMsP50", "prepareMsP50", "endToEndMsP50"] as const;

/** The engine (app/grading and the app/lib it imports) of `rev`, in a temporary folder. */
export function extractEngine(rev: string): string {
  return checkoutRevision(rev, ["app/grading", "app/lib"]);
}

/** Both engines' evaluations and round-trip lists of a few generated ledgers, compared as JSON. */
async function sameOutputs(baseDir: string): Promise<string[]> {
  const before = await loadEngine(baseDir);
  const after = await loadEngine();
  const full = generateLedger(100_000, 200, 7);
  const ledgers = {
    "100k trades with cash flows": full,
    "100k trades, implied funding": { ...full, cashFlows: [] },
    "100k trades cut at asOf, one trade's time as given": { ...full, asOf: full.trades[60_000].time },
  };
  const checked: string[] = [];
  for (const [name, ledger] of Object.entries(ledgers)) {
    for (const prepared of [false, true]) {
      const a = before.grade(prepared ? before.prepareLedger(ledger) : ledger);
      const b = after.grade(prepared ? after.prepareLedger(ledger) : ledger);
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`evaluations differ: ${name}, prepared ${prepared}`);
    }
    if (JSON.stringify(before.listRoundTrips(ledger)) !== JSON.stringify(after.listRoundTrips(ledger)))
      throw new Error(`round trips differ: ${name}`);
    checked.push(name);
  }
  return checked;
}

function runEngineBench(dir: string | undefined): Record<string, number | string> {
  const out = execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/engine.ts")], {
    cwd: ROOT,
    env: { ...process.env, BENCH_ENGINE_DIR: dir ?? "" },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.toString());
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `pairs` runs of each engine, alternating (which goes first alternates too). */
export async function benchEngineCompare(rev = process.env.BENCH_BASE, pairs = 3) {
  if (!rev) return { skipped: "name the revision to compare with: BENCH_BASE=<rev>" };
  const commit = shortCommit(rev);
  const dir = extractEngine(rev);
  try {
    const identical = await sameOutputs(dir);
    const runs: { before: Record<string, number | string>[]; after: Record<string, number | string>[] } = {
      before: [],
      after: [],
    };
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
      for (const which of order) runs[which].push(runEngineBench(which === "before" ? dir : undefined));
    }
    const summary = (rs: Record<string, number | string>[]) =>
      Object.fromEntries(FIGURES.map((f) => [f, median(rs.map((r) => Number(r[f])))]));
    return {
      base: commit,
      pairs,
      identical,
      before: summary(runs.before),
      after: summary(runs.after),
      loadAvg1m: runs.before.concat(runs.after).map((r) => r.loadAvg1m),
      runs,
    };
  } finally {
    removeCheckout(dir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [rev, pairs] = process.argv.slice(2);
  benchEngineCompare(rev, pairs ? Number(pairs) : undefined).then((r) => console.log(JSON.stringify(r, null, 2)));
}
