import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "./lib/nonce";
import { BUSY_MESSAGE } from "./server/platform/db.server";

// server.ts takes its services from the build through this export (app/server/host.server.ts).
export * as host from "./server/platform/host.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    requestId: string;
    /** True while server.ts renders a page for the anonymous page cache (no per-visitor effects). */
    prerender: boolean;
    /** The port this server accepted the request on (the socket's, never the Host header's). */
    localPort?: number;
    /** Gives the request's render slot back while it only waits (server.ts's admission control). */
    leaveAdmission?: () => void;
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
  // No route suspends (no defer, no <Await>), so the whole document is the shell: streaming it
  // would send the same bytes later, in ~2 KB chunks through three streams. One string, one write
  // (docs/PERFORMANCE.md, the market page over HTTP). A render error throws here, and Remix
  // renders the error boundary instead, as it did on onShellError.
  const html = renderToString(
    <NonceProvider value={loadContext?.cspNonce ?? ""}>
      <RemixServer context={remixContext} url={request.url} />
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Bytes, not a string: undici would scan a string body for lone surrogates before encoding it.
  return new Response(Buffer.from("<!DOCTYPE html>" + html), { headers: responseHeaders, status: responseStatusCode });
}
