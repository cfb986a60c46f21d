import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, postForm, signUp } from "../support/http";

// Trader clubs (issue 34 point 4) as a new user meets them without JavaScript: a Gold trader
// creates a club on a phone-sized screen, another trader finds it, joins and posts to it on a
// desktop, and the owner reads the post. Grades are written in process into the server's database.
const { getDb } = await import("~/server/platform/db.server");

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;

async function trader(first: string) {
  const { cookie } = await signUp();
  const username = `k${run}_${seq++}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: first, last_name: `Club${run}`, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id };
}

async function gold(userId: number) {
  const db = await getDb();
  const e = await db
    .insertInto("evaluations")
    .values({
      user_id: userId,
      engine_version: "test",
      ledger_digest: "x",
      tier: "Gold",
      score: 68,
      percentile: null,
      verification_code: `GR-CLE${userId}-${seq++}`,
      result: JSON.stringify({ stars: { overall: 3 } }),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("users").set({ current_evaluation_id: e.id }).where("id", "=", userId).execute();
}

describe.skipIf(skipE2E)("clubs without JavaScript", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a club is created on a phone, then joined and posted to on a desktop, all with plain forms", async () => {
    const owner = await trader("Olive");
    await gold(owner.id);
    const name = `Night Owls ${run}`;

    const phone = await sessionContext(browser, owner.cookie, {
      javaScriptEnabled: false,
      viewport: { width: 375, height: 740 },
    });
    const op = await phone.newPage();
    op.setDefaultTimeout(10_000);
    await op.goto(baseUrl() + "/community");
    await op.getByRole("link", { name: "Clubs" }).first().click();
    await expect.poll(() => op.getByRole("heading", { level: 1 }).textContent()).toBe("Clubs");
    await op.getByRole("link", { name: "Create a club" }).click();
    // A refused form keeps what was typed and says why.
    await op.getByLabel("Name").fill("ab");
    await op.getByLabel("Description").fill("Late-session futures and crypto, verified traders only.");
    await op.getByRole("button", { name: "Create the club" }).click();
    expect(await op.locator(".field-error").first().textContent()).toMatch(/at least 3 characters/);
    expect(await op.getByLabel("Description").inputValue()).toBe(
      "Late-session futures and crypto, verified traders only.",
    );
    await op.getByLabel("Name").fill(name);
    await op.getByLabel("Markets").fill("ES futures, BTC");
    await op.getByRole("button", { name: "Create the club" }).click();
    expect(await op.getByRole("heading", { level: 1 }).textContent()).toBe(name);
    expect(
      await op
        .getByRole("status")
        .filter({ hasText: /Your club is open/ })
        .count(),
    ).toBe(1);
    const clubUrl = op.url().replace(/\?.*$/, "");
    expect(clubUrl).toBe(`${baseUrl()}/clubs/night-owls-${run}`);

    const joiner = await trader("Jules");
    const desk = await sessionContext(browser, joiner.cookie, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const jp = await desk.newPage();
    jp.setDefaultTimeout(10_000);
    await jp.goto(baseUrl() + "/clubs");
    await jp.getByLabel("Search clubs").fill(`owls ${run}`);
    await jp.getByRole("button", { name: "Search" }).click();
    await jp.getByRole("link", { name }).click();
    expect(await jp.getByTestId("club-facts").textContent()).toMatch(/^Open · any trader can join · owner Olive/);
    await jp.getByRole("button", { name: "Join the club" }).click();
    expect(
      await jp
        .getByRole("status")
        .filter({ hasText: /Welcome: you are a member/ })
        .count(),
    ).toBe(1);
    const body = `First post in the club ${run}`;
    await jp.getByLabel("Write to the club").fill(body);
    await jp.getByRole("button", { name: "Post", exact: true }).click();
    expect(
      await jp
        .getByRole("status")
        .filter({ hasText: /Posted to the club/ })
        .count(),
    ).toBe(1);
    expect(await jp.locator(".post-card .post-body").first().textContent()).toBe(body);
    // The members tab names both, with the owner's verified grade.
    await jp.getByRole("link", { name: /^Members/ }).click();
    const members = jp.getByTestId("club-members");
    expect(await members.locator("tbody tr").count()).toBe(2);
    expect(await members.locator("tbody tr").first().textContent()).toMatch(/Olive.*Gold.*Owner/);

    // The owner sees the post in the club's feed, and not in the community's.
    await op.goto(clubUrl);
    expect(await op.locator(".post-card .post-body").first().textContent()).toBe(body);
    await op.goto(baseUrl() + "/community");
    expect(await op.getByText(body).count()).toBe(0);
    await phone.close();
    await desk.close();

    // Usable at 375 and 1280 px (nothing wider than the screen) and without serious accessibility
    // faults; measured with scripts on, as the measuring needs them.
    for (const width of [375, 1280]) {
      const ctx = await sessionContext(browser, owner.cookie, { viewport: { width, height: 800 } });
      const page = await ctx.newPage();
      // The pages hydrate: a script error on the client fails the test.
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const club = clubUrl.replace(baseUrl(), "");
      for (const path of ["/clubs", club, `${club}?tab=members`, `${club}?tab=alerts`]) {
        await page.goto(baseUrl() + path);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${path} at ${width}`,
        ).toBeLessThanOrEqual(width);
        expect(await seriousViolations(page), `${path} at ${width}`).toEqual([]);
      }
      expect(errors).toEqual([]);
      await ctx.close();
    }
  });
});

describe.skipIf(skipE2E)("clubs live with JavaScript", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A page of `cookie` at `path`, once its event stream is open; counts its full loads after that. */
  async function openLive(cookie: string, path: string) {
    const ctx = await sessionContext(browser, cookie, { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const streamOpen = page.waitForResponse((r) => r.url().endsWith("/api/portal/events") && r.status() === 200);
    await page.goto(baseUrl() + path);
    await streamOpen;
    const loads = { count: 0 };
    page.on("load", () => loads.count++);
    return { ctx, page, errors, loads };
  }

  it("a post by one member appears in another's open club feed, and a join in the members tab, without a reload", async () => {
    const owner = await trader("Opal");
    await gold(owner.id);
    const created = await postForm(
      "/clubs/new",
      {
        name: `Live Wire ${run}`,
        description: "Watching the tape together, live.",
        markets: "US",
        min_tier: "",
        join_policy: "open",
      },
      { cookie: owner.cookie },
    );
    expect(created.status).toBe(303);
    const path = created.headers.get("location")!.replace(/\?.*$/, "");
    const member = await trader("Mika");
    expect((await postForm(path, { intent: "join" }, { cookie: member.cookie })).status).toBe(303);

    const reader = await openLive(owner.cookie, path);
    const writer = await openLive(member.cookie, path);
    const body = `Live in the club ${run}`;
    await writer.page.getByLabel("Write to the club").fill(body);
    await writer.page.getByRole("button", { name: "Post", exact: true }).click();
    // On the owner's open page, well under the 15 s a poll would take, and with no reload.
    await expect
      .poll(() => reader.page.locator(".post-card .post-body").first().textContent(), { timeout: 5_000 })
      .toBe(body);
    expect(reader.loads.count).toBe(0);

    // A newcomer joining shows in the members tab someone has open.
    await reader.page.getByRole("link", { name: /^Members/ }).click();
    await expect.poll(() => reader.page.getByTestId("club-members").locator("tbody tr").count()).toBe(2);
    const newcomer = await trader("Nell");
    expect((await postForm(path, { intent: "join" }, { cookie: newcomer.cookie })).status).toBe(303);
    await expect
      .poll(() => reader.page.getByTestId("club-members").locator("tbody tr").count(), { timeout: 5_000 })
      .toBe(3);
    expect(reader.loads.count).toBe(0);
    expect([...reader.errors, ...writer.errors]).toEqual([]);
    await reader.ctx.close();
    await writer.ctx.close();
  });

  it("a live trade alert shows as a toast in the bell's words, linking to the trader", async () => {
    const { raiseLive } = await import("~/server/platform/live.server");
    const fan = await trader("Fay");
    const live = await openLive(fan.cookie, "/clubs");
    const db = await getDb();
    await db.transaction().execute((trx) =>
      raiseLive(trx, fan.id, {
        kind: "trade_alert",
        data: {
          alert_id: `9${seq++}`,
          trader_id: 4242,
          symbol: "AAPL",
          side: "buy",
          tier: "Gold",
          share: 0.05,
          quantity: null,
          traded_at: new Date().toISOString(),
          trader_name: "Ann Lee",
        },
      }),
    );
    const toast = live.page.getByRole("link", { name: "Ann Lee bought AAPL · 5% of the portfolio · Gold" });
    await expect.poll(() => toast.count(), { timeout: 5_000 }).toBe(1);
    expect(await toast.getAttribute("href")).toBe("/u/4242/transactions");
    expect(live.errors).toEqual([]);
    await live.ctx.close();
  });
});
