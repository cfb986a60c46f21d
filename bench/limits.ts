import type { EventEmitter } from "node:events";
import http from "node:http";
import os from "node:os";
import autocannon from "autocannon";
import { signUp, waitForImports } from "../test/support/http";
import { startServer } from "../test/support/server";

type Figures = {
  requests: number;
  status2xx: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  status5xx: number;
  status503: number;
  errors: number;
};

async function load(opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}): Promise<Figures> {
  const codes: Record<string, number> = {};
  // Without a callback autocannon returns its instance, an emitter that is also a promise of the result.
  const instance = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.duration,
    headers: { "user-agent": "Mozilla/5.0 Chrome/120", ...opts.headers },
  }) as unknown as EventEmitter & Promise<autocannon.Result>;
  instance.on("response", (_client: unknown, status: number) => {
    codes[status] = (codes[status] ?? 0) + 1;
  });
  const result = await instance;
  const five = Object.entries(codes)
    .filter(([c]) => c.startsWith("5"))
    .reduce((n, [, v]) => n + v, 0);
  const ok = Object.entries(codes)
    .filter(([c]) => c.startsWith("2"))
    .reduce((n, [, v]) => n + v, 0);
  return {
    requests: result.requests.total,
    status2xx: ok,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    status5xx: five,
    status503: codes["503"] ?? 0,
    errors: result.errors,
  };
}

/** One 10 MB POST, declared as such, to a JSON route (answered 413 before it is read). */
function bigPost(base: string): Promise<number> {
  const url = new URL(base + "/api/user/login");
  const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": body.length, origin: base },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
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

const pct = (xs: number[], p: number) =>
  Math.round(xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! * 10) / 10;

/** A signed-in trader with a graded demo broker account; returns its cookie and its card's path. */
export async function gradedTrader(base: string) {
  const { cookie } = await signUp({ base });
  const post = (path: string, body: unknown) =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: base },
      body: JSON.stringify(body),
    });
  await post("/api/finance/plaid/exchange-public-token", {
    public_token: `public-sandbox-user_good_bench${Date.now().toString(36)}`,
  });
  await waitForImports(cookie, { base, timeoutMs: 120_000 });
  const me = (await (await fetch(base + "/api/user/info", { headers: { cookie } })).json()) as { data: { id: number } };
  const share = (await (await post(`/api/share/image/${me.data.id}`, {})).json()) as { data: { share_url: string } };
  return { cookie, card: new URL(share.data.share_url).pathname, id: me.data.id };
}

/**
 * Limits under load: (1) how much four parallel 10 MB bodies delay another client's small request;
 * (2) 200 connections of mixed load, a sixth on each of: the cached landing, a blog post, a card PNG,
 * the signed-in profile, a trader's page read signed in, and the signed-in search API — p50/p99 per route, and how many were answered a
 * fast 503 (admission control or pool wait limit) instead of queueing.
 */
export async function benchLimits(duration = 10) {
  // The product's admission defaults (empty = default; the test helper widens them), unless given.
  const server = await startServer({
    LOG_REQUESTS: "0",
    RATE_LIMIT_FACTOR: "1000",
    MAX_CONCURRENT_RENDERS: process.env.MAX_CONCURRENT_RENDERS ?? "",
    RENDER_QUEUE_WAIT_MS: process.env.RENDER_QUEUE_WAIT_MS ?? "",
    RENDER_QUEUE_MAX: process.env.RENDER_QUEUE_MAX ?? "",
  });
  try {
    const quiet = await smallLatencies(server.url, 200);
    const big = Promise.all(
      Array.from({ length: 4 }, async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) statuses.push(await bigPost(server.url));
        return statuses;
      }),
    );
    const busy = await smallLatencies(server.url, 200);
    const bigStatuses = (await big).flat();
    const { cookie, card, id } = await gradedTrader(server.url);
    const mix: Record<string, { path: string; cookie?: string }> = {
      landing: { path: "/" },
      blog: { path: "/blogs/Aq7TrX8B" },
      card: { path: card },
      signedInProfile: { path: "/profile", cookie },
      // A trader's page read by a signed-in viewer: its loaders share thrown answers (issue 36's
      // "Body is unusable" 500s came from there).
      signedInTrader: { path: `/u/${id}`, cookie },
      searchApi: { path: "/api/portal/search/trader?keyword=user", cookie },
    };
    const connections = Math.round(Number(process.env.BENCH_CONNECTIONS ?? 200) / Object.keys(mix).length);
    const figures = await Promise.all(
      Object.entries(mix).map(
        async ([name, m]) =>
          [
            name,
            await load({
              url: server.url + m.path,
              connections,
              duration,
              headers: m.cookie ? { cookie: m.cookie } : {},
            }),
          ] as const,
      ),
    );
    return {
      db: process.env.DATABASE_URL ? "postgres" : "pglite",
      loadAvg1m: Math.round(os.loadavg()[0]! * 10) / 10,
      largeBodies: {
        bigStatuses: [...new Set(bigStatuses)],
        healthzQuietP50Ms: pct(quiet, 50),
        healthzQuietP99Ms: pct(quiet, 99),
        healthzDuringBigBodiesP50Ms: pct(busy, 50),
        healthzDuringBigBodiesP99Ms: pct(busy, 99),
      },
      mixed200: Object.fromEntries(figures),
    };
  } finally {
    await server.stop();
  }
}
