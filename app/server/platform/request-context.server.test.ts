import { describe, expect, it } from "vitest";
import { currentRequestId, oncePerRequest, withRequestContext } from "./request-context.server";

describe("the request context", () => {
  const counted = () => {
    let calls = 0;
    return { fn: async () => ++calls, calls: () => calls };
  };
  it("shares an answer among a read-only request's callers, per key", async () => {
    const c = counted();
    await withRequestContext("r1", true, async () => {
      expect(currentRequestId()).toBe("r1");
      const [a, b] = await Promise.all([oncePerRequest("k", c.fn), oncePerRequest("k", c.fn)]);
      expect([a, b]).toEqual([1, 1]);
      expect(await oncePerRequest("other", c.fn)).toBe(2);
    });
    // A new request asks again.
    await withRequestContext("r2", true, () => oncePerRequest("k", c.fn));
    expect(c.calls()).toBe(3);
  });
  it("asks every time in a request that may change things, and outside any request", async () => {
    const c = counted();
    await withRequestContext("w", false, async () => {
      await oncePerRequest("k", c.fn);
      await oncePerRequest("k", c.fn);
    });
    await oncePerRequest("k", c.fn);
    expect(c.calls()).toBe(3);
    expect(currentRequestId()).toBeUndefined();
  });
});

describe("a shared answer that is a thrown Response", () => {
  it("gives each caller a readable copy: two loaders of one page both answer the busy pool's 503", async () => {
    const busy = () =>
      Promise.reject(new Response("The service is busy.", { status: 503, headers: { "Retry-After": "1" } }));
    await withRequestContext("r", true, async () => {
      const caught = await Promise.all(
        [1, 2].map(() =>
          oncePerRequest("session", busy).then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      );
      for (const e of caught) {
        expect(e).toBeInstanceOf(Response);
        const response = e as Response;
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("1");
        // Remix reads a thrown Response's body; the same object read twice threw "Body is unusable".
        expect(await response.text()).toBe("The service is busy.");
      }
    });
  });
});
