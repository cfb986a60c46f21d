import autocannon from "autocannon";
import { LEADERBOARD_SORTS } from "../app/lib/market";
import { TIERS } from "../app/lib/vocabulary";
import { signUp } from "../test/support/http";
import { startServer } from "../test/support/server";
import { cpuMsOf } from "./proc";

// The market leaderboard page over HTTP on the seeded database (DATABASE_URL, `npm run seed --
// --users 100000`; issue 18: ≤ 20 ms p50 and ≥ 200 requests/s at 10 connections): the built
// server, one signed-in user on 10 connections, each looping over the page's sorts and orders with
// a tier filter on 2 in 5 (as `scale` asks the query), beside the same server's /healthz at 10
// connections (the floor: no database, no render).

type Figures = {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number | null;
  non2xx: number;
  errors: number;
};

export async function benchMarketHttp(seconds = 10) {
  if (!process.env.DATABASE_URL) return { skipped: "set DATABASE_URL to the seeded database" };
  const server = await startServer({ LOG_REQUESTS: "false", RATE_LIMIT_FACTOR: "1000" });
  try {
    const { cookie } = await signUp({ base: server.url });
    const headers = { cookie, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" };
    const paths = LEADERBOARD_SORTS.flatMap((sort) =>
      (["desc", "asc"] as const).flatMap((order, i) =>
        [undefined, ...(i === 0 ? [TIERS[2]] : [TIERS[1]])].map(
          (tier) => `/market/traders?sort_by=${sort}&order=${order}${tier ? `&tier=${tier}` : ""}`,
        ),
      ),
    );
    // Each answers the page, with traders on it.
    for (const p of paths) {
      const res = await fetch(server.url + p, { headers });
      const html = await res.text();
      if (res.status !== 200 || !html.includes("Top traders")) throw new Error(`${p} answered ${res.status}`);
    }
    const load = async (requests: { path: string }[]): Promise<Figures> => {
      const pid = server.process.pid!;
      const cpuBefore = cpuMsOf(pid);
      const result = await autocannon({
        url: server.url,
        connections: 10,
        duration: seconds,
        headers,
        requests: requests.map((r) => ({ method: "GET" as const, path: r.path })),
      });
      const cpuAfter = cpuMsOf(pid);
      return {
        requestsPerSec: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        cpuMsPerRequest:
          cpuBefore === null || cpuAfter === null
            ? null
            : Math.round(((cpuAfter - cpuBefore) / result.requests.total) * 100) / 100,
        non2xx: result.non2xx,
        errors: result.errors,
      };
    };
    const market = await load(paths.map((path) => ({ path })));
    const floorHealthz = await load([{ path: "/healthz" }]);
    return { pages: paths.length, seconds, market, floorHealthz, targets: { p50Ms: 20, requestsPerSec: 200 } };
  } finally {
    await server.stop();
  }
}
