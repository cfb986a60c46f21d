import autocannon from "autocannon";
import { LEADERBOARD_SORTS } from "../app/lib/market";
import { startNginx, startPgBouncer, stopDaemons, type Daemon } from "../test/support/daemons";
import { signUp } from "../test/support/http";
import { startServer, type RunningServer } from "../test/support/server";

// Issue 35, point 7: the market page, a signed-in profile and /healthz (the floor) through nginx in
// front of one web replica and in front of two, at 10 and 200 connections. The topology of the
// cluster check (docker-compose.yml): PgBouncer in transaction mode before DATABASE_URL's database
// (the seeded one, `npm run seed -- --users 100000`, for the figures), replicas with the
// product's own admission control (8 renders, the default queue), nginx with upstream keep-alive.
// autocannon runs in this process, apart from the servers and nginx. On two cores the load
// generator, nginx, PostgreSQL and the replicas share them: two replicas can only use the CPU one
// left idle.

// requestsPerSec counts every answer, the fast 503s of admission control too; okPerSec the 2xx.
type Figures = {
  requestsPerSec: number;
  okPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
};

async function load(
  url: string,
  paths: string[],
  headers: Record<string, string>,
  connections: number,
  seconds: number,
) {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    requests: paths.map((path) => ({ method: "GET" as const, path })),
  });
  const figures: Figures = {
    requestsPerSec: Math.round(result.requests.average),
    okPerSec: Math.round((result.requests.total - result.non2xx) / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  return figures;
}

export async function benchCluster(seconds = 8) {
  if (!process.env.DATABASE_URL) return { skipped: "set DATABASE_URL (the seeded database)" };
  const servers: RunningServer[] = [];
  try {
    const bouncer: Daemon = await startPgBouncer(new URL(process.env.DATABASE_URL), 20);
    const env = {
      DATABASE_URL: bouncer.url,
      DATABASE_DIRECT_URL: process.env.DATABASE_URL,
      LOG_REQUESTS: "false",
      RATE_LIMIT_FACTOR: "1000",
      JOB_WORKERS: "0",
      TRUST_PROXY: "loopback",
      // The product's admission control, not the test servers' roomier one.
      MAX_CONCURRENT_RENDERS: "8",
      RENDER_QUEUE_WAIT_MS: "",
      RENDER_QUEUE_MAX: "",
    };
    const first = await startServer(env);
    servers.push(first);
    const second = await startServer(env);
    servers.push(second);
    const one = await startNginx([first.url]);
    const two = await startNginx([first.url, second.url]);

    const { cookie } = await signUp({ base: one.url });
    const headers = { cookie, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" };
    const market = LEADERBOARD_SORTS.map((sort) => `/market/traders?sort_by=${sort}&order=desc`);
    const pages = { market, profile: ["/profile"], healthz: ["/healthz"] };
    for (const path of [...market, "/profile"]) {
      const res = await fetch(two.url + path, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    }
    const figures: Record<string, Record<string, { oneReplica: Figures; twoReplicas: Figures; ratio: number }>> = {};
    for (const connections of [10, 200]) {
      for (const [name, paths] of Object.entries(pages)) {
        const oneReplica = await load(one.url, paths, headers, connections, seconds);
        const twoReplicas = await load(two.url, paths, headers, connections, seconds);
        (figures[`${connections} connections`] ??= {})[name] = {
          oneReplica,
          twoReplicas,
          ratio: Math.round((twoReplicas.okPerSec / Math.max(1, oneReplica.okPerSec)) * 100) / 100,
        };
      }
    }
    return {
      seconds,
      figures,
      targets: { twoReplicasRatio: 1.6, p99MsAt200: 1000, errors: 0, excess: "fast 503s (non2xx)" },
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await stopDaemons();
  }
}
