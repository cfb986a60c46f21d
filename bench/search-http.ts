import { performance } from "node:perf_hooks";
import pg from "pg";
import { signUp } from "../test/support/http";
import { startServer } from "../test/support/server";
import { searchKeywords, typedPrefixes } from "./keywords";

// Trader search over HTTP on the seeded database (DATABASE_URL, `npm run seed -- --users 100000`):
// the built server, one signed-in client asking one keyword at a time (the same mix as `scale`:
// username prefixes, full names, last-name prefixes, first-name typos), beside the floor of the
// same server answering /healthz (no database) one at a time.

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 100) / 100;
  return { n: s.length, p50: at(0.5), p95: at(0.95), max: at(1) };
}

export async function benchSearchHttp(iterations = 300) {
  if (!process.env.DATABASE_URL) return { skipped: "set DATABASE_URL to the seeded database" };
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const users = (
    await client.query<{ username: string; first_name: string | null; last_name: string | null }>(
      "select username, first_name, last_name from users tablesample system (5) where username is not null limit 400",
    )
  ).rows;
  await client.end();
  let x = 42;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const keywords = searchKeywords(users, iterations, rand);
  const typed = typedPrefixes(users, iterations, rand);
  const server = await startServer({ LOG_REQUESTS: "false" });
  try {
    const { cookie } = await signUp({ base: server.url });
    const get = (path: string) => fetch(server.url + path, { headers: { cookie } }).then((r) => r.arrayBuffer());
    for (let i = 0; i < 20; i++) await get(`/api/portal/search/trader?keyword=${encodeURIComponent(keywords[i]!)}`);
    const search: number[] = [];
    const floor: number[] = [];
    const prefixes: [number, string][] = [];
    for (const [i, k] of keywords.entries()) {
      let t = performance.now();
      await get(`/api/portal/search/trader?keyword=${encodeURIComponent(k)}`);
      search.push(performance.now() - t);
      t = performance.now();
      await get("/healthz");
      floor.push(performance.now() - t);
      t = performance.now();
      await get(`/api/portal/search/trader?keyword=${encodeURIComponent(typed[i]!)}`);
      prefixes.push([performance.now() - t, typed[i]!]);
    }
    const slowest = [...prefixes].sort((a, b) => b[0] - a[0]).slice(0, 5);
    return {
      users: "seeded database of DATABASE_URL",
      search: stats(search),
      // 3–5-letter prefixes of names, as users type them; the target is p95 ≤ 15 ms.
      typedPrefixes: stats(prefixes.map(([ms]) => ms)),
      slowestPrefixes: slowest.map(([ms, k]) => `${k} ${Math.round(ms * 10) / 10} ms`),
      floorHealthz: stats(floor),
    };
  } finally {
    await server.stop();
  }
}
