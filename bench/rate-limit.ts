import { performance } from "node:perf_hooks";
import { sql } from "kysely";

// The rate limiter's cost per hit, in process, beside the floor of the same database (a bare
// `select 1`) and the password check that every sign-in pays anyway. Alternated in one loop so
// the machine's load falls on all three alike. PostgreSQL when DATABASE_URL is set, else PGlite.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 1000) / 1000;
  return { n: s.length, p50Ms: at(50), p95Ms: at(95) };
}

export async function benchRateLimit(rounds = Number(process.env.BENCH_RATE_LIMIT_ROUNDS ?? 2000)) {
  const { closeDb, dbKind, getDb, migrateToLatest } = await import("../app/server/platform/db.server");
  const { hitLimit } = await import("../app/server/http/rate-limit.server");
  const { hashPassword, verifyPassword } = await import("../app/server/accounts/password.server");
  await migrateToLatest();
  const db = await getDb();
  const hash = await hashPassword("correct horse battery");
  const run = `${Date.now().toString(36)}`;
  const hit: number[] = [];
  const floor: number[] = [];
  const argon: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Half the hits on one key (the counter's UPDATE path), half on a new key each (the INSERT path).
    const key = i % 2 ? `bench-${run}` : `bench-${run}-${i}`;
    let t = performance.now();
    await hitLimit("login-ip", key);
    hit.push(performance.now() - t);
    t = performance.now();
    await sql`select 1`.execute(db);
    floor.push(performance.now() - t);
    if (i % 50 === 0) {
      t = performance.now();
      await verifyPassword(hash, "wrong password");
      argon.push(performance.now() - t);
    }
  }
  await db.deleteFrom("rate_limits").where("key", "like", `login-ip:bench-${run}%`).execute();
  const result = {
    database: await dbKind(),
    hitLimit: stats(hit.slice(100)),
    bareSelect1: stats(floor.slice(100)),
    argon2Verify: stats(argon.slice(1)),
  };
  await closeDb();
  return result;
}
