import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";
import { ownDatabase, startServer, type RunningServer } from "../support/server";
import { openSse, type SseStream } from "../support/sse";

// The live channel (GET /api/portal/events, DECISIONS 187–189): an event raised on one process
// reaches a stream on another through PostgreSQL's LISTEN/NOTIFY; a reconnect with Last-Event-ID
// replays exactly what was missed; nobody sees another's events; past LIVE_MAX_STREAMS a fast 503,
// past LIVE_MAX_STREAMS_PER_USER a 429 for that account only.

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;
type Member = { cookie: string; id: number };
const EVENTS = "/api/portal/events";
const METRICS = "live-test-metrics-token-0123456789";

async function member(base: string): Promise<Member> {
  const { cookie } = await signUp({ base });
  const res = await postForm(
    "/user-questions",
    { username: `live${run}_${seq++}`, first_name: "", last_name: "", experience: "1-3" },
    { cookie, base },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie, base })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id };
}

async function send(base: string, from: Member, to: Member, body: string): Promise<number> {
  const res = await postForm(`/u/${to.id}`, { intent: "message", body }, { cookie: from.cookie, base });
  expect(res.status, await res.clone().text()).toBe(303);
  return Number(/\/messages\/(\d+)\//.exec(res.headers.get("location") ?? "")![1]);
}

const streams: SseStream[] = [];
async function open(base: string, cookie: string, lastEventId?: string) {
  const s = await openSse(base, EVENTS, { cookie, lastEventId });
  streams.push(s);
  return s;
}
const data = (e: { data: string }) => JSON.parse(e.data) as Record<string, unknown>;

// Each test leaves no stream open for the next (the bound test counts them).
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe.skipIf(!process.env.DATABASE_URL)("the live channel across two processes on one PostgreSQL", () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    const env = { ...(await ownDatabase()), LOG_REQUESTS: "0" };
    a = await startServer(env);
    servers.push(a);
    b = await startServer({
      ...env,
      LIVE_MAX_STREAMS: "4",
      LIVE_MAX_STREAMS_PER_USER: "3",
      LIVE_HEARTBEAT_SECONDS: "1",
      METRICS_TOKEN: METRICS,
    });
    servers.push(b);
  }, 120_000);

  it("a message sent through one process reaches the recipient's stream on the other, with its unread count", async () => {
    const [alice, bob] = [await member(a.url), await member(a.url)];
    const stream = await open(b.url, bob.cookie);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    const ready = await stream.next((e) => e.event === "ready");
    expect(data(ready)).toEqual({ unread: { notifications: 0 }, reset: false });

    // How fast is the bench's to say; here, that it arrives at all across processes.
    const conversationId = await send(a.url, alice, bob, "hello over there");
    const message = await stream.next((e) => e.event === "message", 15_000);
    expect(data(message)).toEqual({
      conversation_id: conversationId,
      message_id: expect.stringMatching(/^\d+$/),
      mine: false,
      request: true,
    });
    expect(data(await stream.next((e) => e.event === "unread"))).toEqual({ notifications: 1 });
    // Ids are the user's own numbers, one after another.
    expect(BigInt(stream.lastId()!)).toBe(BigInt(ready.id!) + 2n);

    // The sender's "Seen": bob reads the conversation through process B; alice's stream on A hears it.
    const aliceStream = await open(a.url, alice.cookie);
    await aliceStream.next((e) => e.event === "ready");
    expect((await get(`/messages/${conversationId}/request`, { cookie: bob.cookie, base: b.url })).status).toBe(200);
    const read = await aliceStream.next((e) => e.event === "read", 3_000);
    expect(data(read)).toEqual({ conversation_id: conversationId, last_read_id: data(message).message_id });
    // Bob's count went back to 0 with the read (and his stream says so).
    expect(data(await stream.next((e) => e.event === "unread"))).toEqual({ notifications: 0 });
  });

  it("a reconnect with Last-Event-ID replays exactly what was missed, in order, nothing twice", async () => {
    const [alice, bob] = [await member(a.url), await member(a.url)];
    const first = await open(b.url, bob.cookie);
    await first.next((e) => e.event === "ready");
    await send(a.url, alice, bob, "one");
    await first.next((e) => e.event === "unread");
    const seenUpTo = first.lastId()!;
    first.close();

    // Missed while away: three messages (each a "message" and an "unread").
    for (const body of ["two", "three", "four"]) await send(a.url, alice, bob, body);

    const again = await open(a.url, bob.cookie, seenUpTo);
    const ready = await again.next((e) => e.event === "ready");
    expect(data(ready).reset).toBe(false);
    expect(ready.id).toBe(seenUpTo);
    const replayed = [];
    for (let i = 0; i < 6; i++) replayed.push(await again.next((e) => e.event !== "ready"));
    expect(replayed.map((e) => e.event)).toEqual(["message", "unread", "message", "unread", "message", "unread"]);
    expect(replayed.map((e) => BigInt(e.id!))).toEqual([1n, 2n, 3n, 4n, 5n, 6n].map((n) => BigInt(seenUpTo) + n));
    expect(replayed.filter((e) => e.event === "unread").map((e) => data(e).notifications)).toEqual([1, 1, 1]);
    // Then live again, and nothing from before comes twice.
    await send(b.url, alice, bob, "five");
    const live = await again.next((e) => e.event === "message", 3_000);
    expect(BigInt(live.id!)).toBe(BigInt(seenUpTo) + 7n);
    const ids = again.events.filter((e) => e.event !== "ready").map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    // Up to date: a reconnect with the last id replays nothing.
    await again.next((e) => e.event === "unread");
    const current = again.lastId()!;
    again.close();
    const quiet = await open(b.url, bob.cookie, current);
    await quiet.next((e) => e.event === "ready");
    await new Promise((r) => setTimeout(r, 500));
    expect(quiet.events.map((e) => e.event)).toEqual(["ready"]);
    quiet.close();
  });

  it("another user's events never reach a stream, whatever Last-Event-ID it sends", async () => {
    const [alice, bob, carol] = [await member(a.url), await member(a.url), await member(a.url)];
    const carolStream = await open(b.url, carol.cookie, "0");
    const bobStream = await open(b.url, bob.cookie);
    await bobStream.next((e) => e.event === "ready");
    await send(a.url, alice, bob, "for bob only");
    await bobStream.next((e) => e.event === "unread", 3_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(carolStream.events.map((e) => e.event)).toEqual(["ready"]);
    carolStream.close();
    bobStream.close();
  });

  it("is neither compressed nor held back for a client that accepts gzip, and sends a heartbeat comment on time", async () => {
    const erin = await member(a.url);
    const stream = await openSse(b.url, EVENTS, { cookie: erin.cookie, headers: { "accept-encoding": "gzip, br" } });
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-encoding")).toBeNull();
    expect(stream.headers.get("cache-control")).toBe("no-store, no-transform");
    await stream.next((e) => e.event === "ready", 1_000);
    // LIVE_HEARTBEAT_SECONDS=1 on this server.
    await new Promise((r) => setTimeout(r, 2_600));
    expect(stream.comments).toBeGreaterThanOrEqual(2);
  });

  it("an import's progress reaches its owner's stream, ending in done", async () => {
    const { cookie } = await signUp({ base: a.url });
    const stream = await open(b.url, cookie);
    await stream.next((e) => e.event === "ready");
    const linked = await exchange(a.url, cookie, `user_good_live${run}`);
    const [done] = await waitForImports(cookie, { base: a.url, timeoutMs: 60_000 });
    expect(done!.state).toBe("done");
    const last = await stream.next((e) => e.event === "import" && data(e).state === "done", 5_000);
    expect(data(last)).toEqual({
      import_id: linked.import_id,
      state: "done",
      fetched: done!.fetched,
      total: done!.total,
    });
    const states = stream.events.filter((e) => e.event === "import").map((e) => data(e).state);
    expect(states[0]).toBe("queued");
    expect(states.at(-1)).toBe("done");
  }, 90_000);

  it("refuses a stream without a session (401), and past LIVE_MAX_STREAMS answers a fast 503 while pages still render", async () => {
    const anonymous = await openSse(b.url, EVENTS);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(await anonymous.text())).toEqual({ error: { message: "You need to log in to do that." } });

    // Let the earlier tests' closed streams go (the server sees the close when the socket ends).
    await new Promise((r) => setTimeout(r, 500));
    const [dave, erin] = await Promise.all([member(a.url), member(a.url)]);
    const held = [];
    for (const who of [dave, dave, dave, erin]) {
      const s = await open(b.url, who.cookie);
      expect(s.status).toBe(200);
      await s.next((e) => e.event === "ready");
      held.push(s);
    }
    const began = Date.now();
    const refused = await openSse(b.url, EVENTS, { cookie: erin.cookie });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("15");
    // Fast: well inside the render queue's wait (RENDER_QUEUE_WAIT_MS 10 s in tests), even loaded.
    expect(Date.now() - began).toBeLessThan(5_000);
    const metrics = await (
      await get("/metrics", { base: b.url, headers: { authorization: `Bearer ${METRICS}` } })
    ).text();
    expect(metrics).toMatch(/^grader_live_streams\{state="open"\} 4$/m);
    expect(metrics).toMatch(/^grader_live_streams\{state="max"\} 4$/m);
    expect(metrics).toMatch(/^grader_live_streams_refused_total 1$/m);
    expect(metrics).toMatch(/^grader_live_streams\{state="max_per_user"\} 3$/m);
    expect(metrics).toMatch(/^grader_live_listener_up 1$/m);
    // Open streams take no render slot: a page is served beside them.
    expect((await get("/messages", { cookie: dave.cookie, base: b.url })).status).toBe(200);
    held[0]!.close();
    await new Promise((r) => setTimeout(r, 300));
    const room = await open(b.url, dave.cookie);
    expect(room.status).toBe(200);
    for (const s of [...held, room]) s.close();
  });

  it("past LIVE_MAX_STREAMS_PER_USER refuses that account's next stream (429) while another account still connects", async () => {
    await new Promise((r) => setTimeout(r, 500));
    const [fay, gus] = await Promise.all([member(a.url), member(a.url)]);
    // Opened at once: the per-account count cannot be raced past.
    const opened = await Promise.all([1, 2, 3, 4].map(() => open(b.url, fay.cookie)));
    const statuses = opened.map((s) => s.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = opened.find((s) => s.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe("15");
    expect(JSON.parse(await refused.text())).toEqual({
      error: { message: "Too many live connections for your account. Close a tab, or try again shortly." },
    });
    const other = await open(b.url, gus.cookie);
    expect(other.status).toBe(200);
    await other.next((e) => e.event === "ready");
    const metrics = await (
      await get("/metrics", { base: b.url, headers: { authorization: `Bearer ${METRICS}` } })
    ).text();
    expect(metrics).toMatch(/^grader_live_streams_refused_per_user_total 1$/m);
    // A closed stream gives the account its place back.
    opened.find((s) => s.status === 200)!.close();
    await new Promise((r) => setTimeout(r, 300));
    const again = await open(b.url, fay.cookie);
    expect(again.status).toBe(200);
  });
});

describe("the live channel on PGlite (one process, its own listen)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ LOG_REQUESTS: "0", DATABASE_URL: "" });
    servers.push(server);
  }, 120_000);

  it("delivers a message to the recipient's open stream", async () => {
    const [alice, bob] = [await member(server.url), await member(server.url)];
    const stream = await open(server.url, bob.cookie);
    await stream.next((e) => e.event === "ready");
    const conversationId = await send(server.url, alice, bob, "hello, embedded");
    expect(data(await stream.next((e) => e.event === "message", 3_000)).conversation_id).toBe(conversationId);
  });
});
