/**
 * Admission control for the requests Remix renders. Under 200 connections the time went neither to
 * queries nor to pool waits but to the event loop: every signed-in page is server-rendered, and
 * 200 renders at once share one thread, so each took seconds (docs/PERFORMANCE.md). At most `max`
 * are rendered at a time; the next wait their turn, at most `waitMs`, then get a plain 503 with
 * Retry-After — cheap to send, and the requests already admitted keep their speed. At most
 * `maxQueued` wait: with the queue full a request is refused at once, because one that would wait
 * behind a full queue would only time out later, after holding its socket and the loop's attention.
 */
export type Admission = {
  /** Calls `start` now or when a slot frees; `refuse` if none frees within the wait limit. Returns the release. */
  enter: (start: (release: () => void) => void, refuse: () => void) => void;
  stats: () => { inFlight: number; queued: number; refused: number };
};

export function createAdmission(max: number, waitMs: number, maxQueued = Infinity): Admission {
  let inFlight = 0;
  let refused = 0;
  const queue: { start: (release: () => void) => void; timer: NodeJS.Timeout }[] = [];

  const releaser = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight--;
      const next = queue.shift();
      if (next) {
        clearTimeout(next.timer);
        inFlight++;
        next.start(releaser());
      }
    };
  };

  return {
    enter(start, refuse) {
      if (inFlight < max) {
        inFlight++;
        start(releaser());
        return;
      }
      if (queue.length >= maxQueued) {
        refused++;
        refuse();
        return;
      }
      const item = {
        start,
        timer: setTimeout(() => {
          const i = queue.indexOf(item);
          if (i >= 0) queue.splice(i, 1);
          refused++;
          refuse();
        }, waitMs),
      };
      queue.push(item);
    },
    stats: () => ({ inFlight, queued: queue.length, refused }),
  };
}

/**
 * The downloads: each reads a trader's whole history and writes it out in one answer (the ledger's
 * JSON, the CSVs, "download my data"), seconds of the one thread and megabytes for a long history,
 * where a page takes milliseconds. A render slot each would let a few of them hold every slot, so
 * they also take one of their own few (MAX_CONCURRENT_DOWNLOADS) and never wait for it: with none
 * free, the 503 goes out at once.
 */
const DOWNLOAD_PATHS = new Set([
  "/api/portal/ledger",
  "/api/portal/trades.csv",
  "/api/portal/round_trips.csv",
  "/user/settings/data.json",
]);

/** Seconds a refused download is told to wait: a download in flight takes about that long. */
export const DOWNLOAD_RETRY_AFTER_SECONDS = 5;

/** Whether a request's path is a download, read as the router reads it (any case, encoded, trailing slash). */
export function isDownloadPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: the router will not match it either.
  }
  const normal = decoded
    .toLowerCase()
    .replace(/\/{2,}/g, "/")
    .replace(/\/+$/, "");
  return DOWNLOAD_PATHS.has(normal);
}
