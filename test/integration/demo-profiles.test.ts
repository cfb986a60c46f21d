import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, signUp } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Every seeded demo trader's public pages answer, whoever looks. The seed once wrote a partial grade
// (no curve, positions or insights) and /u/{id}/stats answered 500 for each of them; now each grade
// is the engine's, from the history the trader holds, and their trades and holdings show.
const TABS = ["", "/posts", "/replies", "/stats", "/holdings", "/transactions", "/history"];

let server: RunningServer;
let traders: { id: number; username: string | null }[];
let viewer: string;

beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "1", ...(await ownDatabase()) });
  viewer = (await signUp({ base: server.url })).cookie;
  const res = await get("/api/portal/market/traders?page_size=50", { base: server.url, cookie: viewer });
  traders = ((await res.json()) as { data: { id: number; username: string | null }[] }).data;
}, 180_000);
afterAll(() => server?.stop());

describe("seeded demo traders' public pages", () => {
  it("answer 200 with the trader's page for a signed-in viewer, every tab", async () => {
    expect(traders).toHaveLength(12);
    for (const trader of traders) {
      for (const tab of TABS) {
        const path = `/u/${trader.id}${tab}`;
        const res = await get(path, { base: server.url, cookie: viewer });
        expect(res.status, path).toBe(200);
        const html = await res.text();
        expect(html, path).toContain(trader.username!);
        // Their trades show, from the account they hold (others see its kind, never its name).
        if (tab === "/transactions") expect(html, path).toContain("Broker account");
        if (tab === "/stats") {
          // The grade is shown (its tier), and no dollar figure of a trader who hides them.
          expect(html, path).toMatch(/Bronze|Silver|Gold|Master|Legend/);
          expect(html, path).not.toContain("Something went wrong");
          expect(html, path).not.toMatch(/>[^<]*(NaN|undefined)[^<]*</);
        }
      }
    }
  });

  it("send an anonymous visitor to sign in and back (DECISIONS 3), never an error; the share page answers", async () => {
    for (const trader of traders) {
      for (const tab of TABS) {
        const path = `/u/${trader.id}${tab}`;
        const res = await get(path, { base: server.url });
        expect(res.status, path).toBe(302);
        expect(res.headers.get("location"), path).toBe(`/signin?next=${encodeURIComponent(path)}`);
      }
      const share = await get(`/share/open_graph/${trader.id}`, { base: server.url });
      expect(share.status).toBe(200);
      expect(await share.text()).toMatch(/is graded (Bronze|Silver|Gold|Master|Legend) on Grader/);
    }
  });
});
