import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, signUp } from "../support/http";
import { startServer, type RunningServer } from "../support/server";

// What an operator relies on: readiness, metrics behind a token or an address list, and a
// request id on every log line a request causes.

const TOKEN = "metrics-token-for-tests-0123456789";

describe("readiness", () => {
  it("answers /readyz 200 once the database answers and every migration is applied", async () => {
    const res = await get("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ready", pending: [] });
    expect((await get("/healthz")).status).toBe(200);
  });
});

describe("/metrics", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Behind a trusted proxy so the test can speak from inside and outside METRICS_ALLOW.
    server = await startServer({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: "10.1.0.0/16", TRUST_PROXY: "loopback" });
  });
  afterAll(() => server.stop());

  const metrics = (headers: Record<string, string>) => fetch(server.url + "/metrics", { headers });

  it("refuses without the token: 401 where a token is configured, 403 where none is", async () => {
    const none = await metrics({ "x-forwarded-for": "192.0.2.7" });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await metrics({ "x-forwarded-for": "192.0.2.7", authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    // The shared test server has neither METRICS_TOKEN nor METRICS_ALLOW.
    expect((await get("/metrics")).status).toBe(403);
    expect((await get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(403);
  });

  it("answers Prometheus text to the token or an allowed network: latency by route, pool and card cache", async () => {
    await (await fetch(server.url + "/healthz")).text();
    await (await fetch(server.url + "/u/12345", { redirect: "manual" })).text();
    const missing = await fetch(server.url + "/wp-login-scan-" + Date.now());
    expect(missing.status).toBe(404);
    await missing.text();
    const byToken = await metrics({ "x-forwarded-for": "192.0.2.7", authorization: `Bearer ${TOKEN}` });
    expect(byToken.status).toBe(200);
    expect(byToken.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = await byToken.text();
    expect(text).toMatch(
      /grader_http_request_duration_seconds_bucket\{le="0\.005",route="\/healthz",method="GET",status="2xx"\} \d+/,
    );
    // Unknown pages share one label, so scanners mint no new series.
    expect(text).toContain('route="unmatched"');
    expect(text).toContain('route="/u/:id"');
    expect(text).not.toContain("12345");
    expect(text).not.toContain("wp-login");
    expect(text).toMatch(/grader_db_pool_connections\{state="total"\} [1-9]/);
    expect(text).toMatch(/grader_db_pool_wait_timeouts_total \d+/);
    expect(text).toMatch(/grader_card_cache_total\{result="memory_hit"\} \d+/);
    const byNetwork = await metrics({ "x-forwarded-for": "10.1.200.3" });
    expect(byNetwork.status).toBe(200);
  });

  it("puts the request id on every line the request logs, also inside the routes", async () => {
    const res = await fetch(server.url + "/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=bad" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 100));
    const lines = server.logs.filter((l) => l.includes(id)).map((l) => JSON.parse(l) as Record<string, unknown>);
    const messages = lines.map((l) => l.msg);
    expect(messages).toContain("stripe webhook refused");
    expect(messages).toContain("request");
    for (const line of lines) {
      expect(line.requestId).toBe(id);
      expect(typeof line.time).toBe("string");
      expect(["info", "error", "debug"]).toContain(line.level);
    }
  });
});

describe("admission control", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ MAX_CONCURRENT_RENDERS: "1", RENDER_QUEUE_WAIT_MS: "1" });
  });
  afterAll(() => server.stop());

  it("answers renders beyond the limit with a plain 503 and Retry-After, and leaves health checks alone", async () => {
    // /signin?x=… is rendered by Remix each time (a query string bypasses the page cache).
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await fetch(`${server.url}/signin?n=${i}`);
        return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
      }),
    );
    const busy = answers.filter((a) => a.status === 503);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(busy.length).toBeGreaterThan(0);
    for (const a of busy) {
      expect(a.retryAfter).toBe("1");
      expect(a.body).toBe("The service is busy. Please try again in a moment.");
    }
    expect((await fetch(server.url + "/healthz")).status).toBe(200);
    // Once the burst is over, pages render again.
    expect((await fetch(`${server.url}/signin?after=1`)).status).toBe(200);
  });
});

describe("admission control with a full queue", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // One render at a time, nobody may wait: the wait limit (10 s) is never what refuses.
    server = await startServer({ MAX_CONCURRENT_RENDERS: "1", RENDER_QUEUE_WAIT_MS: "10000", RENDER_QUEUE_MAX: "0" });
  });
  afterAll(() => server.stop());

  it("refuses at once instead of after the wait limit", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const started = Date.now();
        const res = await fetch(`${server.url}/signin?q=${i}`);
        await res.text();
        return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get("retry-after") };
      }),
    );
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of busy) {
      expect(a.retryAfter).toBe("1");
      expect(a.ms).toBeLessThan(5_000);
    }
  });
});

// On PGlite a request runs from start to answer without waiting on a socket (its queries run in
// the process, and the answer is one write), so twenty downloads never overlap and none is
// refused: the limit shows only where a query waits on the network.
describe.skipIf(!process.env.DATABASE_URL)("admission control of downloads", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // One download at a time; render slots stay the test server's many.
    server = await startServer({ MAX_CONCURRENT_DOWNLOADS: "1" });
  });
  afterAll(() => server.stop());

  it("answers downloads beyond their slots with a fast 503 and Retry-After, and leaves pages alone", async () => {
    const { cookie } = await signUp({ base: server.url });
    for (const path of ["/api/portal/ledger", "/api/portal/trades.csv", "/api/portal/round_trips.csv"]) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(server.url + path, { headers: { cookie } });
          return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
        }),
      );
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length, path).toBeGreaterThan(0);
      // The one admitted answers as usual (no grade yet: the ledger's 404).
      expect(answers.some((a) => a.status === 200 || a.status === 404)).toBe(true);
      for (const a of busy) {
        expect(a.retryAfter).toBe("5");
        expect(a.body).toBe("The service is busy. Please try again in a moment.");
      }
    }
    // Pages are not downloads: twenty at once all render.
    const pages = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await fetch(`${server.url}/signin?d=${i}`)).status),
    );
    expect(pages.every((s) => s === 200)).toBe(true);
    // Once the burst is over, a download answers again.
    expect((await fetch(server.url + "/api/portal/trades.csv", { headers: { cookie } })).status).toBe(200);
  });
});
