// CLI benchmark: `npm run --silent grade -- big.json` end to end beside a bare Node process that
// only reads and JSON.parses the same file (the floor), each run in a process of its own and
// measured by GNU time (wall time and peak RSS; for `npm run`, the largest of its processes).
// Also the previous CLI (`--zod`: the zod schema validates and copies every object). The file is
// bench/engine.ts's 1,000,000-trade ledger. Run alone with `npx tsx bench/cli.ts`.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateLedger } from "./engine";

const TIME = "/usr/bin/time";
const ROOT = path.join(import.meta.dirname, "..");
const RUNS = 3;

type Run = { seconds: number; cpuSeconds: number; peakMb: number; stdout: string; timings?: Record<string, number> };

/**
 * One command under GNU time: `%e %M %U %S` (wall seconds, peak RSS in KB, user and system CPU
 * seconds of it and its children) is the last line of its stderr.
 */
function timed(command: string, args: string[]): Run {
  const r = spawnSync(TIME, ["-f", "%e %M %U %S", command, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = r.stderr.trim().split("\n");
  const m = /^([\d.]+) (\d+) ([\d.]+) ([\d.]+)$/.exec(lines[lines.length - 1] ?? "");
  if (r.status !== 0 || m === null)
    throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const timingLine = lines.find((l) => l.startsWith('{"readMs"'));
  return {
    seconds: Number(m[1]),
    cpuSeconds: round(Number(m[3]) + Number(m[4]), 2),
    peakMb: Number(m[2]) / 1024,
    stdout: r.stdout,
    timings: timingLine ? JSON.parse(timingLine) : undefined,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function benchCli(): Promise<Record<string, unknown>> {
  if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed: apt-get install time`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "grader-cli-"));
  const file = path.join(dir, "big.json");
  try {
    writeFileSync(file, JSON.stringify(generateLedger()));
    const mb = statSync(file).size / 1024 / 1024;
    const floorCode = 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))';
    const bufferCode = 'JSON.parse(require("fs").readFileSync(process.argv[1]).toString())';
    const floor: Run[] = [];
    const cli: Run[] = [];
    // Alternated, so that a change in the machine's load falls on both.
    for (let i = 0; i < RUNS; i++) {
      floor.push(timed(process.execPath, ["-e", floorCode, file]));
      cli.push(timed("npm", ["run", "--silent", "grade", "--", file, "--timings"]));
    }
    const buffer = timed(process.execPath, ["-e", bufferCode, file]);
    const zod = timed("npm", ["run", "--silent", "grade", "--", file, "--timings", "--zod"]);
    const floorS = median(floor.map((r) => r.seconds));
    const floorMb = median(floor.map((r) => r.peakMb));
    const cliS = median(cli.map((r) => r.seconds));
    const cliMb = median(cli.map((r) => r.peakMb));
    // CPU time (user + system, all processes) is less sensitive to other load on the machine.
    const floorCpu = median(floor.map((r) => r.cpuSeconds));
    const cliCpu = median(cli.map((r) => r.cpuSeconds));
    const stages = Object.fromEntries(
      Object.keys(cli[0].timings ?? {}).map((k) => [k, round(median(cli.map((r) => r.timings![k])), 0)]),
    );
    return {
      fileMb: round(mb),
      runs: RUNS,
      floorSeconds: floorS,
      floorPeakMb: round(floorMb, 0),
      floorBufferSeconds: buffer.seconds,
      floorBufferPeakMb: round(buffer.peakMb, 0),
      cliSeconds: cliS,
      cliPeakMb: round(cliMb, 0),
      timeRatio: round(cliS / floorS, 2),
      floorCpuSeconds: floorCpu,
      cliCpuSeconds: cliCpu,
      cpuRatio: round(cliCpu / floorCpu, 2),
      memoryRatio: round(cliMb / floorMb, 2),
      cliStagesMsP50: stages,
      zodSeconds: zod.seconds,
      zodPeakMb: round(zod.peakMb, 0),
      zodTimeRatio: round(zod.seconds / floorS, 2),
      zodCpuSeconds: zod.cpuSeconds,
      zodMemoryRatio: round(zod.peakMb / floorMb, 2),
      zodStagesMs: Object.fromEntries(Object.entries(zod.timings ?? {}).map(([k, v]) => [k, round(v, 0)])),
      sameOutput: cli.every((r) => r.stdout === zod.stdout) ? "yes" : "NO",
      loadAvg1m: round(os.loadavg()[0]),
      node: execFileSync(process.execPath, ["-v"], { encoding: "utf8" }).trim(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  benchCli().then((r) => console.log(JSON.stringify(r, null, 2)));
}
