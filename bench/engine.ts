// Engine benchmark: a deterministic 1,000,000-trade ledger over 500 symbols and one year,
// graded once to warm up and then RUNS times. Run alone with `npx tsx bench/engine.ts`; with
// BENCH_ENGINE_DIR set, on the engine under that folder (an older revision's, see engine-compare.ts).
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { pathToFileURL } from "node:url";
import type { Evaluation, Ledger } from "../app/grading/index";
import { mulberry32 } from "../test/mocks/random";

const TRADES = 1_000_000;
const SYMBOLS = 500;
const ACCOUNTS = 4;
const RUNS = 7;
const YEAR_MS = 365 * 86_400_000;
const START = Date.UTC(2024, 0, 1, 14, 30);

type AssetClass = Ledger["trades"][number]["assetClass"];

/**
 * Deterministic ledger: trades spread evenly over one year (one every ~31.5 s), random symbol and
 * account, a random-walk price per symbol, realistic position management (adds, partial and full
 * closes, 20 % of new stock/ETF/option positions opened short; crypto never short, fractional),
 * a 0.05 % fee; four initial deposits, one mid-year deposit and one withdrawal.
 */
export function generateLedger(trades = TRADES, symbols = SYMBOLS, seed = 42): Ledger {
  const rand = mulberry32(seed);
  const cls = (s: number): AssetClass => (s < 400 ? "stock" : s < 450 ? "etf" : s < 490 ? "crypto" : "option");
  const names = Array.from({ length: symbols }, (_, s) => `SYM${String(s).padStart(3, "0")}`);
  const accounts = Array.from({ length: ACCOUNTS }, (_, a) => `acct-${a}`);
  const price = Array.from({ length: symbols }, () => 20 + rand() * 480);
  const position = new Float64Array(symbols * ACCOUNTS);
  const out: Ledger["trades"] = new Array(trades);
  const step = Math.floor(YEAR_MS / trades);
  for (let k = 0; k < trades; k++) {
    const s = Math.floor(rand() * symbols);
    const a = Math.floor(rand() * ACCOUNTS);
    const key = s * ACCOUNTS + a;
    price[s] *= 1 + (rand() - 0.4995) * 0.01;
    const px = Math.round(price[s] * 100) / 100;
    const c = cls(s);
    const pq = position[key];
    let side: "buy" | "sell";
    let q: number;
    const unit = c === "crypto" ? Math.round(rand() * 1e6) / 1e6 + 0.001 : 1 + Math.floor(rand() * 100);
    const r = rand();
    if (pq === 0) {
      side = c !== "crypto" && r < 0.2 ? "sell" : "buy";
      q = unit;
    } else if (r < 0.45) {
      side = pq > 0 ? "buy" : "sell";
      q = unit;
    } else {
      side = pq > 0 ? "sell" : "buy";
      q = r < 0.8 ? Math.abs(pq) : Math.min(Math.abs(pq), unit);
    }
    position[key] = pq + (side === "buy" ? q : -q);
    if (Math.abs(position[key]) < 1e-9) position[key] = 0;
    out[k] = {
      id: `t${String(k).padStart(7, "0")}`,
      account: accounts[a],
      time: new Date(START + k * step).toISOString(),
      symbol: names[s],
      assetClass: c,
      side,
      quantity: q,
      price: px,
      fee: Math.round(q * px * 0.0005 * 100) / 100,
    };
  }
  const cashFlows: Ledger["cashFlows"] = accounts.map((account, a) => ({
    account,
    time: new Date(START - 86_400_000 + a * 1000).toISOString(),
    amount: 2_000_000,
  }));
  cashFlows.push({ account: accounts[0], time: new Date(START + YEAR_MS / 2).toISOString(), amount: 500_000 });
  cashFlows.push({ account: accounts[1], time: new Date(START + (YEAR_MS * 3) / 4).toISOString(), amount: -250_000 });
  return { trades: out, cashFlows, prices: [], events: [] };
}

function gcFn(): (() => void) | null {
  try {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
}

/**
 * A full collection, then a pause: V8 finishes sweeping the collected heap on background threads
 * after gc() returns, which would otherwise compete with the timed call for this machine's 2 cores.
 */
async function collect(gc: (() => void) | null): Promise<void> {
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const mem = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * prepareMs*: wall time of prepareLedger() (the columnar form, part of parsing: validation walks
 * the same objects). gradeMs*: wall time of grade() on the prepared ledger, the whole evaluation.
 * endToEndMs*: grade() on the validated ledger objects (prepare + grade), as the server calls it.
 * engineHeapMb: largest growth of JS heap + ArrayBuffers across one grade() call, measured from a
 * collected heap and without collecting during the call (so garbage counts too), warm runs.
 * scratchMb: typed-array scratch the engine keeps between calls (see app/grading/scratch.ts);
 * it is allocated by the warm-up and is not part of engineHeapMb, so the engine's memory beyond
 * the parsed input is engineHeapMb + scratchMb.
 */
export async function benchEngine(dir = process.env.BENCH_ENGINE_DIR): Promise<Record<string, number | string>> {
  const gc = gcFn();
  const ledger = generateLedger();
  const { grade, prepareLedger, scratchBytes } = await loadEngine(dir);
  const prepareTimes: number[] = [];
  let prepared = prepareLedger(ledger);
  let preparedBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    await collect(gc);
    const before = mem();
    const t0 = performance.now();
    prepared = prepareLedger(ledger);
    prepareTimes.push(performance.now() - t0);
    preparedBytes = Math.max(preparedBytes, mem() - before);
  }
  await collect(gc);
  const beforeWarm = mem();
  grade(prepared); // warm-up (JIT, scratch buffers)
  const warmGrowth = mem() - beforeWarm;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let engineBytes = 0;
  let result = null as Evaluation | null;
  for (let i = 0; i < RUNS; i++) {
    result = null;
    await collect(gc);
    const before = mem();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = grade(prepared);
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpuTimes.push((c.user + c.system) / 1000);
    engineBytes = Math.max(engineBytes, mem() - before);
    times.push(ms);
  }
  const endToEnd: number[] = [];
  for (let i = 0; i < 3; i++) {
    await collect(gc);
    const t0 = performance.now();
    grade(ledger);
    endToEnd.push(performance.now() - t0);
  }
  for (const xs of [times, cpuTimes, prepareTimes, endToEnd]) xs.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  const MB = 1024 * 1024;
  return {
    trades: ledger.trades.length,
    symbols: SYMBOLS,
    runs: RUNS,
    prepareMsP50: round(prepareTimes[Math.floor(prepareTimes.length / 2)]),
    preparedMb: round(preparedBytes / MB),
    gradeMsP50: round(times[Math.floor(times.length / 2)]),
    gradeMsMin: round(times[0]),
    gradeMsMax: round(times[times.length - 1]),
    // CPU time of the process during grade() (less sensitive to other load on the machine).
    gradeCpuMsP50: round(cpuTimes[Math.floor(cpuTimes.length / 2)]),
    endToEndMsP50: round(endToEnd[1]),
    loadAvg1m: round(os.loadavg()[0]),
    peakRssMb: round(process.resourceUsage().maxRSS / 1024),
    engineHeapMb: round(engineBytes / MB),
    scratchMb: round(scratchBytes() / MB),
    firstGradeGrowthMb: round(warmGrowth / MB),
    roundTrips: result!.metrics.roundTrips,
    tier: String(result!.tier),
    gcExposed: gc ? "yes" : "no",
  };
}

type Engine = typeof import("../app/grading/index") & typeof import("../app/grading/scratch");

/** The engine of this working tree, or the one under `dir` (a folder holding app/grading). */
export async function loadEngine(dir?: string): Promise<Engine> {
  const root = dir
    ? pathToFileURL(path.join(dir, "app/grading/")).href
    : new URL("../app/grading/", import.meta.url).href;
  return { ...(await import(`${root}index.ts`)), ...(await import(`${root}scratch.ts`)) } as Engine;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  benchEngine().then((r) => console.log(JSON.stringify(r, null, 2)));
}
