import crypto from "node:crypto";
import { BlockList, isIP } from "node:net";
import client from "prom-client";
import { cardCacheStats } from "../grades/card-store.server";
import { engineRegradeStats } from "../grades/engine-regrade.server";
import { poolStats, poolUsage } from "./db.server";
import { getEnv } from "./env.server";
import { liveListenerStats } from "./live.server";

// Prometheus metrics for GET /metrics (server.ts): request latency by route, the database pool's
// use and waits, and the card cache. One registry per process; every replica is scraped itself.
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

export const requestDuration = new client.Histogram({
  name: "grader_http_request_duration_seconds",
  help: "Time to answer a request, by route pattern, method and status class",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** A pool's connections by state (total, idle) and the requests waiting for one. */
function poolGauge(name: string, help: string, which: "primary" | "read") {
  new client.Gauge({
    name,
    help,
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const usage = poolUsage(which);
      if (!usage) return;
      this.set({ state: "total" }, usage.total);
      this.set({ state: "idle" }, usage.idle);
      this.set({ state: "waiting" }, usage.waiting);
    },
  });
}
poolGauge(
  "grader_db_pool_connections",
  "Database pool connections by state (total, idle) and requests waiting for one",
  "primary",
);
poolGauge(
  "grader_db_read_pool_connections",
  "The read database's pool (DATABASE_READ_URL) by state (total, idle) and requests waiting for one",
  "read",
);

new client.Counter({
  name: "grader_db_pool_wait_timeouts_total",
  help: "Requests answered 503 because no database connection was free within DATABASE_POOL_WAIT_MS",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(poolStats.waitTimeouts);
  },
});

new client.Counter({
  name: "grader_card_cache_total",
  help: "Card look-ups: stored cards served from memory or the database, and card requests found already drawn (render_hit) or drawn now (render)",
  labelNames: ["result"] as const,
  registers: [registry],
  collect() {
    const s = cardCacheStats();
    this.reset();
    this.inc({ result: "memory_hit" }, s.memoryHits);
    this.inc({ result: "database_load" }, s.databaseLoads);
    this.inc({ result: "render_hit" }, s.renderHits);
    this.inc({ result: "render" }, s.renders);
  },
});

new client.Counter({
  name: "grader_engine_regrades_total",
  help: "Grades re-made under a new engine version by this process, by outcome (failed: logged, the trader skipped)",
  labelNames: ["outcome"] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [outcome, n] of Object.entries(engineRegradeStats)) this.inc({ outcome }, n);
  },
});

let admissionStats: (() => { inFlight: number; queued: number; refused: number }) | undefined;
/** server.ts hands over its admission control's counters. */
export function reportAdmission(stats: typeof admissionStats) {
  admissionStats = stats;
}

new client.Gauge({
  name: "grader_renders",
  help: "Rendered requests in flight and waiting for a turn (MAX_CONCURRENT_RENDERS)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const s = admissionStats?.();
    if (!s) return;
    this.set({ state: "in_flight" }, s.inFlight);
    this.set({ state: "queued" }, s.queued);
  },
});

new client.Counter({
  name: "grader_renders_refused_total",
  help: "Requests answered 503 because no render slot freed within RENDER_QUEUE_WAIT_MS",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(admissionStats?.().refused ?? 0);
  },
});

/**
 * A path as a low-cardinality route label: ids, hashes, codes and session ids become
 * placeholders, and anything answered 404 is "unmatched" (scanners must not mint new series).
 */
export function routeLabel(path: string, status: number): string {
  if (status === 404) return "unmatched";
  if (path.startsWith("/build/")) return "/build/:asset";
  const segments = path
    .split("/")
    .filter(Boolean)
    .slice(0, 4)
    .map((s) => {
      if (/^\d+$/.test(s)) return ":id";
      if (/^[0-9a-f]{64}\.png$/.test(s)) return ":card";
      if (/^GR-/i.test(s)) return ":code";
      if (/^cs_/.test(s)) return ":session";
      if (s.length > 32 || !/^[a-z0-9_.[\]-]+$/i.test(s)) return ":param";
      return s;
    });
  return "/" + segments.join("/");
}

type Access = { ok: true } | { ok: false; status: 401 | 403 };

let allowList: { source: string; list: BlockList } | undefined;
function allowed(ip: string): boolean {
  const source = getEnv().METRICS_ALLOW;
  if (!source) return false;
  if (allowList?.source !== source) {
    const list = new BlockList();
    for (const entry of source
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [address, prefix] = entry.split("/");
      const type = isIP(address!) === 6 ? "ipv6" : "ipv4";
      if (prefix === undefined) list.addAddress(address!, type);
      else list.addSubnet(address!, Number(prefix), type);
    }
    allowList = { source, list };
  }
  const plain = ip.replace(/^::ffff:(?=\d+\.)/, "");
  const type = isIP(plain) === 6 ? "ipv6" : "ipv4";
  return isIP(plain) !== 0 && allowList.list.check(plain, type);
}

/**
 * /metrics is for the operator's scraper only: a request from a METRICS_ALLOW network, or with
 * `Authorization: Bearer <METRICS_TOKEN>`. Otherwise 401 when a token could be given, else 403.
 */
export function metricsAccess(ip: string, authorization: string | undefined): Access {
  const env = getEnv();
  if (allowed(ip)) return { ok: true };
  if (env.METRICS_TOKEN) {
    const given = Buffer.from(authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : "");
    const expected = Buffer.from(env.METRICS_TOKEN);
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return { ok: true };
    return { ok: false, status: 401 };
  }
  return { ok: false, status: 403 };
}

// The live channel (DECISIONS 187–189): open streams against LIVE_MAX_STREAMS, the ones refused
// past it, and whether this process's LISTEN connection is up.
let liveStats:
  (() => { open: number; max: number; refused: number; refusedPerUser: number; maxPerUser: number }) | undefined;
export function reportLiveStreams(stats: NonNullable<typeof liveStats>) {
  liveStats = stats;
}

new client.Gauge({
  name: "grader_live_streams",
  help: "Open live event streams (GET /api/portal/events) and their bound (LIVE_MAX_STREAMS)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const s = liveStats?.();
    if (!s) return;
    this.set({ state: "open" }, s.open);
    this.set({ state: "max" }, s.max);
    this.set({ state: "max_per_user" }, s.maxPerUser);
  },
});

new client.Counter({
  name: "grader_live_streams_refused_total",
  help: "Live event streams answered 503 because LIVE_MAX_STREAMS were open",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(liveStats?.().refused ?? 0);
  },
});

new client.Counter({
  name: "grader_live_streams_refused_per_user_total",
  help: "Live event streams answered 429 because the account had LIVE_MAX_STREAMS_PER_USER open",
  registers: [registry],
  collect() {
    this.reset();
    this.inc(liveStats?.().refusedPerUser ?? 0);
  },
});

new client.Gauge({
  name: "grader_live_listener_up",
  help: "1 while this process's LISTEN connection for the live channel is connected",
  registers: [registry],
  collect() {
    this.set(liveListenerStats.connected ? 1 : 0);
  },
});
