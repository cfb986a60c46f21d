import { afterAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";
import { openSse } from "../support/sse";
import { proxiedDatabase, type TcpProxy } from "../support/tcp-proxy";
import { isRunning, logged, scenario, start, waitFor } from "./servers";

// The live channel's LISTEN connection (DATABASE_DIRECT_URL, DECISIONS 188) cut and restored while
// a stream is open: the process stays up, the listener reconnects by itself, and an event raised
// while nobody listened reaches the stream after the restore. Only the direct URL goes through the
// cutting proxy, so the event can be raised (through DATABASE_URL) while the listener is away.

const RUN = Date.now().toString(36);
const proxies: TcpProxy[] = [];
afterAll(async () => {
  for (const p of proxies) {
    p.cut();
    await p.close();
  }
});

describe.skipIf(!process.env.DATABASE_URL)("the live listener's connection cut and restored", () => {
  it("the process lives, the listener comes back, and what was raised meanwhile reaches the open stream", async () => {
    const own = await scenario();
    const { url, proxy } = await proxiedDatabase(own.DATABASE_URL!);
    proxies.push(proxy);
    const server = await start({ ...own, DATABASE_DIRECT_URL: url });
    const base = server.url;
    const members = [];
    for (const name of ["a", "b"]) {
      const { cookie } = await signUp({ base });
      const res = await postForm(
        "/user-questions",
        { username: `cut${RUN}${name}`, first_name: "", last_name: "", experience: "1-3" },
        { cookie, base },
      );
      expect(res.status).toBe(302);
      const info = (await (await get("/api/user/info", { cookie, base })).json()) as { data: { id: number } };
      members.push({ cookie, id: info.data.id });
    }
    const [alice, bob] = members as [{ cookie: string; id: number }, { cookie: string; id: number }];
    const stream = await openSse(base, "/api/portal/events", { cookie: bob.cookie });
    try {
      await stream.next((e) => e.event === "ready");
      const send = async (body: string) =>
        expect(
          (await postForm(`/u/${bob.id}`, { intent: "message", body }, { cookie: alice.cookie, base })).status,
        ).toBe(303);
      await send("before the cut");
      await stream.next((e) => e.event === "message", 5_000);

      proxy.cut();
      await waitFor("the listener to see the cut", async () =>
        logged(server, "live listener lost its connection; reconnecting").length ? true : undefined,
      );
      // Raised while nobody listens: committed, announced to no one here.
      await send("during the cut");
      await new Promise((r) => setTimeout(r, 500));
      expect(stream.events.filter((e) => e.event === "message")).toHaveLength(1);

      proxy.restore();
      const missed = await stream.next((e) => e.event === "message", 20_000);
      expect(JSON.parse(missed.data)).toMatchObject({ mine: false });
      expect(logged(server, "live listener reconnected").length).toBeGreaterThan(0);
      // And live again afterwards.
      await send("after the restore");
      await stream.next((e) => e.event === "message", 5_000);
      expect(isRunning(server)).toBe(true);
      const ids = stream.events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      stream.close();
    }
    expect(await server.stop()).toBe(0);
  });
});
