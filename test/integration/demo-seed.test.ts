import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// A fresh install in demo mode opens on a small, marked demo community; restarts do not seed again;
// the demo grades stay out of the public grade log.
const dir = mkdtempSync(path.join(os.tmpdir(), "grader-seed-"));
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function traders(base: string, cookie: string) {
  const res = await get("/api/portal/market/traders?page_size=50", { base, cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: number; username: string | null; tier: string | null }[] }).data;
}

describe("demo community at start", () => {
  it("seeds a dozen graded demo traders once, marked demo and out of the grade log", async () => {
    const db = await ownDatabase();
    const env = { SEED_DEMO: "1", DATA_DIR: dir, ...db };
    server = await startServer(env);
    expect(server.logs.join("\n")).toContain("demo community seeded");
    const { cookie } = await signUp({ base: server.url });
    const first = await traders(server.url, cookie);
    expect(first).toHaveLength(12);
    expect(first.every((t) => t.username?.endsWith("_demo"))).toBe(true);
    const feed = await (await get("/community", { base: server.url, cookie })).text();
    expect(feed).toMatch(/_demo/);
    // Clubs to find and join, owned by a trader whose grade lets them create one; their posts stay
    // in the club, out of the community feed.
    const clubs = (await (await get("/api/portal/clubs", { base: server.url, cookie })).json()) as {
      data: { slug: string; name: string; member_count: number; join_policy: string; owner: { username: string } }[];
    };
    const desk = clubs.data.find((c) => c.slug === "us-stocks-desk");
    expect(desk, JSON.stringify(clubs.data)).toMatchObject({ member_count: 6, join_policy: "open" });
    expect(["Gold", "Master", "Legend"]).toContain(first.find((t) => t.username === desk!.owner.username)!.tier);
    expect(feed).not.toContain("Post your week");
    const deskPage = await (await get("/clubs/us-stocks-desk", { base: server.url, cookie })).text();
    expect(deskPage).toContain("US Stocks Desk");
    // Traders who share trades live: a follower is offered their alerts.
    const dex = first.find((t) => t.username === "dex_daytrades_demo")!;
    expect((await postForm(`/u/${dex.id}`, { intent: "follow" }, { base: server.url, cookie })).status).toBe(303);
    expect(await (await get(`/u/${dex.id}`, { base: server.url, cookie })).text()).toContain("Get live trade alerts");
    // A seeded trader's grade is whole enough to share: the share page and its card answer.
    const seeded = first[0]!;
    const share = await get(`/share/open_graph/${seeded.id}`, { base: server.url });
    expect(share.status).toBe(200);
    const page = await share.text();
    expect(page).toMatch(/is graded (Bronze|Silver|Gold|Master|Legend) on Grader/);
    expect(page).toContain("Demo data");
    const card = page.match(/\/cards\/[0-9a-f]{64}\.png/)?.[0];
    expect((await get(card!, { base: server.url })).headers.get("content-type")).toBe("image/png");
    const log = (await (await get("/api/grades/log", { base: server.url })).json()) as { data: unknown[] };
    expect(log.data).toEqual([]);

    // Every seeded trader's code answers on /verify, as what it is: a demo grade.
    for (const t of first) {
      const og = await (await get(`/share/open_graph/${t.id}`, { base: server.url })).text();
      const code = og.match(/GR-[0-9A-Z]{4}-[0-9A-Z]{4}/)?.[0];
      expect(code, `code of ${t.username}`).toBeTruthy();
      const verify = await get(`/verify/${code}`, { base: server.url });
      expect(verify.status, code).toBe(200);
      const html = await verify.text();
      expect(html).toContain("Demo data");
      expect(html).toContain("kept out of the public grade log");
    }
    await server.stop();

    // A restart on the same database: nothing seeded again, the signed-up user still there.
    server = await startServer(env);
    expect(server.logs.join("\n")).not.toContain("demo community seeded");
    expect(await traders(server.url, cookie)).toHaveLength(12);
    await server.stop();
    server = undefined;

    // The seeded grades are demo grades.
    if (db.DATABASE_URL) process.env.DATABASE_URL = db.DATABASE_URL;
    else process.env.DATA_DIR = dir;
    const { getDb, closeDb } = await import("~/server/platform/db.server");
    const dbh = await getDb();
    const rows = await dbh
      .selectFrom("evaluations")
      .select([
        "user_id",
        "demo",
        "engine_version",
        "tier",
        "score",
        "result",
        "verification_code",
        "history_digest",
        "created_at",
      ])
      .orderBy("user_id")
      .execute();
    const { buildUserLedger } = await import("~/server/grades/ledger.server");
    const { ENGINE_VERSION } = await import("~/grading");
    // Each grade is the engine's, from the history its trader holds: trades stored, and the
    // digest of the ledger built from them now is the one the grade was made of.
    for (const r of rows) {
      const built = await buildUserLedger(r.user_id, new Date());
      expect(built.ledger.trades.length, `trades of ${r.user_id}`).toBeGreaterThan(0);
      expect(built.digest, `ledger of ${r.user_id}`).toBe(r.history_digest);
    }
    // Holdings are marked at the price source's last final price, and every trade was filled near
    // the price source's close of its day.
    const { lastFinalDay } = await import("~/server/grades/prices.server");
    const { simulatedAsTraded, simulatedCoinPrice, isTradingDay } = await import("../mocks/prices");
    const { coinInstrumentForSymbol, addDays } = await import("~/sources/prices.server");
    const sourcePrice = (symbol: string, day: string) => {
      const coin = coinInstrumentForSymbol(symbol);
      return coin
        ? simulatedCoinPrice(coin.slice("coin:".length), new Date(`${day}T23:59:59.999Z`))
        : simulatedAsTraded(symbol, day);
    };
    let positions = 0;
    for (const r of rows) {
      const result = (typeof r.result === "string" ? JSON.parse(r.result) : r.result) as {
        positions: { symbol: string; mark: number; avgCost: number }[];
      };
      // The last final day when the grade was made (a run crossing midnight UTC moves it); a stock
      // is marked at its last close on or before it, so a weekend or holiday steps back.
      const markDay = lastFinalDay(new Date(r.created_at).getTime());
      for (const p of result.positions) {
        positions++;
        let day = markDay;
        if (!coinInstrumentForSymbol(p.symbol)) while (!isTradingDay(day)) day = addDays(day, -1);
        const price = sourcePrice(p.symbol, day)!;
        expect(Math.abs(p.mark / price - 1), `${p.symbol} mark ${p.mark} vs ${price}`).toBeLessThan(0.002);
      }
    }
    expect(positions).toBeGreaterThan(0);
    const trades = await dbh.selectFrom("trades").select(["symbol", "price", "time"]).execute();
    for (const t of trades) {
      const day = new Date(t.time).toISOString().slice(0, 10);
      const price = sourcePrice(t.symbol, day)!;
      expect(Math.abs(t.price / price - 1), `${t.symbol} on ${day}: ${t.price} vs ${price}`).toBeLessThan(0.02);
    }
    // Posts: none with "#<number>" filler, none twice.
    const posts = await dbh.selectFrom("posts").select(["body", "parent_id"]).execute();
    const top = posts.filter((p) => p.parent_id === null).map((p) => p.body);
    expect(top.length).toBeGreaterThan(20);
    expect(top.filter((b) => /#\d+/.test(b))).toEqual([]);
    expect(new Set(top).size).toBe(top.length);
    expect(posts.some((p) => p.parent_id !== null)).toBe(true);
    await closeDb();
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.demo && r.engine_version === ENGINE_VERSION)).toBe(true);
    // Scores come from the histories: not a staircase of equal steps.
    const scores = rows.map((r) => Number(r.score)).sort((a, b) => b - a);
    const steps = scores.slice(1).map((s, i) => Math.round((scores[i]! - s) * 10));
    expect(new Set(steps).size).toBeGreaterThan(3);
    // Each seeded tier is the one its score earns (the product's bounds, not a fifth of 100 each).
    const { tierOf } = await import("~/lib/vocabulary");
    expect(rows.map((r) => r.tier)).toEqual(rows.map((r) => tierOf(Number(r.score))));
    // …and its overall stars are the tier's rank, as the engine gives them.
    const { tierStars } = await import("~/grading/score");
    const overall = (r: (typeof rows)[number]) =>
      (typeof r.result === "string" ? JSON.parse(r.result) : r.result).stars.overall as number;
    expect(rows.map(overall)).toEqual(rows.map((r) => tierStars(tierOf(Number(r.score)))));
  }, 180_000);

  it("the test server itself starts empty (SEED_DEMO=0)", async () => {
    // The shared suite server: no demo trader among the leaderboard's names.
    const { cookie } = await signUp();
    const res = await get("/api/portal/market/traders?page_size=50", { cookie });
    expect(await res.text()).not.toContain("_demo");
  });
});
