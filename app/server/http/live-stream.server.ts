import type { IncomingMessage, ServerResponse } from "node:http";
import type { LiveReady } from "~/lib/live-events";
import { liveCursor, liveEventsAfter, subscribeLive } from "../platform/live.server";
import { log } from "../platform/log.server";
import { getSessionUser } from "./session.server";

/**
 * GET /api/portal/events: the live channel's server-sent events stream (DECISIONS 187–189). Served
 * by server.ts ahead of compression, the page cache and admission control: an open stream holds
 * no render slot and no database connection while idle (it reads only when woken), and counts in
 * its own bound (LIVE_MAX_STREAMS), past which it is a fast 503 with Retry-After. One account holds at
 * most LIVE_MAX_STREAMS_PER_USER of them (a 429 past that), so a script or a runaway client cannot take
 * the process's streams from everyone else.
 */
export const LIVE_PATH = "/api/portal/events";
/**
 * A stream ends after this long; the browser reconnects at once with Last-Event-ID, which checks
 * the session again (a revoked or expired one is then refused) without a query per heartbeat.
 */
export const STREAM_MAX_MS = 15 * 60_000;
/** How long a browser waits before reconnecting a stream that ended (the SSE `retry:` field). */
const RECONNECT_MS = 2_000;
/** A 503 (stream bound) asks the client to come back after this long. */
export const STREAMS_RETRY_AFTER_SECONDS = 15;

type Stream = { res: ServerResponse; opened: number };

/**
 * `heartbeatMs` (LIVE_HEARTBEAT_SECONDS, 20 s): a comment line this often, under the idle timeouts
 * of the usual proxies and balancers (nginx's proxy_read_timeout 60 s, HAProxy's common 30–50 s,
 * cloud balancers' 60 s) with room for one lost.
 */
export function createLiveStreams(max: number, heartbeatMs = 20_000, maxPerUser = 20) {
  const open = new Set<Stream>();
  // Streams open or being opened per account, counted from the session's check on.
  const perUser = new Map<number, number>();
  const release = (userId: number) => {
    const n = (perUser.get(userId) ?? 1) - 1;
    if (n > 0) perUser.set(userId, n);
    else perUser.delete(userId);
  };
  let pending = 0;
  let refused = 0;
  let refusedPerUser = 0;
  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const s of open) {
      if (now - s.opened > STREAM_MAX_MS) s.res.end();
      else s.res.write(": heartbeat\n\n");
    }
  }, heartbeatMs);
  heartbeat.unref();

  const refuse = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      ...headers,
    });
    res.end(JSON.stringify({ error: { message } }));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Counted from the first moment: a burst of connections cannot pass the bound while signing in.
    if (open.size + pending >= max) {
      refused++;
      return refuse(res, 503, "Too many live connections on this server; try again shortly.", {
        "Retry-After": String(STREAMS_RETRY_AFTER_SECONDS),
      });
    }
    pending++;
    let userId: number | undefined;
    let cursor: string;
    let reset = false;
    let unread: number;
    try {
      const headers = new Headers();
      for (const name of ["cookie", "authorization"] as const) {
        const value = req.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      const user = await getSessionUser(new Request("http://localhost/api/portal/events", { headers }));
      if (!user) return refuse(res, 401, "You need to log in to do that.");
      // Checked and counted in one synchronous step: parallel opens of one account cannot all pass.
      if ((perUser.get(user.id) ?? 0) >= maxPerUser) {
        refusedPerUser++;
        return refuse(res, 429, "Too many live connections for your account. Close a tab, or try again shortly.", {
          "Retry-After": String(STREAMS_RETRY_AFTER_SECONDS),
        });
      }
      userId = user.id;
      perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
      unread = user.unread_notifications;
      const { latest, oldest } = await liveCursor(user.id);
      const sent = lastEventId(req);
      if (sent === null) cursor = latest;
      else if (BigInt(sent) > BigInt(latest)) {
        // A number this user never reached (the database was restored): start afresh.
        cursor = latest;
        reset = true;
      } else {
        cursor = sent;
        // Some of what was missed is past the retention window: the page reloads instead.
        if (BigInt(sent) < BigInt(latest) && (oldest === null || BigInt(oldest) > BigInt(sent) + 1n)) {
          cursor = latest;
          reset = true;
        }
      }
    } catch (error) {
      if (userId !== undefined) release(userId);
      if (error instanceof Response) return refuse(res, error.status, await error.text(), { "Retry-After": "1" });
      log("error", "live stream not opened", { error: String(error) });
      return refuse(res, 503, "The service is busy. Please try again in a moment.", { "Retry-After": "1" });
    } finally {
      pending--;
    }
    if (res.destroyed) return release(userId);
    const owner = userId;

    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: a proxy must not compress or buffer it; X-Accel-Buffering: nginx passes it on as written.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    });
    const stream: Stream = { res, opened: Date.now() };
    open.add(stream);
    const ready: LiveReady = { unread: { notifications: unread }, reset };
    res.write(`retry: ${RECONNECT_MS}\nid: ${cursor}\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);

    // One read at a time; a wake during a read asks for one more after it.
    let reading = false;
    let again = false;
    let closed = false;
    const deliver = async () => {
      if (reading) return void (again = true);
      reading = true;
      try {
        do {
          again = false;
          const events = await liveEventsAfter(owner, cursor);
          if (closed) return;
          for (const e of events) {
            res.write(`id: ${e.seq}\nevent: ${e.kind}\ndata: ${JSON.stringify(e.data)}\n\n`);
            cursor = e.seq;
          }
          if (events.length === 500) again = true;
        } while (again && !closed);
      } catch (error) {
        // The pool was busy or the database away: read again in a second (a listener that lost
        // its connection also wakes every stream when it is back).
        log("error", "live events not read", { userId: owner, error: String(error) });
        if (!closed) setTimeout(() => void deliver(), 1_000).unref();
      } finally {
        reading = false;
      }
    };
    const unsubscribe = subscribeLive(owner, () => void deliver());
    res.on("close", () => {
      closed = true;
      open.delete(stream);
      release(owner);
      unsubscribe();
    });
    // What was missed since Last-Event-ID, and anything committed between the cursor's read and
    // the subscription.
    void deliver();
  }

  return {
    handle,
    /** Ends every stream (shutdown): the browsers reconnect, to another replica, with Last-Event-ID. */
    endAll: () => {
      for (const s of open) s.res.end();
    },
    stats: () => ({ open: open.size, max, refused, refusedPerUser, maxPerUser }),
  };
}

/** Last-Event-ID (the header the browser sends, or `?last_event_id=` for a client that cannot set it), digits only. */
function lastEventId(req: IncomingMessage): string | null {
  const header = req.headers["last-event-id"];
  const query = new URL(req.url ?? "/", "http://x").searchParams.get("last_event_id");
  const value = (typeof header === "string" ? header : (query ?? "")).trim();
  return /^\d{1,18}$/.test(value) ? value : null;
}
