import type { ClubChange } from "~/lib/live-events";
import type { NotificationKind } from "~/lib/notifications";
import { CompiledQuery } from "kysely";
import PgBoss from "pg-boss";
import { getDb, getDirectDb, withStartupLock, type DB } from "./db.server";
import { getEnv } from "./env.server";
import { log } from "./log.server";

/**
 * The job queue: pg-boss on the app's own database (docs/DECISIONS.md 68), through the same Kysely
 * pool on PostgreSQL and PGlite. Jobs are enqueued inside the transaction that creates their work
 * (`enqueue(trx, …)`), so a rolled-back request leaves no job behind and a committed one always has
 * its job. Workers poll (no LISTEN connection), so any number of app processes can share one
 * database and each job runs once. pg-boss's schema and queues are set up on the direct connection
 * (DATABASE_DIRECT_URL); its work and maintenance are transactions, which a pooler carries (its
 * advisory locks are transaction locks, its settings SET LOCAL).
 */
export type JobName =
  | "import-step"
  | "import-failed"
  | "regrade"
  | "evaluate"
  | "notification-digest"
  | "import-poll"
  | "engine-regrade"
  | "currency-regrade"
  | "mail-deliver"
  | "leaderboard-compact"
  | "season-close"
  | "push"
  | "trade-alert"
  | "trade-alert-deliver"
  | "trade-alert-sync"
  | "trade-alert-prune"
  | "club-live";
export type JobData = {
  // step: which step of the import this job is (a retried job whose step was committed is stale).
  "import-step": { importId: number; step: number };
  "import-failed": { importId: number };
  // busySince: when this re-grade first found the trader's lease held (it waits, bounded).
  regrade: { importId: number; userId: number; busySince?: number };
  // An evaluation a trader asked for (grades/evaluation-runs.server.ts): its row holds the outcome.
  evaluate: { runId: number };
  "notification-digest": Record<string, never>;
  // The periodic poll of Plaid accounts (a webhook that never came); its handler sends the next one.
  "import-poll": Record<string, never>;
  // One batch of grades re-made under a new engine (grades/engine-regrade.server.ts): the version
  // that sent it, and the last trader id the chain has passed.
  "engine-regrade": { version: string; after: number };
  // A trader's grade re-made in the base currency they chose (grades/currency-regrade.server.ts).
  "currency-regrade": { userId: number; currency: string };
  // The outbox sent (platform/mail.server.ts): queued with each mail and every minute.
  "mail-deliver": Record<string, never>;
  // market_leaderboard_counts folded (community/market.server.ts).
  "leaderboard-compact": Record<string, never>;
  // Past leaderboard seasons closed: winners stored, paid and told (community/seasons.server.ts).
  "season-close": Record<string, never>;
  // A notification sent by Web Push to these recipients' browsers (community/push.server.ts).
  push: { kind: NotificationKind; subject: string; userIds: number[] };
  // A live trade alert, from the trader's delay on: its audiences listed, its batches queued
  // (community/trade-alerts.server.ts).
  "trade-alert": { alertId: string };
  // One batch of an alert's recipients in one audience (absent: the trader's subscribers), each
  // checked again as it is delivered.
  "trade-alert-deliver": { alertId: string; userIds: number[]; audience?: { kind: "subscribers" } };
  // Wallets and exchange accounts of traders who share trades live, imported again.
  "trade-alert-sync": Record<string, never>;
  // Delivery records of trade alerts past their use deleted, in batches (trade-alerts.server.ts).
  "trade-alert-prune": Record<string, never>;
  // A big club's members told that it changed, one batch after member id `after` (club-live.server.ts).
  "club-live": { clubId: number; what: ClubChange; after: number };
};

/**
 * Work on the clock, once per cluster (DECISIONS 171): pg-boss's scheduler, running in every process
 * with job workers, puts one job in the queue per cron slot (its cron check is taken by one process at
 * a time, and the job it sends is a singleton of its minute), and the queues below hold at most
 * one waiting. Cron is in UTC; a minute is its shortest period.
 */
const SCHEDULES: { [N in JobName]?: string } = {
  "notification-digest": "*/15 * * * *",
  "leaderboard-compact": "* * * * *",
  // The retries, and mail whose sender died (its lease passed); new mail queues a job of its own.
  "mail-deliver": "* * * * *",
  // The month just ended, five minutes in (and any month a missed run left open).
  "season-close": "5 0 1 * *",
  // Live trade alerts' wallets and exchanges (each account at most every 15 minutes).
  "trade-alert-sync": "*/5 * * * *",
  // Trade alerts' delivery records older than DELIVERIES_KEPT_DAYS, at night (UTC).
  "trade-alert-prune": "17 3 * * *",
};
export type JobHandler<N extends JobName> = (
  data: JobData[N],
  job: { id: string; retryCount: number; retryLimit: number; output?: unknown },
) => Promise<void>;

// A pg-boss script that opens its own transaction (schema set-up, migrations, maintenance).
const OWN_TRANSACTION = /^\s*begin\b/i;

// pg-boss's only link to the database: every statement through Kysely (a transaction's when given).
// Exported for its test.
export function adapter(db: DB): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const query = CompiledQuery.raw(text, values ?? []);
      if (db.isTransaction || !OWN_TRANSACTION.test(text)) return { rows: [...(await db.executeQuery(query)).rows] };
      // pg-boss's set-up and maintenance are scripts with their own BEGIN … COMMIT. One that fails
      // part-way (replicas creating the schema together: "already exists", which pg-boss expects)
      // leaves its connection in the aborted transaction, and back in the pool that connection
      // answered the next statement, anyone's, with 25P02. So: one connection, rolled back on failure.
      return db.connection().execute(async (conn) => {
        try {
          return { rows: [...(await conn.executeQuery(query)).rows] };
        } catch (error) {
          await conn.executeQuery(CompiledQuery.raw("rollback")).catch(() => {});
          throw error;
        }
      });
    },
  };
}

function queues(): PgBoss.Queue[] {
  const env = getEnv();
  const shared = { expireInSeconds: env.JOB_EXPIRE_SECONDS, retentionMinutes: 60 * 24 * 7 };
  return [
    // Provider errors and rate limits retry with exponential backoff (pg-boss doubles the delay and
    // adds jitter); when the retries are spent, the job moves to import-failed, whose handler gives
    // the import its final state and message. A crashed worker's job counts as one failed attempt.
    { name: "import-failed", ...shared, retryLimit: 5, retryDelay: 5, retryBackoff: true },
    {
      name: "import-step",
      ...shared,
      retryLimit: env.JOB_RETRY_LIMIT,
      retryDelay: env.JOB_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      deadLetter: "import-failed",
    },
    // One poll waiting at a time, whatever the number of processes (stately: one queued, one active).
    { name: "import-poll", ...shared, policy: "stately", retryLimit: 2, retryDelay: 60 },
    {
      name: "regrade",
      ...shared,
      retryLimit: env.JOB_RETRY_LIMIT,
      retryDelay: env.JOB_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      deadLetter: "import-failed",
    },
    // An evaluation asked for: retried while another holds the trader's lease (a crashed attempt's
    // lapses in seconds); its last attempt writes the outcome, whatever it is.
    { name: "evaluate", ...shared, retryLimit: 5, retryDelay: 5 },
    // Grades re-made under a new engine: one batch waiting and one running, whatever the number of
    // processes that ask at start-up (stately), so each trader is re-made by one job.
    {
      name: "engine-regrade",
      ...shared,
      policy: "stately",
      retryLimit: env.JOB_RETRY_LIMIT,
      retryDelay: env.JOB_RETRY_DELAY_SECONDS,
      retryBackoff: true,
    },
    // A grade re-made in a new base currency: queued with the settings' change, retried like a re-grade.
    {
      name: "currency-regrade",
      ...shared,
      retryLimit: env.JOB_RETRY_LIMIT,
      retryDelay: env.JOB_RETRY_DELAY_SECONDS,
      retryBackoff: true,
    },
    // The scheduled queues: one waiting and one running at most, and a failed run waits for the next
    // slot. The e-mail digest (notifications.server.ts) is idempotent; so is compaction.
    { name: "notification-digest", ...shared, policy: "stately", retryLimit: 2, retryDelay: 60 },
    { name: "leaderboard-compact", ...shared, policy: "stately", retryLimit: 0 },
    // Closing a season is idempotent (a closed season is skipped), so a failed run simply retries.
    { name: "season-close", ...shared, policy: "stately", retryLimit: 3, retryDelay: 300 },
    // One waiting (short), any number running: each mail is claimed with a lease (mail.server.ts), so
    // runs side by side send it once, and a run stuck in a dead worker holds up no mail.
    { name: "mail-deliver", ...shared, policy: "short", retryLimit: 0 },
    // A push is a courtesy beside the bell: retried only when the database failed under it.
    { name: "push", ...shared, retryLimit: 2, retryDelay: 10 },
    // Trade alerts: a fan-out is claimed once and a batch's recipients once each (their tables'
    // keys), so a retry after a failure, or a crash after the commit, tells nobody twice.
    { name: "trade-alert", ...shared, retryLimit: 3, retryDelay: 30 },
    { name: "trade-alert-deliver", ...shared, retryLimit: 3, retryDelay: 30 },
    { name: "trade-alert-sync", ...shared, policy: "stately", retryLimit: 0 },
    // Pruning is idempotent: a failed run leaves the rest to the next night.
    { name: "trade-alert-prune", ...shared, policy: "stately", retryLimit: 0 },
    // A club's change told to its members in batches: a retry tells a batch again (a page reloads twice).
    { name: "club-live", ...shared, retryLimit: 3, retryDelay: 10 },
  ];
}

type Running = { boss: PgBoss; clock?: PgBoss; workers: boolean; workerIds: Map<JobName, string[]> };
// One pg-boss per process.
let current: Promise<Running> | undefined;

async function open(): Promise<Running> {
  const env = getEnv();
  const pooled = await getDb();
  // The set-up below goes direct; everything after it through DATABASE_URL.
  let db = await getDirectDb();
  const boss = new PgBoss({
    db: { executeSql: (text, values) => adapter(db).executeSql(text, values) },
    schema: "pgboss",
    // Maintenance puts expired jobs (a worker that died mid-job) back in line: check as often as a
    // job may last, so a crashed worker holds its job for at most about two expiry periods.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, env.JOB_EXPIRE_SECONDS)),
    // The scheduler is a pg-boss of its own, started with the workers (startClock).
    schedule: false,
  });
  boss.on("error", reportError);
  // One process at a time sets up the schema and the queues (replicas starting together).
  await withStartupLock(async () => {
    await boss.start();
    for (const q of queues()) {
      if (await boss.getQueue(q.name)) await boss.updateQueue(q.name, q);
      else await boss.createQueue(q.name, q);
    }
  });
  db = pooled;
  return { boss, workers: false, workerIds: new Map() };
}

function reportError(error: unknown) {
  log("error", "job queue error", { error: String((error as Error)?.message ?? error).slice(0, 300) });
}

/**
 * pg-boss's scheduler, in a process with job workers only: a second pg-boss on the same database
 * that neither sets up nor maintains (the first does), so a script or a web replica that only
 * enqueues never runs the clock. The schedules this process has handlers for are saved first, so
 * the clock's check at start finds them (the next is 30 s later).
 */
async function startClock(boss: PgBoss, names: JobName[]): Promise<PgBoss> {
  for (const name of names) await boss.schedule(name, SCHEDULES[name]!, {}, { tz: "UTC" });
  const clock = new PgBoss({
    db: adapter(await getDb()),
    schema: "pgboss",
    migrate: false,
    supervise: false,
    schedule: true,
  });
  clock.on("error", reportError);
  await clock.start();
  return clock;
}

function running(): Promise<Running> {
  return (current ??= open());
}

/** Enqueues a job, on the caller's transaction when given (it exists only if that commits). */
export async function enqueue<N extends JobName>(
  trx: DB | null,
  name: N,
  data: JobData[N],
  options: { startAfterSeconds?: number } = {},
): Promise<void> {
  const { boss } = await running();
  await boss.send(name, data, {
    ...(trx ? { db: adapter(trx) } : {}),
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
  });
}

/** Starts the queue and the workers of this process (server.ts, after migrations). */
export async function startJobs(handlers: { [N in JobName]?: JobHandler<N> }): Promise<void> {
  const env = getEnv();
  const r = await running();
  if (r.workers || env.JOB_WORKERS === 0) return;
  r.workers = true;
  for (const name of Object.keys(handlers) as JobName[]) {
    const handler = handlers[name] as JobHandler<JobName>;
    // Imports and evaluations get the configured workers; the others need one.
    for (let i = 0; i < (name === "import-step" || name === "evaluate" ? env.JOB_WORKERS : 1); i++) {
      const id = await r.boss.work<JobData[JobName]>(
        name,
        { pollingIntervalSeconds: env.JOB_POLL_SECONDS, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          const started = Date.now();
          // Debug only: tells a fault test which process holds a job (replica.test.ts).
          log("debug", "job started", { job: name, id: job.id, data: job.data, pid: process.pid });
          try {
            await handler(job.data, {
              id: job.id,
              retryCount: job.retryCount,
              retryLimit: job.retryLimit,
              output: job.output,
            });
            log("info", "job done", {
              job: name,
              id: job.id,
              data: job.data,
              ms: Date.now() - started,
              pid: process.pid,
            });
          } catch (thrown) {
            // A Response belongs to a request: a job that meets one (a service's 503) fails with an
            // ordinary error, which pg-boss records and retries.
            const error =
              thrown instanceof Response
                ? new Error(`${thrown.status} ${(await thrown.text().catch(() => "")).slice(0, 200)}`)
                : thrown;
            log("info", "job failed", {
              job: name,
              id: job.id,
              data: job.data,
              retry: job.retryCount,
              error: String((error as Error)?.message ?? error).slice(0, 300),
            });
            throw error;
          }
        },
      );
      r.workerIds.set(name, [...(r.workerIds.get(name) ?? []), id]);
    }
  }
  r.clock = await startClock(
    r.boss,
    (Object.keys(handlers) as JobName[]).filter((name) => SCHEDULES[name]),
  );
  // The first poll (ignored when another process already has one waiting). Its period is any
  // number of seconds, below cron's minute, so it is a chain of delayed jobs rather than a schedule.
  if (env.PLAID_POLL_SECONDS > 0) await enqueue(null, "import-poll", {}, { startAfterSeconds: env.PLAID_POLL_SECONDS });
}

/**
 * Wakes this process's idle workers of a queue after a transaction that enqueued to it committed,
 * so a chain of short jobs does not wait a polling interval between steps (other processes still
 * find the job by polling).
 */
export function wake(name: JobName): void {
  void current
    ?.then((running) => {
      for (const id of running.workerIds.get(name) ?? []) running.boss.notifyWorker(id);
    })
    .catch(() => {}); // a queue that failed to start said so at start-up
}

/** Stops the workers (waiting for running jobs up to timeoutMs) before the database closes. */
export async function stopJobs(timeoutMs: number): Promise<void> {
  const r = current;
  if (!r) return;
  current = undefined;
  const { boss, clock } = await r;
  await clock?.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
}
