import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";
import { signUp } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// The scheduled work (the digest, the leaderboard's compaction, mail delivery, closing seasons, the
// trade alerts' sync) runs on pg-boss's
// clock once per cluster, in the processes with job workers only (DECISIONS 171).

const started: RunningServer[] = [];
const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => {
      received.push(session.envelope.rcptTo.map((r) => r.address).join(","));
      callback();
    });
  },
});
await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
const SMTP = { SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}` };

afterAll(async () => {
  await Promise.all(started.map((s) => (s.process.exitCode === null ? s.stop() : null)));
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function start(env: Record<string, string>) {
  const server = await startServer({ LOG_REQUESTS: "0", ...env }, { timeoutMs: 120_000 });
  started.push(server);
  return server;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The jobs a server's log says it finished, by queue. */
const done = (server: RunningServer, queue: string) =>
  server.logs.filter((line) => line.includes(`"msg":"job done"`) && line.includes(`"job":"${queue}"`)).length;

describe("scheduled work on one server", () => {
  it("runs on pg-boss's clock, on PGlite too", async () => {
    const server = await start(process.env.DATABASE_URL ? await ownDatabase() : {});
    // A minute's schedule is due at start: its job comes within a cron check and a poll.
    await waitFor("a compaction job", async () => (done(server, "leaderboard-compact") ? true : undefined), 45_000);
  }, 120_000);
});

// Several processes on one database need PostgreSQL: PGlite belongs to one process.
describe.skipIf(!process.env.DATABASE_URL)("scheduled work in a cluster", () => {
  it("two workers and a web replica started together run each slot's job once, on a worker", async () => {
    const own = await ownDatabase();
    const client = new pg.Client({ connectionString: own.DATABASE_URL });
    const since = Date.now();
    const [first, second, web] = await Promise.all([
      start({ ...own, ...SMTP }),
      start({ ...own, ...SMTP }),
      start({ ...own, ...SMTP, JOB_WORKERS: "0" }),
    ]);
    await client.connect();
    try {
      const schedules = await client.query<{ name: string; cron: string }>(
        "select name, cron from pgboss.schedule order by name",
      );
      expect(schedules.rows).toEqual([
        { name: "leaderboard-compact", cron: "* * * * *" },
        { name: "mail-deliver", cron: "* * * * *" },
        { name: "notification-digest", cron: "*/15 * * * *" },
        { name: "season-close", cron: "5 0 1 * *" },
        { name: "trade-alert-prune", cron: "17 3 * * *" },
        { name: "trade-alert-sync", cron: "*/5 * * * *" },
      ]);
      // The digest's quarter hours would outlast the test: every minute here, as the next cron
      // check (within 30 s) reads it.
      // So does the monthly season close (its run here closes nothing: no past season is open).
      await client.query(
        "update pgboss.schedule set cron = '* * * * *' where name in ('notification-digest', 'season-close')",
      );
      const count = async (queue: string) =>
        Number(
          (
            await client.query<{ n: string }>(
              "select count(*) as n from pgboss.job where name = $1 and state = 'completed'",
              [queue],
            )
          ).rows[0]!.n,
        );
      await waitFor(
        "a compaction, a digest and a season-close job",
        async () =>
          (await count("leaderboard-compact")) && (await count("notification-digest")) && (await count("season-close"))
            ? true
            : undefined,
        60_000,
      );

      // Mail written through the web replica is sent by a worker, each once.
      const emails = await Promise.all([1, 2, 3, 4].map(async () => (await signUp({ base: web.url })).email));
      await waitFor(
        "the verification mails",
        async () => (emails.every((e) => received.includes(e)) ? true : undefined),
        30_000,
      );
      // Two more cron checks and scheduler polls, for a second run in the same slot to show.
      await new Promise((r) => setTimeout(r, 12_000));
      for (const e of emails) expect(received.filter((to) => to === e)).toHaveLength(1);

      // One job per minute slot at most, whatever the number of processes.
      const slots = Math.floor(Date.now() / 60_000) - Math.floor(since / 60_000) + 1;
      for (const queue of ["leaderboard-compact", "notification-digest", "season-close"]) {
        const jobs = Number(
          (await client.query<{ n: string }>("select count(*) as n from pgboss.job where name = $1", [queue])).rows[0]!
            .n,
        );
        expect(jobs, queue).toBeGreaterThanOrEqual(1);
        expect(jobs, queue).toBeLessThanOrEqual(slots);
        expect(done(first, queue) + done(second, queue), queue).toBeGreaterThanOrEqual(1);
      }
      // The web replica runs no job: the scheduled ones and mail go to the workers.
      for (const queue of ["leaderboard-compact", "notification-digest", "season-close", "mail-deliver"])
        expect(done(web, queue), queue).toBe(0);
      expect(done(first, "mail-deliver") + done(second, "mail-deliver")).toBeGreaterThanOrEqual(1);
    } finally {
      await client.end();
    }
  }, 240_000);
});
