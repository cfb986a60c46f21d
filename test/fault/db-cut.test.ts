import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import type { RunningServer } from "../support/server";
import { get, signUp, waitForImports } from "../support/http";
import { exchange, importsOf } from "../support/plaid-link";
import { proxiedDatabase, type TcpProxy } from "../support/tcp-proxy";
import { invariantProblems } from "./invariants";
import { isRunning, scenario, start, waitFor } from "./servers";

// PostgreSQL cut (every connection reset, new ones refused) and restored while the server sends a
// mail and while a scheduled job is due: the process stays up, /healthz is 200 again after the
// restore, and the work is done after it. db-outage.test.ts does the same under a request and an
// import job. A TCP proxy does the cutting, so this needs DATABASE_URL: PGlite has no connection.

const RUN = Date.now().toString(36);
const proxies: TcpProxy[] = [];
const smtps: SMTPServer[] = [];
afterAll(async () => {
  for (const p of proxies) {
    p.cut();
    await p.close();
  }
  for (const s of smtps) await new Promise<void>((r) => s.close(() => r()));
});

function alive(server: RunningServer) {
  if (!isRunning(server))
    throw new Error(
      `the server died (${server.process.exitCode ?? server.process.signalCode}):\n${server.logs.slice(-30).join("\n")}`,
    );
}

async function healthyAgain(server: RunningServer) {
  await waitFor(
    "/healthz 200 after the restore",
    async () => (alive(server), (await get("/healthz", { base: server.url })).status === 200 ? true : undefined),
    30_000,
  );
}

/** The database as it is reached around the proxy, for reading rows during the test. */
async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(!process.env.DATABASE_URL)("PostgreSQL cut and restored", () => {
  it("while a mail is being sent: the process lives, and the mail is delivered and marked sent after the restore", async () => {
    const own = await scenario();
    const { url, proxy } = await proxiedDatabase(own.DATABASE_URL!);
    proxies.push(proxy);

    // A real SMTP server on loopback. The first message to the trader cuts the database after the
    // sender claimed its row (a lease, committed: DECISIONS 171) and before it marks it sent; the
    // message is accepted a second later, and the database comes back a second after that.
    let target = "";
    const received: string[] = [];
    let cut = false;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        stream.on("data", () => {});
        stream.on("end", () => {
          if (to !== target || cut) {
            received.push(to);
            return callback();
          }
          cut = true;
          proxy.cut();
          setTimeout(() => {
            received.push(to);
            callback();
            setTimeout(() => proxy.restore(), 1_000);
          }, 1_000);
        });
      },
    });
    smtps.push(smtp);
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    const server = await start({
      ...own,
      DATABASE_URL: url,
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
      MAIL_FROM: "Grader <no-reply@grader.test>",
      // The claim the cut leaves behind lapses within seconds rather than minutes.
      MAIL_LEASE_SECONDS: "5",
    });

    // Signing up queues the verification mail with the new account; the worker sends it at once.
    target = `cut-${RUN}@example.com`;
    const { email } = await signUp({ base: server.url, email: target });
    await waitFor("the cut", async () => (cut ? true : undefined), 30_000);
    alive(server);
    await healthyAgain(server);
    // The row is claimed but unmarked (the mark was lost with the connection): once the lease has
    // passed, the next mail-deliver job (every minute) claims it again, sends it and marks it sent.
    const [row] = await waitFor(
      "the mail marked sent",
      async () => {
        const rows = await query<{ sent_at: Date | null; attempts: number }>(
          own.DATABASE_URL!,
          "select sent_at, attempts from outbox where to_email = $1",
          [target],
        );
        return rows[0]?.sent_at ? rows : undefined;
      },
      120_000,
    );
    expect(row!.sent_at).not.toBeNull();
    // Twice: SMTP accepted it during the cut, and the mark of that was lost with the connection.
    // Delivery is at least once (docs/OPERATIONS.md, Mail); nothing can make an SMTP hand-off and a
    // database commit one step.
    expect(received.filter((to) => to === target)).toHaveLength(2);
    expect(row!.attempts).toBe(2);
    expect(server.logs.join("\n")).toContain("mail claim lapsed without an outcome; sending again");
    alive(server);
    expect(server.logs.join("\n")).toContain("database connection lost");
    expect(server.logs.join("\n")).not.toMatch(/unhandled|triggerUncaughtException/i);
    expect(await server.stop()).toBe(0);
    expect(await invariantProblems(own, { users: [email] })).toEqual([]);
  });

  it("while a scheduled job is due: the process lives, and the schedule runs again after the restore", async () => {
    const own = await scenario();
    const { url, proxy } = await proxiedDatabase(own.DATABASE_URL!);
    proxies.push(proxy);
    // The Plaid poll (an account not imported for PLAID_POLL_SECONDS is imported again) every 3 s.
    const server = await start({ ...own, DATABASE_URL: url, SIM_DELAY_FACTOR: "0", PLAID_POLL_SECONDS: "3" });
    const { cookie, email } = await signUp({ base: server.url });
    await exchange(server.url, cookie, `user_good_${RUN}s`);
    await waitForImports(cookie, { base: server.url, timeoutMs: 60_000 });

    // Down for longer than a poll's period: the poll falls due while nothing reaches the database.
    proxy.cut();
    await new Promise((r) => setTimeout(r, 4_000));
    alive(server);
    expect((await get("/healthz", { base: server.url })).status).toBe(503);
    proxy.restore();
    const restored = Date.now();
    await healthyAgain(server);

    // A poll after the restore re-imports the account, adding nothing twice.
    const polled = await waitFor(
      "a poll's import after the restore",
      async () => {
        const rows = (await importsOf(server.url, cookie)) as (Awaited<ReturnType<typeof importsOf>>[number] & {
          reason: string;
          created_at: string;
        })[];
        return rows.find((r) => r.reason === "poll" && r.state === "done" && Date.parse(r.created_at) > restored);
      },
      120_000,
    );
    expect(polled).toMatchObject({ state: "done", error: null, trades_added: 0 });
    alive(server);
    expect(server.logs.join("\n")).not.toMatch(/unhandled|triggerUncaughtException/i);
    expect(await server.stop()).toBe(0);
    expect(await invariantProblems(own, { users: [email] })).toEqual([]);
  });
});
