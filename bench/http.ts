import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startServer } from "../test/support/server";
import { cpuMsOf } from "./proc";

type Figures = { requestsPerSec: number; p50Ms: number; p99Ms: number; cpuMsPerRequest: number | null; errors: number };

async function load(url: string, duration: number, pid: number): Promise<Figures> {
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon({
    url,
    connections: 10,
    duration,
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" },
  });
  const cpuAfter = cpuMsOf(pid);
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null
        ? null
        : Math.round(((cpuAfter - cpuBefore) / result.requests.total) * 1000) / 1000,
    errors: result.errors + result.non2xx,
  };
}

/** Starts bench/plain-server.ts on the landing's bytes; resolves with its URL, pid and a stop. */
async function startPlain(html: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "grader-plain-"));
  writeFileSync(path.join(dir, "landing.html"), html);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "plain-server.ts"), path.join(dir, "landing.html")],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()).port));
    child.once("exit", (code) => reject(new Error(`plain server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The cached landing page beside a plain Express route serving the same bytes, each server in a
 * process of its own, alternated over `rounds` (so the machine's load falls on both alike). Two
 * ratios: requests/s (the figure, noisy under load) and CPU per request (plain ÷ landing,
 * what the requests/s ratio is on an idle machine where both are CPU-bound).
 */
export async function benchHttp(duration = 5, rounds = Number(process.env.BENCH_ROUNDS ?? 3)) {
  const server = await startServer({ LOG_REQUESTS: "0", RATE_LIMIT_FACTOR: "1000" });
  const serverPid = server.process.pid!;
  try {
    const landing = await (await fetch(server.url + "/")).text();
    const plain = await startPlain(landing);
    try {
      await load(server.url + "/", 1, serverPid); // warm-up
      await load(plain.url + "/", 1, plain.pid);
      const runs: { landing: Figures; plainExpress: Figures; plainExpressBehindCompression: Figures }[] = [];
      for (let i = 0; i < rounds; i++) {
        const landingRun = await load(server.url + "/", duration, serverPid);
        const plainRun = await load(plain.url + "/", duration, plain.pid);
        // compression() for every request, as server.ts had it before it skipped requests that
        // accept no encoding (autocannon's): the middleware's bookkeeping alone.
        const wrapped = await load(plain.url + "/compressed", Math.max(2, Math.floor(duration / 2)), plain.pid);
        runs.push({ landing: landingRun, plainExpress: plainRun, plainExpressBehindCompression: wrapped });
      }
      const landingUncached = await load(server.url + "/?uncached=1", Math.max(2, Math.floor(duration / 2)), serverPid);
      const cpuRatios = runs.flatMap((r) =>
        r.landing.cpuMsPerRequest && r.plainExpress.cpuMsPerRequest
          ? [r.plainExpress.cpuMsPerRequest / r.landing.cpuMsPerRequest]
          : [],
      );
      return {
        loadAvg1m: round2(os.loadavg()[0]!),
        ratio: round2(median(runs.map((r) => r.landing.requestsPerSec / r.plainExpress.requestsPerSec))),
        cpuRatio: cpuRatios.length ? round2(median(cpuRatios)) : null,
        runs,
        // The same page rendered by Remix for every request (a query string bypasses the cache).
        landingUncached,
        landingBytes: Buffer.byteLength(landing),
      };
    } finally {
      plain.stop();
    }
  } finally {
    await server.stop();
  }
}
