import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./lib/nonce";
import { BUSY_MESSAGE } from "./server/db.server";

// server.ts takes its services from the build through this export (app/server/host.server.ts).
export * as host from "./server/host.server";

const ABORT_DELAY = 5_000;

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    requestId: string;
    /** True while server.ts renders a page for the anonymous page cache (no per-visitor effects). */
    prerender: boolean;
    /** The port this server accepted the request on (the socket's, never the Host header's). */
    localPort?: number;
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A loader found the database busy (pool wait limit: a thrown 503 with Retry-After). Rendering
  // the error page would spend the CPU the overload lacks, seconds under 200 connections: the
  // same plain 503 as admission control instead (docs/PERFORMANCE.md).
  const errors = Object.values(remixContext.staticHandlerContext.errors ?? {});
  if (errors.some((e) => isRouteErrorResponse(e) && e.status === 503 && e.data === BUSY_MESSAGE)) {
    return new Response(BUSY_MESSAGE, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1" },
    });
  }
  const nonce = loadContext?.cspNonce ?? "";
  // Bots and no-JS clients get the complete document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
