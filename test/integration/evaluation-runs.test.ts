import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// An evaluation runs as a job (issue 35, point 3; DECISIONS 174). This server renders one page at a
// time and refuses a page that waits more than 300 ms for its turn: an evaluation that held its
// render slot while it waited for the job would make every page around it a 503.
const RUN = Date.now().toString(36);

describe("an evaluation asked for through the JSON API", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      ...(process.env.DATABASE_URL ? await ownDatabase() : {}),
      MAX_CONCURRENT_RENDERS: "1",
      RENDER_QUEUE_WAIT_MS: "300",
      RENDER_QUEUE_MAX: "4",
      // The trader's own evaluation makes the first grade (no automatic one after the link).
      AUTO_GRADES_PER_DAY: "0",
      // A slow provider: the job's re-import takes seconds.
      SIM_DELAY_FACTOR: "5",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("waits for its job without a render slot, and the job has drawn the grade's cards", async () => {
    const { cookie } = await signUp({ base: server.url });
    await exchange(server.url, cookie, `user_good_${RUN}r`);
    await waitForImports(cookie, { base: server.url, timeoutMs: 90_000 });
    const answer = fetch(server.url + "/api/finance/plaid/evaluation", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: "{}",
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { data: Record<string, unknown> } }));
    let finished = false;
    void answer.finally(() => (finished = true));
    // While the call waits, pages render one after another, none refused.
    let pages = 0;
    let sawRunning = false;
    while (!finished) {
      const page = await get("/evaluate", { base: server.url, cookie });
      expect(page.status).toBe(200);
      sawRunning ||= (await page.text()).includes("Your evaluation is running.");
      pages++;
    }
    expect(sawRunning).toBe(true);
    expect(pages).toBeGreaterThan(3);
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ code: 200, tier: expect.any(String) });
    // Asked while nothing changed: the same grade, at once.
    const again = await fetch(server.url + "/api/finance/plaid/evaluation", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: "{}",
    });
    expect(((await again.json()) as { data: { code: number } }).data.code).toBe(2002);
    // The first viewer of either card finds it stored: the grade's job drew both.
    const me = await fetch(server.url + "/api/user/info", { headers: { cookie } });
    const id = ((await me.json()) as { data: { id: number } }).data.id;
    for (const format of ["link", "story"]) {
      const shared = await fetch(server.url + `/api/share/image/${id}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ format }),
      });
      expect(shared.status).toBe(200);
      expect(shared.headers.get("x-card-cache")).toBe("hit");
    }
  }, 180_000);
});
