import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { CompiledQuery, Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { migrations } from "../../../migrations/index";
import { lockDataDir } from "./db/data-lock.server";
import type { Database } from "./db/schema";
import { getEnv } from "./env.server";
import { log } from "./log.server";
import { currentRequestId } from "./request-context.server";

/**
 * The database or a transaction of it (Kysely's Transaction is a Kysely): every function that
 * queries takes a `DB`, so a caller can pass its open transaction and the writes go with it.
 */
export type DB = Kysely<Database>;

type DbHandle = { db: DB; kind: "postgres" | "pglite"; close: () => Promise<void> };

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

/** The pool for /metrics (size, idle, waiting), once open. */
let currentPool: pg.Pool | undefined;
export function poolUsage() {
  const p = currentPool;
  return p ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount } : null;
}

/** host:port/database of DATABASE_URL, without the credentials, for messages. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "(unparsable)";
  }
}

/**
 * Start-up check of DATABASE_URL with its own time limit: a closed port, a wrong password or a
 * host that accepts and never answers becomes one clear line naming DATABASE_URL, not a hang or
 * a stack trace.
 */
export async function checkDatabaseUrl(): Promise<void> {
  const env = getEnv();
  if (!env.DATABASE_URL) return;
  const timeout = env.DATABASE_CONNECT_TIMEOUT_MS;
  const client = new pg.Client({
    connectionString: env.DATABASE_URL,
    connectionTimeoutMillis: timeout,
    query_timeout: timeout,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    const reason = /timeout/i.test(String((error as Error).message))
      ? `no answer within ${timeout} ms (DATABASE_CONNECT_TIMEOUT_MS)`
      : (error as Error).message || String(error);
    throw new Error(`Cannot use the database of DATABASE_URL (${describeUrl(env.DATABASE_URL)}): ${reason}`);
  } finally {
    await client.end().catch(() => {});
  }
}

async function openDb(): Promise<DbHandle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: env.DATABASE_URL,
      max: env.DATABASE_POOL_SIZE,
      connectionTimeoutMillis: env.DATABASE_POOL_WAIT_MS,
      // Server-side limit per statement, and a client-side one a little later for a silent host
      // (none for a CLI's bulk work).
      ...(bulk
        ? {}
        : {
            statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS,
            query_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS + 1_000,
          }),
      keepAlive: true,
      // No JIT compilation: every statement here is short, and compiling one whose cost estimate
      // passes jit_above_cost took longer than running it (the re-grade's read, DECISIONS 141).
      options: "-c jit=off",
    });
    // A connection the server closes, idle or in use, must not crash the process.
    listenForErrors(pool);
    currentPool = pool;
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: boundedPool(pool) }) });
    return { db, kind: "postgres", close: () => db.destroy() };
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
 * For a CLI whose statements are bulk work (`npm run seed`): this process's connections get no
 * statement timeout. DATABASE_STATEMENT_TIMEOUT_MS bounds a request's statement; the seed's
 * INSERT … SELECT of a million posts runs the search-words trigger per row for minutes and was
 * cancelled (57014). Call before the first getDb.
 */
export function withoutStatementTimeout(): void {
  if (current) throw new Error("withoutStatementTimeout() must come before the database is opened");
  bulk = true;
}

function handle(): Promise<DbHandle> {
  return (current ??= openDb());
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
  if (!h) return;
  current = undefined;
  await (await h).close();
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
  const client = new pg.Client({
    connectionString: env.DATABASE_URL,
    connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS,
  });
  // A lost connection also loses the lock; the queries of `fn` report it, the process lives on.
  client.on("error", (error) => log("error", "start-up lock connection lost", { error: error.message }));
  await client.connect();
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
  const db = await getDb();
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
