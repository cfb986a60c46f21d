import os from "node:os";
import autocannon from "autocannon";
import { startServer, type RunningServer } from "../test/support/server";
import { gradedTrader } from "./limits";

type Memory = { heapUsedMB: number; externalMB: number; heapPlusExternalMB: number; rssMB: number };

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Asks the server (started with --expose-gc) to collect garbage, and reads the memory it logs. */
export async function memoryAfterGc(server: RunningServer): Promise<Memory> {
  const seen = server.logs.length;
  server.process.kill("SIGUSR2");
  for (let waited = 0; waited < 10_000; waited += 50) {
    for (const line of server.logs.slice(seen)) {
      if (!line.includes('"memory after gc"')) continue;
      const m = JSON.parse(line) as { heapUsed: number; external: number; rss: number };
      return {
        heapUsedMB: mb(m.heapUsed),
        externalMB: mb(m.external),
        heapPlusExternalMB: mb(m.heapUsed + m.external),
        rssMB: mb(m.rss),
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the server logged no memory figures (was it started with --expose-gc?)");
}

/**
 * Memory given back after load: heap used + external (and RSS) after a forced GC at idle (a graded
 * trader's /profile/stats rendered a few times), right after `duration` s of /profile/stats at 10
 * connections, and `waitSeconds` later. The target (issue 18): back within 10 % of idle.
 */
export async function benchMemory(duration = 20, waitSeconds = Number(process.env.BENCH_MEMORY_WAIT_S ?? 60)) {
  const server = await startServer({ LOG_REQUESTS: "0", RATE_LIMIT_FACTOR: "1000" }, { nodeArgs: ["--expose-gc"] });
  try {
    const { cookie } = await gradedTrader(server.url);
    for (let i = 0; i < 5; i++) await (await fetch(server.url + "/profile/stats", { headers: { cookie } })).text();
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await memoryAfterGc(server);
    const result = await autocannon({
      url: server.url + "/profile/stats",
      connections: 10,
      duration,
      headers: { cookie, "user-agent": "Mozilla/5.0 Chrome/120" },
    });
    const afterLoad = await memoryAfterGc(server);
    await new Promise((r) => setTimeout(r, waitSeconds * 1000));
    const later = await memoryAfterGc(server);
    return {
      db: process.env.DATABASE_URL ? "postgres" : "pglite",
      loadAvg1m: Math.round(os.loadavg()[0]! * 10) / 10,
      load: { requests: result.requests.total, non2xx: result.non2xx, errors: result.errors },
      idle,
      afterLoad,
      [`after${waitSeconds}s`]: later,
      heapPlusExternalVsIdle: Math.round((later.heapPlusExternalMB / idle.heapPlusExternalMB) * 100) / 100,
      rssVsIdle: Math.round((later.rssMB / idle.rssMB) * 100) / 100,
    };
  } finally {
    await server.stop();
  }
}
