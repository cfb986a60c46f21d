import type { EventEmitter } from "node:events";
import http from "node:http";
import autocannon from "autocannon";
import { signUp } from "../test/support/http";
import { startServer } from "../test/support/server";

type Figures = { requests: number; p50Ms: number; p99Ms: number; maxMs: number; status5xx: number; status503: number; errors: number };

async function load(opts: { url: string; connections: number; duration: number; headers?: Record<string, string> }): Promise<Figures> {
  const codes: Record<string, number> = {};
  // Without a callback autocannon returns its instance, an emitter that is also a promise of the result.
  const instance = autocannon({ url: opts.url, connections: opts.connections, duration: opts.duration, headers: { "user-agent": "Mozilla/5.0 Chrome/120", ...opts.headers } }) as unknown as EventEmitter & Promise<autocannon.Result>;
  instance.on("response", (_client: unknown, status: number) => {
    codes[status] = (codes[status] ?? 0) + 1;
  });
  const result = await instance;
  const five = Object.entries(codes).filter(([c]) => c.startsWith("5")).reduce((n, [, v]) => n + v, 0);
  return { requests: result.requests.total, p50Ms: result.latency.p50, p99Ms: result.latency.p99, maxMs: result.latency.max, status5xx: five, status503: codes["503"] ?? 0, errors: result.errors };
}

/** One 10 MB POST, declared as such, to a JSON route (answered 413 before it is read). */
function bigPost(base: string): Promise<number> {
  const url = new URL(base + "/api/user/login");
  const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", "content-length": body.length, origin: base } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

async function smallLatencies(base: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await (await fetch(base + "/healthz")).text();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

const pct = (xs: number[], p: number) => Math.round(xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! * 10) / 10;

/**
 * Limits under load: (1) how much four parallel 10 MB bodies delay another client's small request;
 * (2) 200 connections on a signed-in, database-backed page beside 200 on the cached landing —
 * p50/p99, and how many were answered a fast 503 (pool wait limit) instead of queueing.
 */
export async function benchLimits(duration = 10) {
  // The product's admission defaults (empty = default; the test helper widens them), unless given.
  const server = await startServer({
    LOG_REQUESTS: "0",
    RATE_LIMIT_FACTOR: "1000",
    MAX_CONCURRENT_RENDERS: process.env.MAX_CONCURRENT_RENDERS ?? "",
    RENDER_QUEUE_WAIT_MS: process.env.RENDER_QUEUE_WAIT_MS ?? "",
  });
  try {
    const quiet = await smallLatencies(server.url, 200);
    const big = Promise.all(Array.from({ length: 4 }, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await bigPost(server.url));
      return statuses;
    }));
    const busy = await smallLatencies(server.url, 200);
    const bigStatuses = (await big).flat();
    const { cookie } = await signUp({ base: server.url });
    const [profile, landing] = await Promise.all([
      load({ url: server.url + "/profile", connections: 200, duration, headers: { cookie } }),
      load({ url: server.url + "/", connections: 200, duration }),
    ]);
    return {
      db: process.env.DATABASE_URL ? "postgres" : "pglite",
      largeBodies: {
        bigStatuses: [...new Set(bigStatuses)],
        healthzQuietP50Ms: pct(quiet, 50),
        healthzQuietP99Ms: pct(quiet, 99),
        healthzDuringBigBodiesP50Ms: pct(busy, 50),
        healthzDuringBigBodiesP99Ms: pct(busy, 99),
      },
      mixed200: { signedInProfile: profile, cachedLanding: landing },
    };
  } finally {
    await server.stop();
  }
}
