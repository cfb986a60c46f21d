import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import handleRequest from "./entry.server";
import { BUSY_MESSAGE } from "./server/platform/db.server";

// A loader that found no free database connection throws the pool's 503: the document answer is
// that plain 503, not a rendered error page (which costs the CPU an overloaded server lacks).
const context = (errors: Record<string, unknown>) => ({ staticHandlerContext: { errors } }) as unknown as EntryContext;
const load = { cspNonce: "n", requestId: "r", prerender: false } as AppLoadContext;

describe("handleRequest", () => {
  it("answers the pool's busy error with a plain 503 and Retry-After", async () => {
    const busy = { status: 503, statusText: "Service Unavailable", internal: false, data: BUSY_MESSAGE };
    const res = (await handleRequest(
      new Request("http://x/profile"),
      503,
      new Headers(),
      context({ "routes/profile": busy }),
      load,
    )) as Response;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(BUSY_MESSAGE);
  });
});
