import { sql } from "kysely";
import pg from "pg";
import type { LiveEvent, LiveKind } from "~/lib/live-events";
import { getDb, listenTarget, type DB } from "./db.server";
import { getEnv } from "./env.server";
import { log } from "./log.server";

/**
 * The live channel (DECISIONS 187, 188). A service raises an event for users on the transaction of
 * what caused it: the event row and the NOTIFY exist only if that commits. Each user's events are
 * numbered by live_seqs, whose row lock (held to the end of the raising transaction) makes a
 * user's numbers commit in order, so a stream that has delivered N has seen everything up to N.
 * Each process LISTENs on one dedicated direct connection and wakes its own streams of that user.
 */

export const LIVE_CHANNEL = "grader_live";
/** How long events are kept for a reconnect to replay (pruned by the digest job every 15 min). */
export const LIVE_RETENTION_HOURS = 24;

/** Raises one event for each of `userIds` (the same data for all). */
export async function raiseLive(trx: DB, userIds: number | number[], event: LiveEvent): Promise<void> {
  const ids = [...new Set(Array.isArray(userIds) ? userIds : [userIds])];
  await raiseLiveEach(
    trx,
    event.kind,
    ids.map((userId) => ({ userId, data: event.data })),
  );
}

/** Raises one event of `kind` per row, each user with its own data (an unread count). */
export async function raiseLiveEach(trx: DB, kind: LiveKind, rows: { userId: number; data: unknown }[]) {
  if (rows.length === 0) return;
  // Sorted, so two transactions raising for the same users take their counters' locks in one order.
  const sorted = [...rows].sort((a, b) => a.userId - b.userId);
  await sql`
    with input as (
      select u.id, u.data::jsonb as data
      from unnest(${sql.val(sorted.map((r) => r.userId))}::int[], ${sql.val(sorted.map((r) => JSON.stringify(r.data)))}::text[]) as u(id, data)
    ), seqs as (
      insert into live_seqs (user_id, seq) select id, 1 from input order by id
      on conflict (user_id) do update set seq = live_seqs.seq + 1
      returning user_id, seq
    ), stored as (
      insert into live_events (user_id, seq, kind, data)
      select s.user_id, s.seq, ${kind}, i.data from seqs s join input i on i.id = s.user_id
      returning user_id
    )
    select count(pg_notify(${LIVE_CHANNEL}, user_id::text)) from stored`.execute(trx);
}

export type StoredLiveEvent = { seq: string; kind: LiveKind; data: unknown };

/** A user's events after `after`, oldest first, at most `limit`. */
export async function liveEventsAfter(userId: number, after: string, limit = 500): Promise<StoredLiveEvent[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("live_events")
    .select(["seq", "kind", "data"])
    .where("user_id", "=", userId)
    .where("seq", ">", after)
    .orderBy("seq")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: String(r.seq), kind: r.kind as LiveKind, data: r.data }));
}

/** The user's latest event number ("0" before the first), and the oldest still kept. */
export async function liveCursor(userId: number): Promise<{ latest: string; oldest: string | null }> {
  const db = await getDb();
  const row = await db
    .selectFrom("live_seqs")
    .select([
      "seq",
      (eb) =>
        eb
          .selectFrom("live_events")
          .select((c) => c.fn.min("seq").as("m"))
          .where("live_events.user_id", "=", userId)
          .as("oldest"),
    ])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return { latest: row ? String(row.seq) : "0", oldest: row?.oldest == null ? null : String(row.oldest) };
}

/** Drops events past the retention window (run by the digest job, once per cluster). */
export async function pruneLiveEvents(now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - LIVE_RETENTION_HOURS * 3_600_000);
  const result = await db.deleteFrom("live_events").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- This process's listener and the streams it wakes ----

type Wake = () => void;
const subscribers = new Map<number, Set<Wake>>();
let listener: { stop: () => Promise<void> } | undefined;
/** For /metrics and the tests: whether the LISTEN connection is up, and how often it came back. */
export const liveListenerStats = { connected: false, reconnects: 0 };

/**
 * Calls `wake` whenever an event for `userId` may have been committed, and after the listener's
 * connection came back from a cut (what was raised meanwhile was never announced). Returns the
 * unsubscribe. The first subscriber starts the listener.
 */
export function subscribeLive(userId: number, wake: Wake): () => void {
  listener ??= startListener();
  let set = subscribers.get(userId);
  if (!set) subscribers.set(userId, (set = new Set()));
  set.add(wake);
  return () => {
    set!.delete(wake);
    if (set!.size === 0) subscribers.delete(userId);
  };
}

function wakeUser(payload: string | undefined) {
  const id = Number(payload);
  for (const wake of subscribers.get(id) ?? []) wake();
}

function wakeAll() {
  for (const set of subscribers.values()) for (const wake of set) wake();
}

/** Stops the listener (shutdown, tests). */
export async function stopLiveListener(): Promise<void> {
  const l = listener;
  listener = undefined;
  await l?.stop();
}

function startListener(): { stop: () => Promise<void> } {
  let stopped = false;
  let stopCurrent: (() => Promise<void>) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = 250;

  const retry = (reason: string) => {
    liveListenerStats.connected = false;
    if (stopped || timer) return;
    log("error", "live listener lost its connection; reconnecting", { reason, inMs: delay });
    timer = setTimeout(() => {
      timer = undefined;
      void connect(true);
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  };

  const connect = async (again: boolean) => {
    try {
      const target = await listenTarget();
      if (target.kind === "pglite") {
        const unlisten = await target.pglite.listen(LIVE_CHANNEL, wakeUser);
        stopCurrent = unlisten;
      } else {
        const client = new pg.Client({
          connectionString: target.url,
          connectionTimeoutMillis: getEnv().DATABASE_CONNECT_TIMEOUT_MS,
          keepAlive: true,
        });
        let lost = false;
        const onLost = (reason: string) => {
          if (lost) return;
          lost = true;
          stopCurrent = undefined;
          void client.end().catch(() => {});
          retry(reason);
        };
        // Every failure of this connection, while connecting or later, ends in one reconnect.
        client.on("error", (error) => onLost(error.message));
        client.on("end", () => onLost("connection ended"));
        client.on("notification", (msg) => wakeUser(msg.payload));
        await client.connect();
        await client.query(`listen ${LIVE_CHANNEL}`);
        if (stopped) return void (await client.end().catch(() => {}));
        stopCurrent = async () => {
          lost = true;
          await client.end().catch(() => {});
        };
      }
      liveListenerStats.connected = true;
      delay = 250;
      if (again) {
        liveListenerStats.reconnects++;
        log("info", "live listener reconnected");
      }
      // Anything raised before LISTEN took hold (a cut, or streams opened while it started) was
      // announced to nobody here: every stream looks again.
      wakeAll();
    } catch (error) {
      retry((error as Error).message ?? String(error));
    }
  };
  void connect(false);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      liveListenerStats.connected = false;
      await stopCurrent?.();
    },
  };
}
