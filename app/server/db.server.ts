import fs from "node:fs";
import path from "node:path";
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { migrations } from "../../migrations/index";
import type { Database } from "./db/schema";
import { getEnv } from "./env.server";

export type DB = Kysely<Database>;

type DbHandle = { db: DB; kind: "postgres" | "pglite"; close: () => Promise<void> };

// One instance per process. server.ts and the Remix bundle are separate module graphs, so the
// handle lives on globalThis: two PGlite instances on one directory would corrupt it.
const key = "__grader_db";
type G = { [key]?: Promise<DbHandle> };

async function openDb(): Promise<DbHandle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  let dataDir = "memory://";
  if (env.DATA_DIR !== "memory://") {
    dataDir = path.resolve(env.DATA_DIR, "pglite");
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  // PGlite has one connection: a pool of one serialises queries and keeps transactions whole.
  const pool = new pg.Pool(createPgConfig(pglite) as unknown as pg.PoolConfig);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: "pglite",
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

function handle(): Promise<DbHandle> {
  const g = globalThis as unknown as G;
  return (g[key] ??= openDb());
}

export async function getDb(): Promise<DB> {
  return (await handle()).db;
}

export async function dbKind() {
  return (await handle()).kind;
}

export async function closeDb(): Promise<void> {
  const g = globalThis as unknown as G;
  const h = g[key];
  if (!h) return;
  delete g[key];
  await (await h).close();
}

export async function migrateToLatest(): Promise<string[]> {
  const db = await getDb();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function pingDb(): Promise<boolean> {
  try {
    const db = await getDb();
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
