import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

// Notifications in a real browser: the bell's count refreshes by itself with JavaScript, an open
// conversation shows new messages without a reload, /notifications and marking read work without
// JavaScript; and the signed-in header (with the bell) fits a 375 px phone with nothing clipped.

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;

async function member(first = "Nora", last = "Notified") {
  const { cookie } = await signUp();
  const username = `n${run}_${seq++}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: first, last_name: last, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id, username };
}

async function unread(cookie: string): Promise<number> {
  const body = (await (await get("/api/portal/notifications?page_size=1", { cookie })).json()) as {
    meta: { unread: number };
  };
  return body.meta.unread;
}

/** Nothing sticks out sideways, and the element is wholly inside the viewport. */
async function fits(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel)!;
    const r = el.getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      left: r.left,
      right: r.right,
      width: r.width,
    };
  }, selector);
}

describe.skipIf(skipE2E)("notifications and the signed-in header in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("the bell's count follows new notifications without a reload (JavaScript on)", async () => {
    const me = await member();
    const other = await member("Fay", "Follower");
    const ctx = await sessionContext(browser, me.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/community");
    const bell = page.locator("a.bell");
    await expect.poll(() => bell.getAttribute("aria-label")).toBe("Notifications");
    expect(await page.locator("[data-testid=bell-count]").count()).toBe(0);
    expect((await postForm(`/u/${me.id}`, { intent: "follow" }, { cookie: other.cookie })).status).toBe(303);
    // The poll runs every 15 s: the count appears within one period, with no navigation.
    await page.locator("[data-testid=bell-count]").filter({ hasText: "1" }).waitFor({ timeout: 25_000 });
    expect(await bell.getAttribute("aria-label")).toBe("Notifications, 1 unread");
    expect(new URL(page.url()).pathname).toBe("/community");
    await ctx.close();
  });

  it("an open conversation shows a new message without a reload (JavaScript on)", async () => {
    const me = await member();
    const other = await member("Max", "Messenger");
    // Following the sender makes the conversation an accepted one at once (not a request).
    expect((await postForm(`/u/${other.id}`, { intent: "follow" }, { cookie: me.cookie })).status).toBe(303);
    const first = await postForm(`/u/${me.id}`, { intent: "message", body: "first message" }, { cookie: other.cookie });
    const location = first.headers.get("location")!;
    const ctx = await sessionContext(browser, me.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + location);
    await page.getByText("first message").waitFor();
    // Reading the conversation read its notification.
    await expect.poll(() => unread(me.cookie)).toBe(0);
    expect((await postForm(location, { body: `live ${run}` }, { cookie: other.cookie })).status).toBe(303);
    await page.getByText(`live ${run}`).waitFor({ timeout: 12_000 });
    expect(page.url()).toBe(baseUrl() + location);
    await ctx.close();
  });

  it("lists notifications and marks one and all read without JavaScript", async () => {
    const me = await member();
    const a = await member("Ann", "Admirer");
    const b = await member("Bob", "Booster");
    await postForm(`/u/${me.id}`, { intent: "follow" }, { cookie: a.cookie });
    await postForm(`/u/${me.id}`, { intent: "follow" }, { cookie: b.cookie });
    const ctx = await sessionContext(browser, me.cookie, {
      javaScriptEnabled: false,
      viewport: { width: 375, height: 800 },
    });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/community");
    expect(await page.locator("a.bell").getAttribute("aria-label")).toBe("Notifications, 2 unread");
    await page.locator("a.bell").click();
    await page.waitForURL(/\/notifications$/);
    const items = page.locator("li.notification");
    expect(await items.allInnerTexts()).toEqual([
      expect.stringContaining("Bob Booster started following you"),
      expect.stringContaining("Ann Admirer started following you"),
    ]);
    expect(await page.locator("li.notification.unread").count()).toBe(2);
    await page.getByRole("button", { name: "Mark as read: Bob Booster started following you" }).click();
    await page.waitForURL(/\/notifications$/);
    expect(await page.locator("li.notification.unread").count()).toBe(1);
    expect(await page.locator("li.notification.unread").innerText()).toContain("Ann Admirer");
    expect(await page.locator("a.bell").getAttribute("aria-label")).toBe("Notifications, 1 unread");
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await page.waitForURL(/\/notifications$/);
    expect(await page.locator("li.notification.unread").count()).toBe(0);
    expect(await page.locator("a.bell").getAttribute("aria-label")).toBe("Notifications");
    // Opening one goes where it leads (the follower's profile).
    await page.getByRole("button", { name: "Ann Admirer started following you" }).click();
    await page.waitForURL(new RegExp(`/u/${a.id}$`));
    await ctx.close();
  });

  for (const width of [375, 1280]) {
    it(`the signed-in header fits ${width} px: no sideways scroll, the avatar and its menu reachable`, async () => {
      // The widest case: a linked account (the "Refresh Grade" label), a grade, and unread notifications.
      const me = await member("Maximilian", "Longname-Wolfeschlegel");
      const fan = await member();
      const res = await fetch(baseUrl() + "/api/finance/plaid/exchange-public-token", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: me.cookie },
        body: JSON.stringify({ public_token: `public-sandbox-user_good_${run}${seq}` }),
      });
      expect(res.status).toBeLessThan(300);
      await waitForImports(me.cookie);
      await postForm(`/u/${me.id}`, { intent: "follow" }, { cookie: fan.cookie });
      for (const js of [true, false]) {
        const ctx = await sessionContext(browser, me.cookie, {
          javaScriptEnabled: js,
          viewport: { width, height: 800 },
        });
        const page = await ctx.newPage();
        await page.goto(baseUrl() + "/community");
        await page.getByRole("link", { name: "Refresh Grade" }).waitFor();
        const avatar = await fits(page, ".user-menu summary");
        expect(avatar.scrollWidth, `page width at ${width} px (JavaScript ${js ? "on" : "off"})`).toBeLessThanOrEqual(
          width,
        );
        expect(avatar.left).toBeGreaterThanOrEqual(0);
        expect(avatar.right).toBeLessThanOrEqual(width);
        const bell = await fits(page, "a.bell");
        expect(bell.right).toBeLessThanOrEqual(width);
        expect(bell.width).toBeGreaterThan(20);
        // The menu opens from the avatar and lies inside the viewport; its links work.
        await page.locator(".user-menu summary").click();
        const panel = await fits(page, ".user-menu .menu-panel");
        expect(panel.left).toBeGreaterThanOrEqual(0);
        expect(panel.right).toBeLessThanOrEqual(width);
        expect(panel.scrollWidth).toBeLessThanOrEqual(width);
        await page.getByRole("menuitem", { name: "Notifications" }).click();
        await page.waitForURL(/\/notifications$/);
        expect((await fits(page, "a.bell")).scrollWidth).toBeLessThanOrEqual(width);
        await ctx.close();
      }
    });
  }
});
