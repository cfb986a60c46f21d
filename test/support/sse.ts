/** One server-sent event as read off the wire. */
export type SseEvent = { id: string | null; event: string; data: string };

export type SseStream = {
  status: number;
  headers: Headers;
  /** Every event so far (heartbeat comments are counted apart). */
  events: SseEvent[];
  comments: number;
  /** Waits for an event `matches` accepts that has not been returned before, or fails after `timeoutMs`. */
  next: (matches?: (e: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>;
  /** The last id seen (what a browser would send as Last-Event-ID). */
  lastId: () => string | null;
  close: () => void;
  /** The body of a refused stream (not 200). */
  text: () => Promise<string>;
};

/**
 * Opens GET `path` as an EventSource would (Accept: text/event-stream, Last-Event-ID when given)
 * and parses the stream as it arrives (the WHATWG event-stream format: `field: value` lines, a
 * blank line ends an event, a line starting with ':' is a comment).
 */
export async function openSse(
  base: string,
  path: string,
  opts: { cookie?: string; lastEventId?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.lastEventId !== undefined) headers["last-event-id"] = opts.lastEventId;
  const res = await fetch(base + path, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  let comments = 0;
  let taken = 0;
  let lastId: string | null = null;
  const waiters = new Set<() => void>();
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    events,
    get comments() {
      return comments;
    },
    lastId: () => lastId,
    close: () => controller.abort(),
    text: () => res.text(),
    next: (matches = () => true, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          for (let i = taken; i < events.length; i++) {
            if (matches(events[i]!)) {
              taken = i + 1;
              waiters.delete(check);
              clearTimeout(timer);
              resolve(events[i]!);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.slice(taken))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
  if (res.status !== 200 || !res.body) return stream;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    let current: SseEvent = { id: null, event: "message", data: "" };
    let hasData = false;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (line === "") {
            if (hasData) {
              events.push(current);
              for (const w of [...waiters]) w();
            }
            current = { id: null, event: "message", data: "" };
            hasData = false;
          } else if (line.startsWith(":")) comments++;
          else {
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") current.id = lastId = value;
            else if (field === "event") current.event = value;
            else if (field === "data") {
              current.data = hasData ? `${current.data}\n${value}` : value;
              hasData = true;
            }
          }
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return stream;
}
