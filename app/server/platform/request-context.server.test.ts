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
