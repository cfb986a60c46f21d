import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postForm, signUp, waitForImports } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { exchange, tradesOf } from "../support/plaid-link";
import { scenario, start } from "./servers";

// A server whose DATABASE_URL goes through PgBouncer in transaction mode, as a managed pooler
// would put it, and whose DATABASE_DIRECT_URL is PostgreSQL itself (docs/DECISIONS.md 169).
// PgBouncer refuses start-up parameters it does not know ("unsupported startup parameter") and
// keeps no session between transactions: the server must start (migrations, job queues), serve,
// run jobs, and its statement timeout must still hold through the pooler. Several processes on
// one PostgreSQL need DATABASE_URL: PGlite has no pooler.

const RUN = Date.now().toString(36);
const TIMEOUT_MS = 3_000;

/** PgBouncer's binary: Debian puts it in /usr/sbin, which is not on every PATH. */
function pgbouncerBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"];
  return dirs.map((d) => path.join(d, "pgbouncer")).find((p) => existsSync(p));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Bouncer = { url: string; logs: string[]; process: ChildProcess };
const bouncers: Bouncer[] = [];
afterAll(() => {
  for (const b of bouncers) if (b.process.exitCode === null) b.process.kill("SIGTERM");
});

/** A PgBouncer of this test's own (temp dir, free port) in transaction mode in front of `direct`. */
async function startPgBouncer(direct: URL): Promise<Bouncer> {
  const binary = pgbouncerBinary();
  if (!binary)
    throw new Error(
      "pgbouncer is not installed: this test runs a real PgBouncer. .ci/run installs it (apt-get install -y pgbouncer); do the same here",
    );
  const dir = mkdtempSync(path.join(os.tmpdir(), "grader-pgbouncer-"));
  // Run as root, PgBouncer switches to the postgres user (-u), which must read its files.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const db = direct.pathname.slice(1);
  const user = decodeURIComponent(direct.username || "postgres");
  const password = decodeURIComponent(direct.password);
  const target = [
    `host=${direct.hostname}`,
    `port=${direct.port || 5432}`,
    `dbname=${db}`,
    ...(password ? [`password=${password}`] : []),
  ].join(" ");
  // trust still needs the user listed in the auth file; no ignore_startup_parameters, as by default.
  writeFileSync(path.join(dir, "users.txt"), `"${user}" "${password}"\n`, { mode: 0o644 });
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `${db} = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "default_pool_size = 20",
      "max_client_conn = 500",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const args = [...(process.getuid?.() === 0 ? ["-u", "postgres"] : []), ini];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  const logs: string[] = [];
  child.stdout!.on("data", (c: Buffer) => logs.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
  const url = new URL(direct);
  url.host = `127.0.0.1:${port}`;
  const bouncer = { url: url.toString(), logs, process: child };
  bouncers.push(bouncer);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${logs.join("")}`);
    const client = new pg.Client({ connectionString: bouncer.url });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("select 1");
      return bouncer;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`pgbouncer did not answer: ${error}\n${logs.join("")}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

describe.skipIf(!process.env.DATABASE_URL)("a server behind PgBouncer in transaction mode", () => {
  it("starts, signs up and in, runs an import's jobs, and its statement timeout holds", async () => {
    const env = await scenario({ DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
    const direct = new URL(env.DATABASE_URL!);
    const bouncer = await startPgBouncer(direct);
    // Migrations, the start-up lock and the job queue's set-up go direct; the rest through PgBouncer.
    const server = await start({ ...env, DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: direct.toString() });

    const { cookie, email, password } = await signUp({ base: server.url });
    const signIn = await postForm("/signin", { email, password }, { base: server.url });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.getSetCookie().some((c) => c.startsWith("grader_session="))).toBe(true);

    // An import is a chain of jobs (pg-boss through the pooler, COPY in their transactions).
    const username = `user_good_${RUN}b`;
    const linked = await exchange(server.url, cookie, username);
    const [done] = await waitForImports(cookie, { base: server.url, timeoutMs: 45_000 });
    const expected = expectedDemoLedger(username);
    expect(done).toMatchObject({ id: linked.import_id, state: "done", error: null, total: expected.transactions });
    expect(await tradesOf(server.url, cookie)).toBe(expected.trades);

    // A session through PgBouncer, as the server's pool opens them (no start-up parameters): the
    // role's defaults hold, and a statement past the timeout is cancelled.
    const client = new pg.Client({ connectionString: bouncer.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select name, setting from pg_settings where name in ('statement_timeout', 'jit') order by name",
      );
      expect(rows).toEqual([
        { name: "jit", setting: "off" },
        { name: "statement_timeout", setting: String(TIMEOUT_MS) },
      ]);
      const started = Date.now();
      const error = await client.query("select pg_sleep(20)").then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
      expect(error?.code).toBe("57014");
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5_000);
    } finally {
      await client.end();
    }

    expect(await server.stop()).toBe(0);
    const everything = [...server.logs, ...bouncer.logs].join("\n");
    expect(everything).not.toMatch(/unsupported startup parameter/i);
    // The server's connections did go through PgBouncer.
    expect(bouncer.logs.join("")).toMatch(/login attempt: db=\S+ user=/);
  }, 120_000);
});
