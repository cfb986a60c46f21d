import crypto from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import type * as Entry from "./app/entry.server";
const root = path.dirname(fileURLToPath(import.meta.url));

// Everything below comes from the built app (its entry.server exports `host`), so the routes, the
// job workers and this file share one copy of every module: one database handle, one card memory,
// one log context (docs/DECISIONS.md 121). Nothing from app/ is imported here directly.
const buildFile = path.join(root, "build/index.js");
if (!existsSync(buildFile)) {
  console.error("Refusing to start: no build/index.js; run `npx remix build` (npm start does) first.");
  process.exit(1);
}
const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
const { host } = build.entry.module as unknown as typeof Entry;
const {
  cachedPageBody,
  cardAnswer,
  CARD_ROUTE,
  checkBodySize,
  checkDatabaseUrl,
  sealedSecretsProblem,
  closeDb,
  compactionJob,
  seasonCloseJob,
  tradeAlertJobHandlers,
  clubLiveJobHandlers,
  createAdmission,
  createLiveStreams,
  cspNonce,
  dbKind,
  deviceClassFromUserAgent,
  digestJob,
  engineRegradeJob,
  pushJob,
  currencyRegradeJob,
  evaluateJob,
  DOWNLOAD_RETRY_AFTER_SECONDS,
  flushPageViews,
  getCachedPage,
  getEnv,
  importJobHandlers,
  isCacheablePath,
  isDownloadPath,
  isEmbeddablePath,
  isForeignOriginRequest,
  isMobileDevice,
  isSimulated,
  isTrackedPath,
  LIVE_PATH,
  log,
  logMailMode,
  mailJob,
  metricsAccess,
  migrateToLatest,
  NONCE_PLACEHOLDER,
  pendingMigrations,
  pingDb,
  registry,
  remixRequest,
  reportAdmission,
  reportLiveStreams,
  requestDuration,
  routeLabel,
  seedDemoCommunityIfEmpty,
  sendResponse,
  SESSION_COOKIE,
  simulatedProviders,
  startEngineRegrade,
  startJobs,
  startupProblems,
  stopJobs,
  stopLiveListener,
  storeCachedPage,
  trackPageView,
  withRequestContext,
} = host;

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

// A production server never falls back to a simulator unless told to (DEMO / DEMO_PROVIDERS).
const problems = startupProblems(env);
if (problems.length) {
  console.error(
    `Refusing to start: configuration incomplete (see docs/OPERATIONS.md):\n${problems.map((p) => `  ${p}`).join("\n")}`,
  );
  process.exit(1);
}

// Providers without credentials: demo mode against the msw provider simulators in test/mocks.
const simulated = simulatedProviders(env);
let mocks: Awaited<ReturnType<typeof import("./test/mocks/index").startProviderMocks>> = null;
if (simulated.length) {
  try {
    const { startProviderMocks } = await import("./test/mocks/index");
    mocks = await startProviderMocks(Object.fromEntries(simulated.map((p) => [p, true])));
    log("info", "demo mode: provider simulators running", { providers: mocks?.providers ?? [] });
  } catch (error) {
    log("error", "demo mode: provider simulators failed to start", { error: String(error) });
  }
}

const unavailable = (error: unknown) =>
  error instanceof Response || (error as Error).name === "DatabaseUnavailableError";

/**
 * A database that answered but is slow to hand out connections (a cold cluster, replicas starting
 * together, a busy machine) gets a few more tries, 1 + 2 + 4 + 8 s apart, before the server refuses
 * to start: migrations and the demo seed are idempotent and resume where they stopped.
 */
async function withStartupRetries<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!unavailable(error) || attempt >= 5) throw error;
      log("info", "the database is busy at start; trying again", { attempt });
      await new Promise((r) => setTimeout(r, 1000 * 2 ** (attempt - 1)));
    }
  }
}

// The database first: a locked PGlite folder or an unreachable DATABASE_URL is one clear line and
// exit code 1, never a hang or a stack trace.
try {
  await checkDatabaseUrl();
  const applied = await withStartupRetries(() => migrateToLatest());
  if (applied.length) log("info", "migrations applied", { applied });
  const sealed = await withStartupRetries(() => sealedSecretsProblem());
  if (sealed) throw new Error(sealed);
  const seeded = await withStartupRetries(() => seedDemoCommunityIfEmpty(env));
  if (seeded) log("info", "demo community seeded (SEED_DEMO=0 to start empty)", seeded);
} catch (error) {
  console.error(
    `Refusing to start: ${unavailable(error) ? "the database did not answer in time (DATABASE_URL / DATABASE_POOL_WAIT_MS)" : (error as Error).message}`,
  );
  process.exit(1);
}

logMailMode();
// Imports, webhooks, re-grades, mail and the scheduled work run as jobs (pg-boss on this database;
// docs/DECISIONS.md 68, 171), in a process with job workers only.
try {
  await startJobs({
    ...importJobHandlers,
    evaluate: evaluateJob,
    "notification-digest": digestJob,
    "engine-regrade": engineRegradeJob,
    "currency-regrade": currencyRegradeJob,
    "mail-deliver": mailJob,
    "leaderboard-compact": compactionJob,
    "season-close": seasonCloseJob,
    push: pushJob,
    ...tradeAlertJobHandlers,
    ...clubLiveJobHandlers,
  });
} catch (error) {
  console.error(`Refusing to start: the job queue could not start: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
}
// Grades made under an older engine are re-made in the background, in batches (DECISIONS 168).
void startEngineRegrade().catch((error) => log("error", "engine re-grade not queued", { error: String(error) }));

const mode = env.NODE_ENV === "production" ? "production" : "development";
const renderPage = createRequestHandler(build, mode);
const trustedOrigins = [
  env.PUBLIC_URL,
  ...env.TRUSTED_ORIGINS.split(",")
    .map((s) => s.trim())
    .filter(Boolean),
];
const secureOrigin = env.PUBLIC_URL.startsWith("https:");

// Stripe's embedded and hosted Checkout, allowed only when real Stripe keys are configured (demo
// mode stays on our own origin).
const stripeCsp = !isSimulated("stripe", env)
  ? {
      script: ["https://js.stripe.com"],
      frame: [
        "https://js.stripe.com",
        "https://*.js.stripe.com",
        "https://checkout.stripe.com",
        "https://hooks.stripe.com",
      ],
      connect: ["https://api.stripe.com", "https://checkout.stripe.com"],
      formAction: ["https://checkout.stripe.com"],
    }
  : { script: [], frame: [], connect: [], formAction: [] };

export const app = express();
app.disable("x-powered-by");

// Request id on every log line written while the request is handled (request-context.server.ts), one
// access-log line per request, and the latency histogram for /metrics.
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const id = crypto.randomUUID();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  res.on("finish", () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    requestDuration.observe(
      {
        route: routeLabel(req.path, res.statusCode),
        method: req.method,
        status: `${Math.floor(res.statusCode / 100)}xx`,
      },
      seconds,
    );
    if (!env.LOG_REQUESTS) return;
    log(req.path === "/healthz" || req.path === "/readyz" || req.path === "/metrics" ? "debug" : "info", "request", {
      requestId: id,
      method: req.method,
      path: req.path,
      status: res.statusCode,
      ms: Math.round(seconds * 1e4) / 10,
    });
  });
  withRequestContext(id, req.method === "GET" || req.method === "HEAD", next);
});

if (env.TRUST_PROXY !== false) app.set("trust proxy", env.TRUST_PROXY);
// The client address (req.ip under TRUST_PROXY) for rate limits and sessions, set here so a
// forged header from outside is always overwritten.
app.use((req, _res, next) => {
  req.headers["x-grader-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
});

let stopping = false;
app.use((_req, res, next) => {
  // While shutting down, tell clients not to reuse the connection so it can close promptly.
  if (stopping) res.setHeader("Connection", "close");
  next();
});

app.use((_req, res, next) => {
  res.locals.cspNonce = cspNonce();
  next();
});

app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
          ...stripeCsp.script,
        ],
        // react-hot-toast injects a <style> element; inline style attributes are used for layout.
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...stripeCsp.connect],
        "frame-src": ["'self'", ...stripeCsp.frame],
        "form-action": ["'self'", ...stripeCsp.formAction],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        ...(secureOrigin ? { "upgrade-insecure-requests": [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    // no-referrer would make Chromium send "Origin: null" on same-origin form posts.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: secureOrigin,
  }),
);

// The badge and the embeddable card are for other sites: helmet's frame and resource policies are
// lifted for those paths alone, and their routes set their own (frame-ancestors *, CORP cross-origin).
app.use((req, res, next) => {
  if (isEmbeddablePath(req.path)) {
    res.removeHeader("X-Frame-Options");
    res.removeHeader("Content-Security-Policy");
    res.removeHeader("Cross-Origin-Resource-Policy");
  }
  next();
});

// Fingerprinted scripts, styles and fonts: the headers that govern a document (its CSP, framing,
// opener, referrer, legacy IE switches) do nothing on them. Left off, each file is about 0.6 KB
// lighter: some 20 KB over the landing's three dozen scripts. nosniff and CORP stay.
const DOCUMENT_ONLY_HEADERS = [
  "Content-Security-Policy",
  "Cross-Origin-Opener-Policy",
  "Origin-Agent-Cluster",
  "Referrer-Policy",
  "X-DNS-Prefetch-Control",
  "X-Download-Options",
  "X-Frame-Options",
  "X-Permitted-Cross-Domain-Policies",
  "X-XSS-Protection",
];
app.use((req, res, next) => {
  if (req.path.startsWith("/build/")) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
  next();
});

// The live channel (live-stream.server.ts): ahead of compression (which would hold its small writes
// back), the page cache and admission control; its open streams have their own bound.
const liveStreams = createLiveStreams(
  env.LIVE_MAX_STREAMS,
  env.LIVE_HEARTBEAT_SECONDS * 1000,
  env.LIVE_MAX_STREAMS_PER_USER,
);
reportLiveStreams(liveStreams.stats);
app.get(LIVE_PATH, (req, res) => void liveStreams.handle(req, res));

// Only for requests that accept an encoding compression offers: for the rest (load generators,
// health checks, many bots) its per-response bookkeeping (wrapped write/end, a header hook, Vary)
// would be paid and nothing compressed.
const compress = compression();
app.use((req, res, next) =>
  /gzip|deflate|br|\*/.test(req.get("accept-encoding") ?? "") ? compress(req, res, next) : next(),
);

// Liveness: the process answers and reaches its database.
app.get("/healthz", async (_req, res) => {
  const ok = await pingDb();
  res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "unavailable", db: ok ? await dbKind() : "unreachable" });
});

// Readiness: the database answers and every migration this build knows is applied (a replica of
// a newer build waits for its migrations before it takes traffic).
app.get("/readyz", async (_req, res) => {
  if (stopping) return res.status(503).json({ status: "stopping" });
  if (!(await pingDb())) return res.status(503).json({ status: "unavailable", db: "unreachable" });
  try {
    const pending = await pendingMigrations();
    res
      .status(pending.length ? 503 : 200)
      .json({ status: pending.length ? "migrations pending" : "ready", db: await dbKind(), pending });
  } catch {
    res.status(503).json({ status: "unavailable", db: "unreachable" });
  }
});

// Prometheus metrics, for the operator's scraper only (METRICS_TOKEN / METRICS_ALLOW).
app.get("/metrics", async (req, res) => {
  const access = metricsAccess(req.ip ?? req.socket.remoteAddress ?? "", req.get("authorization"));
  if (!access.ok) {
    if (access.status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    return res
      .status(access.status)
      .type("text/plain")
      .send(
        access.status === 401
          ? "Send the metrics token as a bearer token."
          : "Metrics are not available from this address.",
      );
  }
  res.setHeader("Content-Type", registry.contentType);
  res.send(await registry.metrics());
});

// A NUL byte (%00) in a path or query string is never a real request, and PostgreSQL text cannot
// hold it (a search or a page-view source would fail with a 500): refused up front.
app.use((req, res, next) => {
  if (!/%00/.test(req.originalUrl)) return next();
  res.status(400).type("text/plain").send("Bad request: the address contains a NUL character.");
});

// Body size per route (body-limit.server.ts), from the declared length, before anything reads it.
app.use((req, res, next) => {
  const verdict = checkBodySize({
    method: req.method,
    path: req.path,
    contentLength: req.get("content-length"),
    transferEncoding: req.get("transfer-encoding"),
  });
  if (verdict.ok) return next();
  // The body stays unread: close the connection rather than drain it.
  res.setHeader("Connection", "close");
  if (req.path.startsWith("/api/")) res.status(verdict.status).json({ error: { message: verdict.message } });
  else res.status(verdict.status).type("text/plain").send(verdict.message);
});

// Origin check before anything can change state.
app.use((req, res, next) => {
  const foreign = isForeignOriginRequest(
    {
      method: req.method,
      path: req.path,
      origin: req.get("origin"),
      referer: req.get("referer"),
      secFetchSite: req.get("sec-fetch-site"),
      host: req.get("host"),
      protocol: req.protocol,
    },
    trustedOrigins,
  );
  if (!foreign) return next();
  log("info", "refused foreign origin", { path: req.path, origin: req.get("origin") });
  res.status(403).type("text/plain").send("Cross-site request refused.");
});

// Stored cards (immutable, content-addressed PNGs) straight from the card store's memory: ahead
// of the page cache, the static files' disk look-up and Remix, which together cost a hit ~2 ms.
app.get(CARD_ROUTE, async (req, res, next) => {
  try {
    const answer = await cardAnswer(req.params.file, req.get("if-none-match"));
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.end(answer.body ?? undefined);
  } catch (error) {
    next(error);
  }
});

// Anonymous, identical-for-everyone pages come from the page cache (see page-cache.server.ts).
app.get("*", async (req, res, next) => {
  if (!env.PAGE_CACHE || req.method !== "GET") return next();
  const url = new URL(req.originalUrl, "http://x");
  if (url.search || !isCacheablePath(url.pathname)) return next();
  if ((req.get("cookie") ?? "").includes(`${SESSION_COOKIE}=`)) return next();
  try {
    const variant = isMobileDevice(deviceClassFromUserAgent(req.get("user-agent"))) ? "m" : "d";
    const key = `${variant}${url.pathname}`;
    let page = getCachedPage(key);
    if (!page) {
      const response = await renderPage(
        new Request(`http://localhost${url.pathname}`, { headers: { "user-agent": req.get("user-agent") ?? "" } }),
        { cspNonce: NONCE_PLACEHOLDER, requestId: res.locals.requestId, prerender: true },
      );
      if (response.status !== 200 || response.headers.has("set-cookie")) return next();
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (name !== "content-length") headers.push([name, value]);
      });
      page = storeCachedPage(key, await response.text(), headers);
    }
    res.setHeader("Cache-Control", "private, no-cache");
    res.setHeader("Vary", "Cookie, User-Agent");
    res.setHeader("ETag", page.etag);
    if (req.get("if-none-match") === page.etag) {
      if (isTrackedPath(url.pathname)) trackPageView({ path: url.pathname, source: null, userId: null });
      // The browser keeps its stored body, whose scripts carry the nonce of the stored CSP:
      // leaving CSP out of the 304 keeps the stored header (RFC 9111 §4.3.4) and the pair valid.
      res.removeHeader("Content-Security-Policy");
      return res.status(304).end();
    }
    for (const [name, value] of page.headers) res.setHeader(name, value);
    // The bytes as they are (express's send would encode a string and weigh its freshness again).
    const body = cachedPageBody(page, res.locals.cspNonce);
    res.setHeader("Content-Length", body.length);
    res.status(200).end(body);
    if (isTrackedPath(url.pathname)) trackPageView({ path: url.pathname, source: null, userId: null });
  } catch (error) {
    next(error);
  }
});

// Fingerprinted build assets never change; public files may.
app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
// Only paths under public/'s own entries reach the disk: every page would otherwise pay a stat()
// that fails (~0.13 ms of CPU each, docs/PERFORMANCE.md). public/ is made at build time.
const publicFiles = express.static(path.join(root, "public"), { maxAge: "1h", index: false });
const publicEntries = new Set(readdirSync(path.join(root, "public")));
app.use((req, res, next) => (publicEntries.has(req.path.split("/")[1] ?? "") ? publicFiles(req, res, next) : next()));

// The downloads (ledger, CSVs, own data) first take one of their own few slots, with no queue: a
// fast 503 when all are taken, so a burst of them cannot hold every render slot (admission.server.ts).
const downloads = createAdmission(env.MAX_CONCURRENT_DOWNLOADS, 0, 0);
app.use((req, res, next) => {
  if (!isDownloadPath(req.path)) return next();
  downloads.enter(
    (release) => {
      if (res.destroyed) return release();
      res.once("close", release);
      next();
    },
    () => {
      if (res.headersSent || res.destroyed) return;
      res.status(503).setHeader("Retry-After", String(DOWNLOAD_RETRY_AFTER_SECONDS));
      res.type("text/plain").send("The service is busy. Please try again in a moment.");
    },
  );
});

// Admission control in front of Remix: a bounded number of renders at a time, a bounded wait for
// the rest, then a plain 503 (admission.server.ts).
const admission = createAdmission(
  env.MAX_CONCURRENT_RENDERS,
  env.RENDER_QUEUE_WAIT_MS,
  env.RENDER_QUEUE_MAX ?? env.MAX_CONCURRENT_RENDERS,
);
reportAdmission(admission.stats);
app.use((_req, res, next) => {
  admission.enter(
    (release) => {
      // A client that left while waiting gives its turn straight back.
      if (res.destroyed) return release();
      res.once("close", release);
      // A request that only waits (for a job) gives its slot back early (leaveAdmission).
      res.locals.leaveAdmission = release;
      next();
    },
    () => {
      if (res.headersSent || res.destroyed) return;
      res.status(503).setHeader("Retry-After", "1");
      res.type("text/plain").send("The service is busy. Please try again in a moment.");
    },
  );
});

// Remix, its answer sent whole with its length (remix-express.server.ts).
app.all("*", async (req, res, next) => {
  try {
    const response = await renderPage(remixRequest(req, res), {
      cspNonce: res.locals.cspNonce,
      requestId: res.locals.requestId,
      prerender: false,
      localPort: req.socket.localPort,
      leaveAdmission: () => res.locals.leaveAdmission?.(),
    });
    await sendResponse(res, response);
  } catch (error) {
    next(error);
  }
});

// A Response thrown outside Remix (the page cache, /cards): a busy pool's 503 with Retry-After.
app.use(async (error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
  if (!(error instanceof Response) || res.headersSent) return next(error);
  res.status(error.status);
  error.headers.forEach((value, name) => res.setHeader(name, value));
  res.send(await error.text());
});

const server = http.createServer(app);
// Idle keep-alive connections stay open longer than a client or a balancer keeps them (undici 4 s,
// nginx and most balancers 60 s), so the other side always closes first: a request sent on a
// socket the server is closing at that moment would fail with ECONNRESET.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(env.PORT, env.HOST, async () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const local = env.HOST === "0.0.0.0" || env.HOST === "::" || !env.HOST ? "127.0.0.1" : env.HOST;
  mocks?.deliverWebhooksTo(`http://${local.includes(":") ? `[${local}]` : local}:${port}`);
  log("info", "listening", { port, url: `http://localhost:${port}`, db: await dbKind(), pid: process.pid });
});

// Graceful shutdown: stop accepting, let in-flight requests finish (bounded), close the DB.
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log("info", "shutting down", { signal });
  if (env.SHUTDOWN_DRAIN_SECONDS > 0) {
    // The balancer still sends here until it closes its idle connections (SHUTDOWN_DRAIN_SECONDS).
    log("info", "draining", { seconds: env.SHUTDOWN_DRAIN_SECONDS });
    await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DRAIN_SECONDS * 1000));
  }
  const timer = setTimeout(() => {
    log("error", "shutdown timed out; closing remaining connections");
    server.closeAllConnections();
  }, env.SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  // Open streams would hold the close until the timeout: ended, their browsers reconnect elsewhere.
  liveStreams.endAll();
  await stopLiveListener();
  server.close(async () => {
    // A job still running past the time limit is taken over by another worker once it expires.
    await stopJobs(Math.max(1000, env.SHUTDOWN_TIMEOUT_MS - 2000)).catch((error) =>
      log("error", "job queue stop failed", { error: String(error) }),
    );
    await flushPageViews();
    await closeDb();
    log("info", "stopped");
    process.exit(0);
  });
  // Keep-alive connections that finish their request become idle: close them as they do.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 50).unref();
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

// The memory bench starts the server with --expose-gc (never done in production): SIGUSR2 then
// collects garbage and logs what stays in use (bench/memory.ts).
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (collectGarbage) {
  process.on("SIGUSR2", () => {
    collectGarbage();
    log("info", "memory after gc", { ...process.memoryUsage() });
  });
}
