import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { CompiledQuery, Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { migrations } from "../../../migrations/index";
import { lockDataDir } from "./db/data-lock.server";
import { ReadOnlyPostgresDialect } from "./db/read-only.server";
import type { Database } from "./db/schema";
import { getEnv } from "./env.server";
import { log } from "./log.server";
import { currentRequestId } from "./request-context.server";

/**
 * The database or a transaction of it (Kysely's Transaction is a Kysely): every function that
 * queries takes a `DB`, so a caller can pass its open transaction and the writes go with it.
 */
export type DB = Kysely<Database>;

type PGliteInstance = Awaited<ReturnType<typeof import("@electric-sql/pglite").PGlite.create>>;
type DbHandle = { db: DB; kind: "postgres" | "pglite"; close: () => Promise<void>; pglite?: PGliteInstance };

// One instance per process (two PGlite instances on one directory would corrupt it).
let current: Promise<DbHandle> | undefined;

/** Counters for /metrics: how often a request found no free connection in time. */
export const poolStats = { waitTimeouts: 0 };

export const BUSY_MESSAGE = "The service is busy. Please try again in a moment.";

/** What a pool failure means for the request: the database is busy or away, so 503, try again soon. */
function isUnavailable(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | undefined;
  return (
    /timeout exceeded when trying to connect|Connection terminated/i.test(String(e?.message)) ||
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "57P03"].includes(String(e?.code))
  );
}

/**
 * The database did not serve in time outside a request (a job, a timer, start-up): an ordinary
 * error, which a job retries. A request gets the 503 Response instead.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The database is busy or unreachable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = "DatabaseUnavailableError";
  }
}

/**
 * The pool Kysely draws from, with a bounded wait: a request that gets no connection within
 * DATABASE_POOL_WAIT_MS (pg-pool's connectionTimeoutMillis, which also takes it out of the queue)
 * is answered 503 with Retry-After instead of queueing for seconds behind everyone else. The
 * thrown Response is what Remix sends (server.ts's error handler does the same for its own routes).
 * Only a request gets a Response: nothing outside one would answer it, and a job or timer that
 * met one rejected with something that is not an Error (DatabaseUnavailableError instead).
 */
function boundedPool(pool: pg.Pool) {
  return {
    connect: async () => {
      try {
        return await pool.connect();
      } catch (error) {
        if (!isUnavailable(error)) throw error;
        poolStats.waitTimeouts++;
        if (currentRequestId() === undefined) throw new DatabaseUnavailableError(error);
        throw new Response(BUSY_MESSAGE, {
          status: 503,
          headers: { "Retry-After": "1", "Content-Type": "text/plain; charset=utf-8" },
        });
      }
    },
    end: () => pool.end(),
  };
}

/**
 * Every pool and every client it opens has an error listener. pg-pool listens on idle clients
 * only: a connection that dropped while checked out (a transaction, a job between statements)
 * emitted 'error' with no listener, and Node ended the process (read ECONNRESET). The statement
 * running on it fails on its own; the pool drops the client when it comes back broken.
 */
function listenForErrors(pool: pg.Pool): void {
  const report = (error: Error) =>
    log("error", "database connection lost", { error: error.message, code: (error as NodeJS.ErrnoException).code });
  pool.on("error", report);
  pool.on("connect", (client) => client.on("error", report));
}

/** The primary's pool, or the read database's own (DATABASE_READ_URL), for /metrics (size, idle, waiting), once open. */
let currentPool: pg.Pool | undefined;
export function poolUsage(which: "primary" | "read" = "primary") {
  const p = which === "primary" ? currentPool : currentRead?.pool;
  return p ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount } : null;
}

/** host:port/database of a database URL, without the credentials, for messages. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "(unparsable)";
  }
}

/**
 * The URL of a direct connection to PostgreSQL: DATABASE_DIRECT_URL, else DATABASE_URL. What needs
 * one session from start to end goes there (migrations, the start-up lock, the job queue's set-up,
 * the role's defaults, a CLI's bulk work); a pooler in transaction mode gives a session per
 * transaction only (docs/DECISIONS.md 169).
 */
function directUrl(env = getEnv()): string | undefined {
  return env.DATABASE_DIRECT_URL ?? env.DATABASE_URL;
}

/** The settings every statement of the server runs with, as pg_settings shows them. */
function wantedSettings(env = getEnv()): Record<string, string> {
  // No JIT compilation: every statement here is short, and compiling one whose cost estimate
  // passes jit_above_cost took longer than running it (the re-grade's read, DECISIONS 141).
  return { statement_timeout: String(env.DATABASE_STATEMENT_TIMEOUT_MS), jit: "off" };
}

/**
 * Opens a client on `url` within DATABASE_CONNECT_TIMEOUT_MS and runs `fn` on it; a closed port,
 * a wrong password or a host that never answers becomes one line naming the variable.
 */
async function probe<T>(url: string, variable: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const timeout = getEnv().DATABASE_CONNECT_TIMEOUT_MS;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeout, query_timeout: timeout });
  client.on("error", () => {});
  try {
    await client.connect();
    return await fn(client);
  } catch (error) {
    const reason = /timeout/i.test(String((error as Error).message))
      ? `no answer within ${timeout} ms (DATABASE_CONNECT_TIMEOUT_MS)`
      : (error as Error).message || String(error);
    throw new Error(`Cannot use the database of ${variable} (${describeUrl(url)}): ${reason}`);
  } finally {
    await client.end().catch(() => {});
  }
}

const SHOW_SETTINGS = "select name, setting from pg_settings where name in ('statement_timeout', 'jit') order by name";

/**
 * Makes the statement timeout and jit=off defaults of this role in this database, on the direct
 * connection. Start-up parameters would be refused by PgBouncer ("unsupported startup
 * parameter"), and a session SET would stay on one of the pooler's server connections; a role's
 * default is read by every session PostgreSQL opens, the pooler's included. Written only when it
 * differs, under the start-up lock (replicas starting together).
 */
async function applyRoleSettings(): Promise<void> {
  const wanted = wantedSettings();
  await probe(directUrl()!, getEnv().DATABASE_DIRECT_URL ? "DATABASE_DIRECT_URL" : "DATABASE_URL", async (client) => {
    const { rows } = await client.query<{ config: string[]; db: string }>(
      `select coalesce((select setconfig from pg_db_role_setting
          where setrole = (select oid from pg_roles where rolname = current_user)
            and setdatabase = (select oid from pg_database where datname = current_database())), '{}') as config,
        current_database() as db`,
    );
    const { config, db } = rows[0]!;
    for (const [name, value] of Object.entries(wanted)) {
      if (config.includes(`${name}=${value}`)) continue;
      try {
        // name and value come from wantedSettings: a fixed name, a whole number or "off".
        await client.query(`alter role current_user in database ${client.escapeIdentifier(db)} set ${name} = ${value}`);
      } catch (error) {
        throw new Error(`cannot set this role's default ${name} = ${value}: ${(error as Error).message}`);
      }
      log("info", "database role default set", { name, value });
    }
  });
}

/**
 * Start-up check of the database: the direct URL answers, the role's defaults are in place
 * (applyRoleSettings), then DATABASE_URL answers with them. Each with its own time limit, so a
 * bad URL is one clear line naming its variable, not a hang or a stack trace. A pooler's server
 * connection opened before the defaults were written keeps the old ones until the pooler
 * replaces it: logged, not refused (it heals by itself).
 */
export async function checkDatabaseUrl(): Promise<void> {
  const env = getEnv();
  if (!env.DATABASE_URL) return;
  // The direct URL first, with the same one-line failure as DATABASE_URL's.
  if (env.DATABASE_DIRECT_URL) await probe(env.DATABASE_DIRECT_URL, "DATABASE_DIRECT_URL", (c) => c.query("select 1"));
  else await probe(env.DATABASE_URL, "DATABASE_URL", (c) => c.query("select 1"));
  if (env.DATABASE_READ_URL) await probe(env.DATABASE_READ_URL, "DATABASE_READ_URL", (c) => c.query("select 1"));
  await withStartupLock(applyRoleSettings);
  const wanted = wantedSettings(env);
  const seen = await probe(env.DATABASE_URL, "DATABASE_URL", async (client) =>
    Object.fromEntries(
      (await client.query<{ name: string; setting: string }>(SHOW_SETTINGS)).rows.map((r) => [r.name, r.setting]),
    ),
  );
  const differ = Object.keys(wanted).filter((name) => seen[name] !== wanted[name]);
  if (differ.length)
    log("error", "database settings do not hold through DATABASE_URL", {
      wanted,
      seen,
      hint: "a pooler's older server connections keep the old role defaults until it reconnects them (PgBouncer: RECONNECT), or the pooler logs in as another role",
    });
}

/**
 * A pg pool on `url` behind Kysely. No start-up parameters (a pooler refuses them): the statement
 * timeout and jit=off are the role's defaults (applyRoleSettings); the client gives up a little
 * after the timeout on a silent host. Bulk work (a CLI) turns the timeout off for its own sessions,
 * which are direct. A read-only pool (DATABASE_READ_URL) runs each statement in a read-only
 * transaction with the settings made local: a replica's role defaults may not be ours.
 */
function openPostgres(
  url: string,
  opts: { max: number; bulk: boolean; readOnly?: boolean },
): DbHandle & { pool: pg.Pool } {
  const env = getEnv();
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max,
    connectionTimeoutMillis: env.DATABASE_POOL_WAIT_MS,
    ...(opts.bulk ? {} : { query_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS + 1_000 }),
    keepAlive: true,
  });
  // A connection the server closes, idle or in use, must not crash the process.
  listenForErrors(pool);
  const dialect = opts.readOnly
    ? new ReadOnlyPostgresDialect({ pool: boundedPool(pool) }, wantedSettings(env))
    : new PostgresDialect({
        pool: boundedPool(pool),
        ...(opts.bulk
          ? {
              onCreateConnection: async (conn) =>
                void (await conn.executeQuery(CompiledQuery.raw("set statement_timeout = 0"))),
            }
          : {}),
      });
  const db = new Kysely<Database>({ dialect });
  return { db, pool, kind: "postgres", close: () => db.destroy() };
}

async function openDb(): Promise<DbHandle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    // A CLI's bulk work holds its connections for minutes: direct, as a pooler's would be held anyway.
    const handle = openPostgres(bulk ? directUrl(env)! : env.DATABASE_URL, { max: env.DATABASE_POOL_SIZE, bulk });
    currentPool = handle.pool;
    return handle;
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  let dataDir = "memory://";
  let unlock = () => {};
  if (env.DATA_DIR !== "memory://") {
    dataDir = path.resolve(env.DATA_DIR, "pglite");
    fs.mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(path.resolve(env.DATA_DIR));
  }
  let pglite: Awaited<ReturnType<typeof PGlite.create>>;
  try {
    pglite = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  } catch (error) {
    unlock();
    throw error;
  }
  // PGlite has one connection: a pool of one serialises queries and keeps transactions whole.
  const config: pg.PoolConfig = createPgConfig(pglite);
  config.connectionTimeoutMillis = env.DATABASE_POOL_WAIT_MS;
  const pool = new pg.Pool(config);
  listenForErrors(pool);
  currentPool = pool;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: boundedPool(pool) }) });
  return {
    db,
    kind: "pglite",
    pglite,
    close: async () => {
      await db.destroy();
      await pglite.close();
      unlock();
    },
  };
}

// A CLI's bulk work (set before the database opens): statements without the request time limit.
let bulk = false;

/**
 * For a CLI whose statements are bulk work (`npm run seed`): this process's connections go to the
 * direct URL and each session sets statement_timeout = 0 over the role's default.
 * DATABASE_STATEMENT_TIMEOUT_MS bounds a request's statement; the seed's INSERT … SELECT of a
 * million posts runs the search-words trigger per row for minutes and was cancelled (57014).
 * Call before the first getDb.
 */
export function withoutStatementTimeout(): void {
  if (current) throw new Error("withoutStatementTimeout() must come before the database is opened");
  bulk = true;
}

function handle(): Promise<DbHandle> {
  return (current ??= openDb());
}

/**
 * Where a process LISTENs (the live channel, DECISIONS 188): the direct URL on PostgreSQL (a
 * transaction-mode pooler cannot LISTEN: a session's LISTEN would stay on a server connection
 * others get next), or PGlite's own listen on the embedded database.
 */
export async function listenTarget(): Promise<
  { kind: "postgres"; url: string } | { kind: "pglite"; pglite: PGliteInstance }
> {
  const h = await handle();
  if (h.pglite) return { kind: "pglite", pglite: h.pglite };
  return { kind: "postgres", url: directUrl()! };
}

// The direct connection's own small pool, when DATABASE_DIRECT_URL names another address.
let currentDirect: DbHandle | undefined;

/**
 * The database on a direct connection (DATABASE_DIRECT_URL): for migrations and the job queue's
 * set-up, which run at start-up only. The same handle as getDb when there is no other URL (or
 * PGlite, or a CLI's bulk work, whose pool is direct already). Its pool holds at most two
 * connections and lets them go when idle (pg's 10 s), so it costs nothing after start-up.
 */
export async function getDirectDb(): Promise<DB> {
  const env = getEnv();
  const main = await handle();
  if (!env.DATABASE_URL || bulk || directUrl(env) === env.DATABASE_URL) return main.db;
  currentDirect ??= openPostgres(directUrl(env)!, { max: 2, bulk: false });
  return currentDirect.db;
}

// The read-only pool of DATABASE_READ_URL, when it names another address.
let currentRead: (DbHandle & { pool: pg.Pool }) | undefined;

/**
 * The database for heavy public reads that may lag the primary by seconds (the leaderboard,
 * search, others' profiles, the grade log): DATABASE_READ_URL, a replica, when set; else the
 * primary's handle (PGlite has one database). Every statement through it is read-only (a write
 * fails with 25006). Never for a read that follows the user's own write, in the request or just
 * before it: a replica may not have it yet (getReadDbUnlessOwn). Its pool has the primary's wait
 * limit and outage handling (boundedPool: a 503 in a request).
 */
export async function getReadDb(): Promise<DB> {
  const env = getEnv();
  const main = await handle();
  if (!env.DATABASE_URL || !env.DATABASE_READ_URL || bulk || env.DATABASE_READ_URL === env.DATABASE_URL) return main.db;
  currentRead ??= openPostgres(env.DATABASE_READ_URL, {
    max: env.DATABASE_READ_POOL_SIZE,
    bulk: false,
    readOnly: true,
  });
  return currentRead.db;
}

/**
 * Where a page reads a trader's data: the primary when it is the viewer's own (what they just
 * changed must show, read-your-writes), else the read database.
 */
export function getReadDbUnlessOwn(viewerId: number, ownerId: number): Promise<DB> {
  return viewerId === ownerId ? getDb() : getReadDb();
}

export async function getDb(): Promise<DB> {
  return (await handle()).db;
}

export async function dbKind() {
  return (await handle()).kind;
}

/**
 * Streams `data` (COPY text format) into `statement`, a `COPY … FROM STDIN`, on the connection of
 * `trx` — PostgreSQL only: PGlite's pg adapter has no socket for pg-copy-streams to write to.
 * Kysely hands a compiled query's `sql` to pg's `client.query` unchanged, and pg runs a Submittable
 * (the COPY stream) on that client; a transaction keeps that client until it ends, and pg queues
 * the transaction's next statements behind the COPY.
 */
export async function copyInto(trx: DB, statement: string, data: Iterable<string>): Promise<void> {
  if (!trx.isTransaction) throw new Error("copyInto needs a transaction: a pooled connection goes back at once");
  const stream = copyFrom(statement);
  await trx.executeQuery({ ...CompiledQuery.raw(""), sql: stream as unknown as string });
  await pipeline(Readable.from(data), stream);
}

export async function closeDb(): Promise<void> {
  const h = current;
  const direct = currentDirect;
  const read = currentRead;
  current = undefined;
  currentDirect = undefined;
  currentRead = undefined;
  await direct?.close();
  await read?.close();
  if (h) await (await h).close();
}

/**
 * Runs `fn` while no other process runs its own on this database: replicas started together take
 * turns at the migrations and at pg-boss's schema and queues, whose creation is not safe side by
 * side (two processes creating queues deadlocked on the job table's partitions). A session
 * advisory lock on a connection of its own (the pool may have one connection, which `fn` needs),
 * asked for with pg_try_advisory_lock, so a long wait is not cut short by the statement timeout.
 * Never nested: the second ask would wait for the first forever. PGlite has one process.
 */
export async function withStartupLock<T>(fn: () => Promise<T>): Promise<T> {
  const env = getEnv();
  if (!env.DATABASE_URL) return fn();
  // A session lock needs a session: a pooler in transaction mode would leave it on a server
  // connection someone else gets next.
  const client = new pg.Client({
    connectionString: directUrl(env),
    connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS,
  });
  // A lost connection also loses the lock; the queries of `fn` report it, the process lives on.
  client.on("error", (error) => log("error", "start-up lock connection lost", { error: error.message }));
  await client.connect();
  // Its polls are not bound by the role's statement timeout (a CLI may set a tiny one for bulk work).
  await client.query("set statement_timeout = 0");
  try {
    let waiting = false;
    while (!(await client.query("select pg_try_advisory_lock(hashtext('grader:start-up')) as ok")).rows[0].ok) {
      if (!waiting) log("info", "waiting for another process's start-up (migrations, job queues)");
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return await fn();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => {});
  }
}

export async function migrateToLatest(): Promise<string[]> {
  // Direct: a migration's DDL may outlast what a pooler allows a transaction, and it runs once.
  const db = await getDirectDb();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await withStartupLock(() => migrator.migrateToLatest());
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Names of the migrations not applied yet (empty when the schema is current). */
export async function pendingMigrations(): Promise<string[]> {
  const db = await getDb();
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
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
