import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import pg from "pg";

export type RunningServer = {
  url: string;
  logs: string[];
  process: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>;
};

const root = path.resolve(import.meta.dirname, "../..");

/** A fixed test-only key: every process on one database seals provider tokens and signing keys with it. */
export const TEST_ENCRYPTION_KEY = "4d1c0f6e2b7a9c3e5f8d0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d";

/**
 * Starts the built server (server.ts + build/) on an ephemeral port, as `npm start` would run it:
 * in-memory PGlite by default, or the PostgreSQL of DATABASE_URL when set (CI).
 */
export async function startServer(
  env: Record<string, string> = {},
  opts: { timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<RunningServer> {
  // nodeArgs: flags Node refuses in NODE_OPTIONS (--cpu-prof, --expose-gc), for the benches.
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      RATE_LIMIT_FACTOR: "100",
      // Some tests have one trader's imports graded many times a day (link-limits.test.ts checks
      // the bound with a tight one).
      AUTO_GRADES_PER_DAY: "1000",
      // Jobs: quick polling and short retries, so a failing import ends within seconds.
      JOB_POLL_SECONDS: "0.5",
      JOB_RETRY_LIMIT: "2",
      JOB_RETRY_DELAY_SECONDS: "1",
      // The suite fires bursts of concurrent requests on a shared, loaded machine: admission
      // control gets room here (operations.test.ts checks it with tight limits).
      MAX_CONCURRENT_RENDERS: "64",
      RENDER_QUEUE_WAIT_MS: "10000",
      RENDER_QUEUE_MAX: "10000",
      // Every provider on its simulator, chosen explicitly (a production server refuses otherwise).
      DEMO: "1",
      // Tests count their own users and posts: no demo community unless a test asks (SEED_DEMO=1).
      SEED_DEMO: "0",
      // Required with DATABASE_URL, and every process on one database may run any import job, so
      // they share the key of the tokens (as replicas must; a fixed test-only key).
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY || TEST_ENCRYPTION_KEY,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${logs.join("\n")}`)),
      opts.timeoutMs ?? 180_000,
    );
    let buffer = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        logs.push(line);
        if (logs.length > 2000) logs.shift();
        try {
          const entry = JSON.parse(line);
          if (entry.msg === "listening") {
            clearTimeout(timer);
            resolve(`http://127.0.0.1:${entry.port}`);
          }
        } catch {
          /* not a log line */
        }
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join("\n")}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    url,
    logs,
    process: child,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * How ownDatabase names its databases: TEST_DATABASE_PREFIX when several people's runs share one
 * PostgreSQL and each keeps to names of its own, else grader_t_.
 */
function prefix(): string {
  const p = process.env.TEST_DATABASE_PREFIX || "grader_t_";
  if (!/^[a-z_][a-z0-9_]*$/.test(p)) throw new Error(`TEST_DATABASE_PREFIX must be a lower-case identifier: ${p}`);
  return p;
}

/**
 * A client on DATABASE_URL's database for creating and dropping databases. Its statements run
 * without a time limit: the role's default there is the app's request timeout (db.server.ts,
 * applyRoleSettings), and a `drop database … with (force)` on a loaded machine can outlast it.
 */
export async function adminClient(): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query("set statement_timeout = 0");
  return admin;
}

/** Drops a database ownDatabase made (its URL), sessions and all. */
export async function dropOwnDatabase(url: string): Promise<void> {
  const admin = await adminClient();
  try {
    await admin.query(`drop database if exists ${admin.escapeIdentifier(new URL(url).pathname.slice(1))} with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * Drops the databases ownDatabase made more than an hour ago (earlier runs; no run lasts that
 * long), so repeated runs on one PostgreSQL do not pile them up.
 */
export async function dropStaleTestDatabases(): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  const admin = await adminClient();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, $1)",
      [prefix()],
    );
    const hourAgo = Date.now() - 3_600_000;
    for (const { datname } of rows) {
      const made = parseInt(datname.slice(prefix().length).split("_")[0] ?? "", 36);
      if (Number.isFinite(made) && made < hourAgo) await admin.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

/**
 * Settings that give a test server a database of its own: PGlite in memory already is; on
 * PostgreSQL a new database next to DATABASE_URL's, so the shared server's job workers (other
 * settings, other simulators) never take its jobs.
 */
export async function ownDatabase(): Promise<Record<string, string>> {
  if (!process.env.DATABASE_URL) return {};
  const name = `${prefix()}${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = await adminClient();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}
