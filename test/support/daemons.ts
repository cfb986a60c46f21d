import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Real daemons from Debian's packages for the tests that put Grader behind them: PgBouncer (the
// pooler a managed database puts in front) and nginx (the load balancer in front of replicas).
// Each runs from a temp dir of its own on a free port; `afterAll(stopDaemons)` in a test file (the
// benches call it themselves).

export type Daemon = { url: string; logs: string[]; process: ChildProcess };
const daemons: Daemon[] = [];

/** SIGTERM to every daemon started here that still runs, and waits for each to exit. */
export async function stopDaemons(): Promise<void> {
  await Promise.all(
    daemons.splice(0).map((d) =>
      d.process.exitCode === null && d.process.signalCode === null
        ? new Promise<void>((resolve) => {
            d.process.once("exit", () => resolve());
            d.process.kill("SIGTERM");
          })
        : null,
    ),
  );
}

/** A binary Debian puts in /usr/sbin, which is not on every PATH. */
function binary(name: string): string {
  const dirs = [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"];
  const found = dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
  if (!found)
    throw new Error(
      `${name} is not installed: this test runs a real ${name}. .ci/run installs it (apt-get install -y ${name}); do the same here`,
    );
  return found;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A temp dir root can hand to a daemon that drops to another user. */
function tempDir(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `grader-${tag}-`));
  chmodSync(dir, 0o755);
  return dir;
}

function spawnDaemon(file: string, args: string[], url: string): Daemon {
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
  const logs: string[] = [];
  child.stdout!.on("data", (c: Buffer) => logs.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => logs.push(c.toString()));
  const daemon = { url, logs, process: child };
  daemons.push(daemon);
  return daemon;
}

async function waitUntil(daemon: Daemon, name: string, probe: () => Promise<void>): Promise<Daemon> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (daemon.process.exitCode !== null)
      throw new Error(`${name} exited with ${daemon.process.exitCode}:\n${daemon.logs.join("")}`);
    try {
      await probe();
      return daemon;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${name} did not answer: ${error}\n${daemon.logs.join("")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A PgBouncer in transaction mode in front of `direct` (a PostgreSQL URL); its own URL to the same database. */
export async function startPgBouncer(direct: URL, poolSize = 20): Promise<Daemon> {
  const dir = tempDir("pgbouncer");
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
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
      `admin_users = ${user}`,
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  // Run as root, PgBouncer switches to the postgres user (-u), which must read its files.
  const args = [...(process.getuid?.() === 0 ? ["-u", "postgres"] : []), ini];
  const url = new URL(direct);
  url.host = `127.0.0.1:${port}`;
  const bouncer = spawnDaemon(binary("pgbouncer"), args, url.toString());
  // Asked on its console, which opens no server connection: one opened now would keep the session
  // defaults from before the server under test writes its role's (pooler.test.ts reads them).
  const adminUrl = new URL(bouncer.url);
  adminUrl.pathname = "/pgbouncer";
  return waitUntil(bouncer, "pgbouncer", async () => {
    const client = new pg.Client({ connectionString: adminUrl.toString() });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SHOW VERSION");
    } finally {
      await client.end().catch(() => {});
    }
  });
}

/**
 * nginx as a round-robin load balancer in front of `upstreams` (http://host:port), as an operator
 * would put it (docker-compose.yml has the same): the client's address in X-Forwarded-For, the
 * original Host, no buffering of streamed answers, and a replica that refuses connections skipped
 * for the next one (idempotent requests only, nginx's default).
 */
export async function startNginx(upstreams: string[], port?: number): Promise<Daemon> {
  const dir = tempDir("nginx");
  for (const sub of ["logs", "tmp"]) mkdirSync(path.join(dir, sub));
  port ??= await freePort();
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(
    conf,
    [
      "daemon off;",
      "worker_processes 1;",
      `pid ${dir}/nginx.pid;`,
      "error_log stderr warn;",
      // Run as root, nginx's workers drop to nobody; as anyone else it stays that user.
      ...(process.getuid?.() === 0 ? ["user nobody nogroup;"] : []),
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      `  client_body_temp_path ${dir}/tmp/body;`,
      `  proxy_temp_path ${dir}/tmp/proxy;`,
      `  fastcgi_temp_path ${dir}/tmp/fastcgi;`,
      `  uwsgi_temp_path ${dir}/tmp/uwsgi;`,
      `  scgi_temp_path ${dir}/tmp/scgi;`,
      "  upstream grader {",
      ...upstreams.map((u) => `    server ${new URL(u).host} max_fails=1 fail_timeout=5s;`),
      "    keepalive 16;",
      // Below the server's 65 s keep-alive timeout and the replicas' SHUTDOWN_DRAIN_SECONDS: nginx closes
      // an idle connection before the replica does, never sends on one being closed.
      "    keepalive_timeout 2s;",
      "  }",
      "  server {",
      `    listen 127.0.0.1:${port};`,
      "    client_max_body_size 2m;",
      "    location / {",
      "      proxy_pass http://grader;",
      "      proxy_http_version 1.1;",
      '      proxy_set_header Connection "";',
      "      proxy_set_header Host $http_host;",
      "      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
      "      proxy_set_header X-Forwarded-Proto $scheme;",
      "      proxy_buffering off;",
      "      proxy_read_timeout 120s;",
      "    }",
      "  }",
      "}",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const nginx = spawnDaemon(binary("nginx"), ["-c", conf, "-p", dir], `http://127.0.0.1:${port}`);
  return waitUntil(nginx, "nginx", async () => {
    const res = await fetch(`${nginx.url}/healthz`);
    if (!res.ok) throw new Error(`healthz ${res.status}`);
  });
}
