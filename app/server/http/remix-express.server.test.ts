import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendResponse, WHOLE_BODY_MAX_BYTES } from "./remix-express.server";

// Each path answers one Response through sendResponse; the test reads what went on the wire.
const answers: Record<string, () => Response> = {
  "/json": () => new Response(JSON.stringify({ data: "é" }), { headers: { "Content-Type": "application/json" } }),
  "/cookies": () => {
    const headers = new Headers({ "Set-Cookie": "a=1", Location: "/x" });
    headers.append("Set-Cookie", "b=2");
    return new Response(null, { status: 302, headers });
  },
  "/chunks": () => {
    const parts = ["one ", "two ", "three"];
    return new Response(
      new ReadableStream({
        pull: (c) => (parts.length ? c.enqueue(new TextEncoder().encode(parts.shift())) : c.close()),
      }),
    );
  },
  "/big": () => {
    let left = 3;
    const chunk = new Uint8Array(WHOLE_BODY_MAX_BYTES / 2 + 1).fill(120);
    return new Response(new ReadableStream({ pull: (c) => (left-- > 0 ? c.enqueue(chunk) : c.close()) }));
  },
};

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => void sendResponse(res, answers[req.url!]!()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("sendResponse", () => {
  it("sends a body in memory whole, with its length in bytes", async () => {
    const res = await fetch(`${base}/json`);
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength('{"data":"é"}')));
    expect(res.headers.get("transfer-encoding")).toBeNull();
    expect(await res.json()).toEqual({ data: "é" });
  });

  it("joins a streamed body's chunks into one body with its length", async () => {
    const res = await fetch(`${base}/chunks`);
    expect(res.headers.get("content-length")).toBe("13");
    expect(await res.text()).toBe("one two three");
  });

  it("keeps the status, every header (each cookie apart) and no body", async () => {
    const res = await fetch(`${base}/cookies`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/x");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await res.text()).toBe("");
  });

  it("streams a body past the limit instead of holding it", async () => {
    const res = await fetch(`${base}/big`);
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    expect((await res.arrayBuffer()).byteLength).toBe(3 * (WHOLE_BODY_MAX_BYTES / 2 + 1));
  });
});
