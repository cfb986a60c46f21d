import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable } from "@remix-run/node";

// Between Express and Remix, in place of @remix-run/express's handler (server.ts): the request as
// it builds it, the answer sent whole (sendResponse).

/** What remixRequest reads of Express's request (its trust-proxy-aware host and protocol). */
type ExpressRequest = IncomingMessage & {
  hostname: string;
  protocol: string;
  originalUrl: string;
  get(name: string): string | undefined;
};

/**
 * The Fetch Request Remix reads, as @remix-run/express makes it: the host from req.hostname
 * (TRUST_PROXY) with the port of X-Forwarded-Host or Host, the body as a stream, and a signal that
 * aborts when the client leaves before the answer is sent.
 */
export function remixRequest(req: ExpressRequest, res: ServerResponse): Request {
  const port = (header: string | undefined) => {
    const n = Number.parseInt(header?.split(":")[1] ?? "", 10);
    return Number.isSafeInteger(n) ? n : undefined;
  };
  const p = port(req.get("X-Forwarded-Host")) ?? port(req.get("host"));
  const url = `${req.protocol}://${req.hostname}${p ? `:${p}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(new URL(url).href, init);
}

/** Bodies up to this size are sent whole, with their length; a larger one streams past it. */
export const WHOLE_BODY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Writes a Remix Response to Node's response (server.ts, in place of @remix-run/express's
 * sendRemixResponse). Every body Grader makes is already in memory (renderToString, JSON, CSV):
 * sent as one buffer with its Content-Length it is one write, and compression's 1 KB threshold can
 * see its size. Streamed chunk by chunk, a 300-byte JSON answer went out chunked in two writes
 * and was gzipped, whatever its size (docs/PERFORMANCE.md, the signed-in request path). A body
 * past WHOLE_BODY_MAX_BYTES, or an event stream, is streamed as it comes.
 */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  const body = response.body;
  if (!body) {
    res.end();
    return;
  }
  // An event stream goes out as it comes, each event flushed through compression.
  const live = /text\/event-stream/i.test(response.headers.get("content-type") ?? "");
  if (live) res.flushHeaders();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (live || size + value.byteLength > WHOLE_BODY_MAX_BYTES) {
        for (const chunk of chunks) res.write(chunk);
        chunks.length = 0;
        await streamRest(res, reader, value, live);
        return;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
  res.setHeader("Content-Length", size);
  res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
}

/** The rest of a body as it comes, as @remix-run/express wrote every body. */
async function streamRest(
  res: ServerResponse & { flush?: () => void },
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array,
  flush: boolean,
): Promise<void> {
  let chunk: Uint8Array | undefined = first;
  while (chunk) {
    res.write(chunk);
    if (flush) res.flush?.();
    const next = await reader.read();
    chunk = next.done ? undefined : next.value;
  }
  res.end();
}
