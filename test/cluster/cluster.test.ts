import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invariantProblems, type Acknowledged } from "../fault/invariants";
import { freePort, startNginx, startPgBouncer, stopDaemons, type Daemon } from "../support/daemons";
import { get, postForm, sessionCookie, uniqueEmail, waitForImports } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { exchange, midImport, tradesOf } from "../support/plaid-link";
import { ownDatabase, startServer, type RunningServer } from "../support/server";
import { openSse } from "../support/sse";
import { deliver, fixtureEvent, newCheckoutSession, sign } from "../support/stripe";

// The cluster check (docs/OPERATIONS.md, "Scaling"): the topology of docker-compose.yml from
// Debian's packages on this machine. PostgreSQL; PgBouncer in transaction mode in front of it; two
// web replicas (JOB_WORKERS=0) and one worker, all three started at the same instant on an empty
// database; nginx balancing the two web replicas. A trader's whole path goes through nginx; what
// must be global is checked by sending the steps of one flow to different replicas; then one web
// replica and the worker get SIGTERM under load. Run by `npm run test:cluster` (.ci/run calls it).

const RUN = Date.now().toString(36);
const EVENTS = "/api/portal/events";
let primary: string;
let bouncer: Daemon;
let lb: Daemon;
let web: [RunningServer, RunningServer];
let worker: RunningServer;
let shared: Record<string, string>;
const servers: RunningServer[] = [];
/** What the cluster answered as done, checked in the database at the end (test/fault/invariants.ts). */
const acknowledged: Required<Pick<Acknowledged, "users" | "posts" | "stripeEvents" | "grades">> = {
  users: [],
  posts: [],
  stripeEvents: [],
  grades: [],
};

/** Each simulated client gets an address of its own (nginx passes it on; the replicas trust loopback). */
let clients = 0;
const clientIp = () => `198.51.100.${++clients}`;

async function signUpAt(base: string) {
  const email = uniqueEmail("cluster");
  const password = "correct horse battery";
  const res = await postForm("/signup", { email, password }, { base, headers: { "x-forwarded-for": clientIp() } });
  if (res.status !== 302) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = sessionCookie(res);
  acknowledged.users.push(email);
  const info = (await (await get("/api/user/info", { base, cookie })).json()) as { data: { id: number } };
  return { email, password, cookie, id: info.data.id };
}

async function api(base: string, path: string, cookie: string, body: unknown = {}) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: base },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; error?: unknown } };
}

/** The requests a replica logged for `path` (LOG_REQUESTS). */
function served(server: RunningServer, path: string): number {
  return server.logs.filter((line) => line.includes('"msg":"request"') && line.includes(`"path":"${path}"`)).length;
}

/** The jobs of a queue (import steps unless named) a process ran to the end. */
function jobsDone(server: RunningServer, job = "import-step"): number {
  return server.logs.filter((line) => line.includes('"msg":"job done"') && line.includes(`"job":"${job}"`)).length;
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: primary });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function startAll(env: Record<string, string>[]): Promise<RunningServer[]> {
  const started = await Promise.all(env.map((e) => startServer({ ...shared, ...e })));
  servers.push(...started);
  return started;
}

beforeAll(async () => {
  if (!process.env.DATABASE_URL)
    throw new Error("the cluster check runs on PostgreSQL: set DATABASE_URL (README, 'Tests'), as .ci/run does");
  primary = (await ownDatabase()).DATABASE_URL!;
  bouncer = await startPgBouncer(new URL(primary));
  const lbPort = await freePort();
  shared = {
    DATABASE_URL: bouncer.url,
    DATABASE_DIRECT_URL: primary,
    ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"),
    OAUTH_STATE_SECRET: crypto.randomBytes(32).toString("hex"),
    PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
    TRUST_PROXY: "loopback",
    // The product's own limits: the check is that they hold across replicas.
    RATE_LIMIT_FACTOR: "1",
    // Imports of many small pages, each a job: a worker can be stopped in the middle of one.
    SIM_PLAID_PAGE_SIZE: "40",
    // Above nginx's 2 s upstream keepalive_timeout (test/support/daemons.ts).
    SHUTDOWN_DRAIN_SECONDS: "3",
  };
  // A cold cluster start: every process at the same instant on an empty database (DECISIONS 150).
  const [a, b, w] = await startAll([{ JOB_WORKERS: "0" }, { JOB_WORKERS: "0" }, {}]);
  web = [a!, b!];
  worker = w!;
  lb = await startNginx([a!.url, b!.url], lbPort);
}, 240_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => (s.process.exitCode === null ? s.stop() : null)));
  await stopDaemons();
});

describe("two web replicas and a worker behind nginx and PgBouncer", () => {
  it("came up together on an empty database, and nginx spreads the requests over both replicas", async () => {
    for (const s of [...web, worker]) expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await get("/pricing", { base: lb.url })).status).toBe(200);
    // A request is logged once its answer is sent: the last line may trail the answer.
    await expect.poll(() => served(web[0], "/pricing") + served(web[1], "/pricing")).toBe(10);
    expect(served(web[0], "/pricing")).toBeGreaterThan(0);
    expect(served(web[1], "/pricing")).toBeGreaterThan(0);
    // One set of migrations, whichever process ran them.
    const [{ n }] = await query<{ n: string }>("select count(*) as n from kysely_migration");
    expect(Number(n)).toBeGreaterThan(0);
    expect([...web, worker].flatMap((s) => s.logs).join("\n")).not.toMatch(/unsupported startup parameter/i);
  });

  it("takes a trader through sign-up, linking, the import's jobs, the grade, the card, messages and a payment", async () => {
    const trader = await signUpAt(lb.url);
    const signIn = await postForm(
      "/signin",
      { email: trader.email, password: trader.password },
      { base: lb.url, headers: { "x-forwarded-for": clientIp() } },
    );
    expect(signIn.status).toBe(302);

    const username = `user_good_${RUN}a`;
    const linked = await exchange(lb.url, trader.cookie, username);
    const [done] = await waitForImports(trader.cookie, { base: lb.url, timeoutMs: 60_000 });
    expect(done).toMatchObject({ id: linked.import_id, state: "done", error: null });
    expect(await tradesOf(lb.url, trader.cookie)).toBe(expectedDemoLedger(username).trades);
    // The web replicas only enqueue: every step ran on the worker.
    expect(jobsDone(web[0]) + jobsDone(web[1])).toBe(0);
    expect(jobsDone(worker)).toBeGreaterThan(0);

    // The import's automatic grade (on the worker) is the one the evaluation finds.
    const graded = await api(lb.url, "/api/finance/plaid/evaluation", trader.cookie);
    expect(graded.status).toBe(200);
    expect(graded.body.data?.code).toBe(2002);
    // The evaluation ran as a job on the worker; the replica only waited for it.
    expect(jobsDone(worker, "evaluate")).toBe(1);
    expect(jobsDone(web[0], "evaluate") + jobsDone(web[1], "evaluate")).toBe(0);
    const code = graded.body.data?.verification_code as string;
    acknowledged.grades.push(code);
    const share = await api(lb.url, `/api/share/image/${trader.id}`, trader.cookie);
    expect(share.status).toBe(200);
    const png = await fetch(lb.url + new URL(share.body.data!.share_url as string).pathname);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    // The share page names the grade's verification code on both replicas.
    for (const s of web)
      expect(await (await get(`/share/open_graph/${trader.id}`, { base: s.url })).text()).toContain(code);

    // A message written through one replica is in the inbox read through the other, and reaches
    // the friend's live streams through nginx, whichever replica holds each: nginx sends
    // consecutive connections to each replica in turn, so two streams cover both.
    const friend = await signUpAt(lb.url);
    const streams = [await openSse(lb.url, EVENTS, { cookie: friend.cookie })];
    streams.push(await openSse(lb.url, EVENTS, { cookie: friend.cookie }));
    for (const s of streams) {
      expect(s.status).toBe(200);
      expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
      // The first event comes through the balancer at once (nginx passes the stream as written).
      await s.next((e) => e.event === "ready", 5_000);
    }
    const sent = await postForm(
      `/u/${friend.id}`,
      { intent: "message", body: `hello from ${RUN}` },
      { base: web[0].url, cookie: trader.cookie },
    );
    expect(sent.status).toBe(303);
    const inbox = await (await get("/messages", { base: web[1].url, cookie: friend.cookie })).text();
    expect(inbox).toContain(`hello from ${RUN}`);
    for (const s of streams) await s.next((e) => e.event === "message", 10_000);
    // A reconnect through nginx, wherever it lands, replays what came after the id it names.
    const missed = streams[0]!.lastId()!;
    for (const s of streams) s.close();
    await postForm(
      `/u/${friend.id}`,
      { intent: "message", body: `again from ${RUN}` },
      { base: web[1].url, cookie: trader.cookie },
    );
    const again = await openSse(lb.url, EVENTS, { cookie: friend.cookie, lastEventId: missed });
    await again.next((e) => e.event === "message", 10_000);
    again.close();

    // A paid pass: the checkout started on one replica, Stripe's webhook delivered to the other.
    const tries = async (base: string) =>
      Number(
        /data-testid="tries-count">(\d+)</.exec(
          await (await get("/pricing", { base, cookie: trader.cookie })).text(),
        )![1],
      );
    const before = await tries(lb.url);
    const { session_id } = await newCheckoutSession(web[0].url, trader.cookie);
    const payload = fixtureEvent(session_id);
    const delivered = await deliver(web[1].url, payload, sign(payload));
    expect(delivered.status).toBe(200);
    acknowledged.stripeEvents.push(JSON.parse(payload).id);
    expect(await tries(web[0].url)).toBe(before + 10);
    expect(await tries(web[1].url)).toBe(before + 10);
  }, 120_000);

  it("keeps what must be global global: rate limits, sessions, OAuth state, each job once, the newest grade", async () => {
    // A sign-in limit counted across replicas: ten wrong passwords spread over both, the 11th refused on either.
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await postForm(
        "/signin",
        { email: uniqueEmail("limit"), password: "wrong password" },
        { base: web[i % 2]!.url, headers: { "x-forwarded-for": ip } },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);

    // A session signed out on one replica is refused by the other at once.
    const member = await signUpAt(lb.url);
    expect((await get("/api/user/info", { base: web[1].url, cookie: member.cookie })).status).toBe(200);
    expect((await postForm("/logout", {}, { base: web[0].url, cookie: member.cookie })).status).toBe(302);
    expect((await get("/api/user/info", { base: web[1].url, cookie: member.cookie })).status).toBe(401);

    // Google sign-in started on one replica and called back on the other (one OAUTH_STATE_SECRET).
    // Sent to each replica as nginx would pass it on: the browser's host, which the callback URL names.
    const forwarded = { "x-forwarded-host": new URL(lb.url).host };
    const login = await get("/oauth/google-login", { base: web[0].url, headers: forwarded });
    expect(login.status).toBe(302);
    const state = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("grader_oauth="))!
      .split(";")[0]!;
    const consent = new URL(login.headers.get("location")!);
    const email = uniqueEmail("google");
    const consented = await postForm(
      consent.pathname + consent.search,
      {
        state: consent.searchParams.get("state")!,
        redirect_uri: consent.searchParams.get("redirect_uri")!,
        email,
        name: "Grace Hopper",
        verified: "on",
        intent: "allow",
      },
      { base: lb.url },
    );
    expect(consented.status).toBe(302);
    const callback = new URL(consented.headers.get("location")!);
    expect(callback.origin).toBe(lb.url);
    const signedIn = await get(callback.pathname + callback.search, {
      base: web[1].url,
      cookie: state,
      headers: forwarded,
    });
    expect(signedIn.status).toBe(302);
    const google = sessionCookie(signedIn);
    const who = (await (await get("/api/user/info", { base: web[0].url, cookie: google })).json()) as {
      data: { email: string };
    };
    expect(who.data.email).toBe(email);

    // A re-grade made on the worker is what both replicas serve next, the card included.
    const trader = await signUpAt(lb.url);
    await exchange(lb.url, trader.cookie, `user_good_${RUN}b`);
    await waitForImports(trader.cookie, { base: lb.url, timeoutMs: 60_000 });
    const first = await api(web[0].url, "/api/finance/plaid/evaluation", trader.cookie);
    const card = await api(web[0].url, `/api/share/image/${trader.id}`, trader.cookie);
    await exchange(web[1].url, trader.cookie, `user_good_${RUN}c`);
    await waitForImports(trader.cookie, { base: lb.url, timeoutMs: 60_000 });
    const second = await api(web[1].url, "/api/finance/plaid/evaluation", trader.cookie);
    expect(second.body.data?.code).toBe(2002);
    expect(second.body.data?.verification_code).not.toBe(first.body.data?.verification_code);
    for (const s of web) {
      const page = await (await get(`/share/open_graph/${trader.id}`, { base: s.url })).text();
      expect(page).toContain(second.body.data?.verification_code as string);
      const again = await api(s.url, `/api/share/image/${trader.id}`, trader.cookie);
      expect(again.body.data?.share_url).not.toBe(card.body.data?.share_url);
    }

    acknowledged.grades.push(
      first.body.data?.verification_code as string,
      second.body.data?.verification_code as string,
    );
  }, 180_000);

  it("loses nothing acknowledged when a web replica and then the worker get SIGTERM under load", async () => {
    const writers = await Promise.all([0, 1, 2, 3].map(() => signUpAt(lb.url)));
    const posted: string[] = [];
    const failures: string[] = [];
    let stop = false;
    // Readers and writers through nginx while replica 0 stops; each writer posts at most the
    // product's 10 a minute.
    const load = Promise.all([
      ...writers.map(async (w, i) => {
        for (let n = 0; n < 8 && !stop; n++) {
          const body = `cluster ${RUN} writer ${i} post ${n}`;
          const res = await postForm("/community", { intent: "post", body }, { base: lb.url, cookie: w.cookie });
          if (res.status === 303) posted.push(body);
          else failures.push(`POST ${res.status}`);
          await new Promise((r) => setTimeout(r, 150));
        }
      }),
      ...[0, 1].map(async () => {
        while (!stop) {
          const res = await get("/community", { base: lb.url, cookie: writers[0]!.cookie });
          if (res.status !== 200) failures.push(`GET ${res.status}`);
          await res.arrayBuffer();
        }
      }),
    ]);
    await new Promise((r) => setTimeout(r, 800));
    expect(await web[0].stop()).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await load;
    expect(failures).toEqual([]);
    expect(posted.length).toBeGreaterThan(0);
    const stored = await query<{ body: string }>("select body from posts where body like $1", [`cluster ${RUN} %`]);
    expect(stored.map((r) => r.body).sort()).toEqual([...posted].sort());
    acknowledged.posts.push(...posted);

    // The worker stops mid-import; a second worker (a rolling deploy's new one) takes the import over.
    const [next] = await startAll([{}]);
    const trader = await signUpAt(lb.url);
    const username = `user_good_${RUN}d`;
    await exchange(lb.url, trader.cookie, username);
    await midImport(lb.url, trader.cookie);
    expect(await worker.stop()).toBe(0);
    const [done] = await waitForImports(trader.cookie, { base: lb.url, timeoutMs: 120_000 });
    expect(done).toMatchObject({ state: "done", error: null });
    expect(await tradesOf(lb.url, trader.cookie)).toBe(expectedDemoLedger(username).trades);
    expect(jobsDone(next!)).toBeGreaterThan(0);
  }, 240_000);

  it("leaves a consistent database: each trade once, every acknowledged write there, no job left waiting", async () => {
    await Promise.all(servers.map((s) => (s.process.exitCode === null ? s.stop() : null)));
    expect(await invariantProblems({ DATABASE_URL: primary }, acknowledged)).toEqual([]);
  }, 60_000);
});
