import os from "node:os";
import autocannon from "autocannon";
import { startServer } from "../test/support/server";
import { gradedTrader } from "./limits";
import { cpuMsOf } from "./proc";

/**
 * The server's CPU per signed-in render (a graded demo trader's /profile and /profile/stats, 4
 * connections): under a mixed load admission control sheds what the CPU cannot render, so this is
 * what bounds the signed-in pages' throughput.
 */
export async function benchSignedIn(requests = Number(process.env.BENCH_REQUESTS ?? 600)) {
  const server = await startServer({ LOG_REQUESTS: "0", RATE_LIMIT_FACTOR: "1000" });
  const pid = server.process.pid!;
  try {
    const { cookie } = await gradedTrader(server.url);
    const out: Record<string, { requests: number; non2xx: number; cpuMsPerRender: number | null; p50Ms: number }> = {};
    for (const path of ["/profile", "/profile/stats"]) {
      const headers = { cookie, "user-agent": "Mozilla/5.0 Chrome/120" };
      await autocannon({ url: server.url + path, connections: 4, amount: Math.ceil(requests / 3), headers });
      const before = cpuMsOf(pid);
      const result = await autocannon({ url: server.url + path, connections: 4, amount: requests, headers });
      const after = cpuMsOf(pid);
      out[path] = {
        requests: result.requests.total,
        non2xx: result.non2xx,
        cpuMsPerRender:
          before === null || after === null ? null : Math.round(((after - before) / result.requests.total) * 100) / 100,
        p50Ms: result.latency.p50,
      };
    }
    return {
      db: process.env.DATABASE_URL ? "postgres" : "pglite",
      loadAvg1m: Math.round(os.loadavg()[0]! * 10) / 10,
      ...out,
    };
  } finally {
    await server.stop();
  }
}
