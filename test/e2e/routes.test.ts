import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, postForm, signUp } from "../support/http";
import { memberRoutes, publicRoutes, withSelf } from "../support/routes";

async function mainHeading(page: Page) {
  return (await page.locator("h1").first().textContent())?.trim() ?? "";
}

function expectHeading(text: string, heading: RegExp | string) {
  if (typeof heading === "string") expect(text).toBe(heading);
  else expect(text).toMatch(heading);
}

describe.skipIf(skipE2E)("every route in a real browser", () => {
  let browser: Browser;
  let cookieValue: string;
  let selfId: number;
  beforeAll(async () => {
    browser = await launchBrowser();
    const { cookie } = await signUp();
    cookieValue = cookie.split("=")[1]!;
    selfId = ((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function context(js: boolean, signedIn: boolean): Promise<BrowserContext> {
    const ctx = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 800 } });
    if (signedIn) await ctx.addCookies([{ name: "grader_session", value: cookieValue, url: baseUrl() }]);
    return ctx;
  }

  for (const js of [true, false]) {
    it(`visits every public route with JavaScript ${js ? "on" : "off"}`, async () => {
      const ctx = await context(js, false);
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      for (const route of publicRoutes) {
        const res = await page.goto(baseUrl() + route.path);
        expect(res?.status(), route.path).toBe(route.status ?? 200);
        expectHeading(await mainHeading(page), route.heading);
      }
      expect(errors).toEqual([]);
      await ctx.close();
    });

    // In two halves, each well inside the browser tests' time limit on a loaded machine.
    const half = Math.ceil(memberRoutes.length / 2);
    for (const [part, routes] of [memberRoutes.slice(0, half), memberRoutes.slice(half)].entries()) {
      it(`visits every member route with JavaScript ${js ? "on" : "off"} (part ${part + 1} of 2)`, async () => {
        const ctx = await context(js, true);
        const page = await ctx.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        for (const route of routes) {
          const res = await page.goto(baseUrl() + withSelf(route.path, selfId));
          expect(res?.status(), route.path).toBe(route.status ?? 200);
          expectHeading(await mainHeading(page), route.heading);
        }
        expect(errors).toEqual([]);
        await ctx.close();
      });
    }
  }

  it.each([false, true])(
    "fits a phone's width on every route: no sideways scrolling at 375 px (JavaScript %s)",
    async (js) => {
      // A user with no name yet: the profile's heading is the email address, long and without a break.
      const { cookie } = await signUp({
        email: `phone${Date.now()}${process.pid}${js ? 1 : 0}tradingaccountholder@example.com`,
      });
      const ctx = await sessionContext(browser, cookie, {
        javaScriptEnabled: js,
        viewport: { width: 375, height: 812 },
      });
      const page = await ctx.newPage();
      const wide: string[] = [];
      for (const route of [...publicRoutes, ...memberRoutes]) {
        await page.goto(baseUrl() + withSelf(route.path, selfId));
        const { scroll, client } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        if (scroll > client) wide.push(`${route.path}: ${scroll} px`);
      }
      expect(wide).toEqual([]);
      await ctx.close();
    },
  );

  it("keeps 60-letter names, previews and posts inside the page, on a phone and a desktop", async () => {
    const longUser = async (letter: string) => {
      const { cookie } = await signUp();
      const username = `${letter.repeat(20)}${Date.now().toString(36)}`.slice(0, 30).toLowerCase();
      await postForm(
        "/user-questions",
        { username, first_name: letter.repeat(60), last_name: "W".repeat(60), experience: "1-3" },
        { cookie },
      );
      const id = ((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id;
      return { cookie, id, username };
    };
    const a = await longUser("A");
    const b = await longUser("B");
    await postForm("/community", { body: "X".repeat(300) }, { cookie: a.cookie });
    await postForm(`/u/${b.id}`, { intent: "message", body: "M".repeat(500) }, { cookie: a.cookie });
    const wide: string[] = [];
    for (const width of [375, 1280]) {
      const ctx = await sessionContext(browser, a.cookie, { viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      for (const path of [
        "/community",
        `/u/${a.id}`,
        "/profile/posts",
        "/messages",
        `/search?keyword=${b.username.slice(0, 10)}`,
        "/pricing",
        "/share",
      ]) {
        await page.goto(baseUrl() + path);
        const { scroll, client } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        if (scroll > client) wide.push(`${width}px ${path}: ${scroll} px`);
      }
      await ctx.close();
    }
    expect(wide).toEqual([]);
  });

  it("ends a long name in the header with an ellipsis, not a letter cut in half", async () => {
    const { cookie } = await signUp();
    const username = `ellipsis${Date.now().toString(36)}`.slice(0, 30);
    await postForm(
      "/user-questions",
      { username, first_name: "A".repeat(60), last_name: "W".repeat(60), experience: "1-3" },
      { cookie },
    );
    const ctx = await sessionContext(browser, cookie, { viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/community");
    const name = await page.locator(".user-menu summary > span:last-child").evaluate((el) => ({
      overflows: el.scrollWidth > el.clientWidth,
      // text-overflow draws its ellipsis only in a block container: a flex box clips the text bare.
      display: getComputedStyle(el).display,
      ellipsis: getComputedStyle(el).textOverflow,
    }));
    expect(name).toEqual({ overflows: true, display: "block", ellipsis: "ellipsis" });
    await ctx.close();
  });

  it("has no serious or critical axe violations on the landing and sign-in pages", async () => {
    // Reduced motion: contrast is judged on the settled page, not mid-animation.
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const page = await ctx.newPage();
    for (const path of ["/", "/signin"]) {
      await page.goto(baseUrl() + path);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await ctx.close();
  });

  it("opens the mobile menu without JavaScript and follows the landing anchors", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/blogs");
    expect(await page.locator(".mobile-menu").isVisible()).toBe(false);
    await page.locator(".hamburger summary").click();
    await page.locator(".mobile-menu a", { hasText: "Roadmap" }).click();
    await page.waitForURL(/\/#roadmap$/);
    expect(await page.locator("#roadmap h2").textContent()).toBe("Roadmap");
    await ctx.close();
  });

  it("switches the landing to the mobile variant by width once JavaScript runs", async () => {
    const ctx = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/");
    await page.locator('[data-variant="mobile"]').waitFor();
    await ctx.close();
  });

  for (const js of [true, false]) {
    it(`signs up, onboards, signs out and signs in with next, JavaScript ${js ? "on" : "off"}`, async () => {
      const ctx = await context(js, false);
      const page = await ctx.newPage();
      await page.goto(baseUrl() + "/signup");
      const email = `e2e-${js ? "js" : "nojs"}-${Date.now()}@example.com`;
      await page.fill("#f-email", email);
      await page.fill("#f-password", "correct horse battery");
      await page.click("form.card button[type=submit]");
      await page.waitForURL(/\/user-questions$/);
      await page.fill("#f-username", `e2e_${Date.now().toString(36)}`);
      await page.fill("#f-first_name", "Edith");
      await page.check("input[value=crypto]");
      await page.selectOption("#f-experience", "1-3");
      await page.click("form.card button[type=submit]");
      await page.waitForURL(/\/community$/);
      await page.getByRole("heading", { level: 1, name: "Community" }).waitFor();
      await page.locator(".user-menu summary").click();
      await page.locator(".menu-button", { hasText: "Logout" }).click();
      await page.waitForURL(/\/signin$/);
      await page.goto(baseUrl() + "/signin?next=%2Fprofile%2Fstats");
      await page.fill("#f-email", email);
      await page.fill("#f-password", "correct horse battery");
      await page.click("form.card button[type=submit]");
      await page.waitForURL(/\/profile\/stats$/);
      await page.locator(".profile-head h1", { hasText: "Edith" }).waitFor();
      await ctx.close();
    });
  }

  it("shows the sign-in toasts with JavaScript on", async () => {
    const ctx = await context(true, false);
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/signin");
    await page.fill("#f-email", "nobody-here@example.com");
    await page.fill("#f-password", "wrong password");
    await page.click("form.card button[type=submit]");
    await page.getByText("Failed to log in!").waitFor();
    expect(await page.locator(".form-error").textContent()).toBe("Wrong email or password.");
    await ctx.close();
  });
});
