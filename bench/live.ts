import os from "node:os";
import { get, postForm, signUp } from "../test/support/http";
import { startServer } from "../test/support/server";
import { openSse, type SseStream } from "../test/support/sse";
import { memoryAfterGc } from "./memory";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (mbDelta: number, n: number) => Math.round(((mbDelta * 1024) / n) * 10) / 10;

/**
 * The live channel on one process (DECISIONS 189): memory of `streams` open event streams (users ×
 * tabs) after a forced GC, beside the same process idle; the time to open them; a message's
 * fan-out to every tab of its recipient; a signed-in page's time with all of them open. Measured,
 * never asserted.
 */
export async function benchLive(streams = Number(process.env.BENCH_LIVE_STREAMS ?? 1000), tabs = 50) {
  const server = await startServer(
    { LOG_REQUESTS: "0", RATE_LIMIT_FACTOR: "1000", LIVE_MAX_STREAMS: String(streams + 10) },
    { nodeArgs: ["--expose-gc"] },
  );
  const base = server.url;
  const open: SseStream[] = [];
  try {
    const users: { cookie: string; id: number }[] = [];
    const count = Math.ceil(streams / tabs) + 1;
    for (let i = 0; i < count; i++) {
      const { cookie } = await signUp({ base });
      await postForm(
        "/user-questions",
        { username: `bench${Date.now().toString(36)}${i}`, first_name: "", last_name: "", experience: "1-3" },
        { cookie, base },
      );
      const info = (await (await get("/api/user/info", { cookie, base })).json()) as { data: { id: number } };
      users.push({ cookie, id: info.data.id });
    }
    const sender = users.pop()!;
    // Warm: one stream opened and closed, so the idle figure includes the listener and the code.
    const warm = await openSse(base, "/api/portal/events", { cookie: users[0]!.cookie });
    await warm.next((e) => e.event === "ready");
    warm.close();
    await new Promise((r) => setTimeout(r, 1000));
    const idle = await memoryAfterGc(server);

    const began = performance.now();
    for (let i = 0; i < streams; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, streams - i) }, (_, j) =>
          openSse(base, "/api/portal/events", { cookie: users[Math.floor((i + j) / tabs)]!.cookie }),
        ),
      );
      await Promise.all(batch.map((s) => s.next((e) => e.event === "ready", 30_000)));
      open.push(...batch);
    }
    const openMs = Math.round(performance.now() - began);
    const refused = open.filter((s) => s.status !== 200).length;
    await new Promise((r) => setTimeout(r, 1000));
    const withStreams = await memoryAfterGc(server);

    // A message to a user with `tabs` open streams: until the last of them has it.
    const fanOutMs: number[] = [];
    for (let u = 0; u < 5; u++) {
      const tabsOf = open.slice(u * tabs, (u + 1) * tabs);
      const t0 = performance.now();
      await postForm(`/u/${users[u]!.id}`, { intent: "message", body: `bench ${u}` }, { cookie: sender.cookie, base });
      await Promise.all(tabsOf.map((s) => s.next((e) => e.event === "message", 10_000)));
      fanOutMs.push(Math.round((performance.now() - t0) * 10) / 10);
    }
    const pageMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await (await get("/messages", { cookie: users[0]!.cookie, base })).text();
      pageMs.push(performance.now() - t0);
    }
    for (const s of open.splice(0)) s.close();
    await new Promise((r) => setTimeout(r, 2000));
    const afterClose = await memoryAfterGc(server);
    return {
      db: process.env.DATABASE_URL ? "postgres" : "pglite",
      loadAvg1m: Math.round(os.loadavg()[0]! * 10) / 10,
      streams,
      users: users.length,
      refused,
      openAllMs: openMs,
      idle,
      withStreams,
      afterClose,
      perStreamKB: {
        heapPlusExternal: kb(withStreams.heapPlusExternalMB - idle.heapPlusExternalMB, streams),
        rss: kb(withStreams.rssMB - idle.rssMB, streams),
      },
      messageToAllTabsMs: { tabs, median: median(fanOutMs), all: fanOutMs },
      messagesPageWithStreamsOpenMs: { p50: Math.round(median(pageMs) * 10) / 10 },
    };
  } finally {
    for (const s of open) s.close();
    await server.stop();
  }
}
