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
