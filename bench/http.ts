import http from "node:http";
import autocannon from "autocannon";
import compression from "compression";
import express from "express";
import { startServer } from "../test/support/server";

type Figures = { requestsPerSec: number; p99Ms: number; p50Ms: number; errors: number };

async function load(url: string, duration: number): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: 10,
    duration,
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" },
  });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    errors: result.errors + result.non2xx,
  };
}

/**
 * The landing page's server-rendered throughput beside a plain Express route serving the same
 * bytes in the same run (so the machine's speed cancels out), and their ratio.
 */
export async function benchHttp(duration = 5) {
  const server = await startServer({ LOG_REQUESTS: "0", RATE_LIMIT_FACTOR: "1000" });
  try {
    const landing = await (await fetch(server.url + "/")).text();
    const plain = express();
    plain.disable("x-powered-by");
    plain.get("/", (_req, res) => res.type("html").send(landing));
    const plainServer = http.createServer(plain);
    await new Promise<void>((r) => plainServer.listen(0, "127.0.0.1", r));
    const plainUrl = `http://127.0.0.1:${(plainServer.address() as { port: number }).port}/`;
    // The same route behind compression() for every request (as server.ts had it before it skipped
    // requests that accept no encoding, as autocannon's): the middleware's bookkeeping alone.
    const wrapped = express();
    wrapped.disable("x-powered-by");
    wrapped.use(compression());
    wrapped.get("/", (_req, res) => res.type("html").send(landing));
    const wrappedServer = http.createServer(wrapped);
    await new Promise<void>((r) => wrappedServer.listen(0, "127.0.0.1", r));
    const wrappedUrl = `http://127.0.0.1:${(wrappedServer.address() as { port: number }).port}/`;
    try {
      await load(server.url + "/", 1); // warm-up
      const app = await load(server.url + "/", duration);
      const appUncached = await load(server.url + "/?uncached=1", Math.max(2, Math.floor(duration / 2)));
      const base = await load(plainUrl, duration);
      const baseWithCompression = await load(wrappedUrl, duration);
      return {
        landing: app,
        plainExpress: base,
        ratio: Math.round((app.requestsPerSec / base.requestsPerSec) * 100) / 100,
        plainExpressBehindCompression: baseWithCompression,
        // The same page rendered by Remix for every request (a query string bypasses the cache).
        landingUncached: appUncached,
        landingBytes: Buffer.byteLength(landing),
      };
    } finally {
      plainServer.close();
      wrappedServer.close();
    }
  } finally {
    await server.stop();
  }
}
