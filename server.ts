import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler as createExpressHandler } from "@remix-run/express";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { cardAnswer } from "./app/server/card-store.server";
import { isEmbeddablePath } from "./app/server/embeddable.server";
import { closeDb, dbKind, migrateToLatest, pingDb } from "./app/server/db.server";
import { getEnv } from "./app/server/env.server";
import { log } from "./app/server/log.server";
import { startMailWorker } from "./app/server/mail.server";
import { isForeignOriginRequest } from "./app/server/origin-check.server";
import { isAppleDemo, isGoogleDemo } from "./app/server/oauth/config.server";
import {
  getCachedPage,
  isCacheablePath,
  NONCE_PLACEHOLDER,
  storeCachedPage,
} from "./app/server/page-cache.server";
import { flushPageViews, isTrackedPath, trackPageView } from "./app/server/page-views.server";
import { SESSION_COOKIE } from "./app/server/session-cookie";
import { deviceClassFromUserAgent, isMobileDevice } from "./app/lib/device-class";

const root = path.dirname(fileURLToPath(import.meta.url));

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

// Google/Apple without credentials: demo mode against the msw provider simulators in test/mocks.
const demoProviders = { google: isGoogleDemo(), apple: isAppleDemo(), plaid: !(env.PLAID_CLIENT_ID && env.PLAID_SECRET), evm: !env.EVM_EXPLORER_URL, solana: !env.SOLANA_RPC_URL, stripe: !env.STRIPE_SECRET_KEY, prices: !env.PRICES_LIVE };
if (Object.values(demoProviders).some(Boolean)) {
  try {
    const { startProviderMocks } = await import("./test/mocks/index");
    const mocks = await startProviderMocks(demoProviders);
    log("info", "demo mode: provider simulators running", { providers: mocks?.providers ?? [] });
  } catch (error) {
    log("error", "demo mode: provider simulators failed to start", { error: String(error) });
  }
}

const applied = await migrateToLatest();
if (applied.length) log("info", "migrations applied", { applied });

const stopMailWorker = startMailWorker();

const build = (await import(pathToFileURL(path.join(root, "build/index.js")).href)) as ServerBuild;
const mode = env.NODE_ENV === "production" ? "production" : "development";
const renderPage = createRequestHandler(build, mode);
const trustedOrigins = [env.PUBLIC_URL, ...env.TRUSTED_ORIGINS.split(",").map((s) => s.trim()).filter(Boolean)];
const secureOrigin = env.PUBLIC_URL.startsWith("https:");

// Stripe's embedded and hosted Checkout, allowed only when real Stripe keys are configured (demo
// mode stays on our own origin).
const stripeCsp = env.STRIPE_SECRET_KEY
  ? {
      script: ["https://js.stripe.com"],
      frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://checkout.stripe.com", "https://hooks.stripe.com"],
      connect: ["https://api.stripe.com", "https://checkout.stripe.com"],
      formAction: ["https://checkout.stripe.com"],
    }
  : { script: [], frame: [], connect: [], formAction: [] };

export const app = express();
app.disable("x-powered-by");

// Request id + structured access log.
app.use((req, res, next) => {
  if (!env.LOG_REQUESTS) {
    res.locals.requestId = crypto.randomUUID();
    return next();
  }
  const started = process.hrtime.bigint();
  const id = crypto.randomUUID();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    log(req.path === "/healthz" ? "debug" : "info", "request", {
      id,
      method: req.method,
      path: req.path,
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
    });
  });
  next();
});

if (env.TRUST_PROXY) app.set("trust proxy", /^\d+$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : env.TRUST_PROXY);
// The client address for rate limits, set here from the socket (or the trusted proxy chain) so a
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
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
});

app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`, ...stripeCsp.script],
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

app.use(compression());

app.get("/healthz", async (_req, res) => {
  const ok = await pingDb();
  res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "unavailable", db: ok ? await dbKind() : "unreachable" });
});

// A NUL byte (%00) in a path or query string is never a real request, and PostgreSQL text cannot
// hold it (a search or a page-view source would fail with a 500): refused up front.
app.use((req, res, next) => {
  if (!/%00/.test(req.originalUrl)) return next();
  res.status(400).type("text/plain").send("Bad request: the address contains a NUL character.");
});

// Origin check before anything can change state.
app.use((req, res, next) => {
  const foreign = isForeignOriginRequest(
    {
      method: req.method,
      path: req.path,
      origin: req.get("origin"),
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
app.get("/cards/:file", async (req, res, next) => {
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
    res.status(200).send(page.parts.join(res.locals.cspNonce));
    if (isTrackedPath(url.pathname)) trackPageView({ path: url.pathname, source: null, userId: null });
  } catch (error) {
    next(error);
  }
});

// Fingerprinted build assets never change; public files may.
app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "public"), { maxAge: "1h", index: false }));

app.all(
  "*",
  createExpressHandler({
    build,
    mode,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce, requestId: res.locals.requestId, prerender: false }),
  }),
);

const server = http.createServer(app);
server.listen(env.PORT, env.HOST, async () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log("info", "listening", { port, url: `http://localhost:${port}`, db: await dbKind() });
});

// Graceful shutdown: stop accepting, let in-flight requests finish (bounded), close the DB.
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log("info", "shutting down", { signal });
  const timer = setTimeout(() => {
    log("error", "shutdown timed out; closing remaining connections");
    server.closeAllConnections();
  }, env.SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  server.close(async () => {
    stopMailWorker();
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
