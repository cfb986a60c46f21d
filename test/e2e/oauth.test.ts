import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, skipE2E, seriousViolations } from "../support/browser";
import { baseUrl } from "../support/http";

// Google and Apple sign-in in a real browser, in demo mode (no provider credentials): the browser
// goes through the local stand-in consent pages; the server's real sign-in code talks to msw.

async function heading(page: Page) {
  return (await page.locator("h1").first().textContent())?.trim() ?? "";
}

describe.skipIf(skipE2E)("provider sign-in in a real browser (demo mode)", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const js of [true, false]) {
    it(`signs in with Google through the demo consent page with JavaScript ${js ? "on" : "off"}`, async () => {
      const ctx = await browser.newContext({ javaScriptEnabled: js, reducedMotion: "reduce" });
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(baseUrl() + "/signin");
      await page.getByRole("link", { name: "Continue with Google" }).click();
      await page.waitForURL(/\/oauth\/demo\/google\?/);
      expect(await heading(page)).toBe("Sign in with Google");
      expect(await page.getByText("Demo data").count()).toBe(1);
      if (js) expect(await seriousViolations(page)).toEqual([]);

      const email = `e2e-google-${js ? "js" : "nojs"}-${Date.now()}@example.com`;
      await page.fill("#f-email", email);
      await page.fill("#f-name", "Katherine Johnson");
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await page.waitForURL(/\/user-questions$/);
      expect(await heading(page)).toBe("Tell us about you");
      const cookies = await ctx.cookies(baseUrl());
      expect(cookies.find((c) => c.name === "grader_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });

      // The same Google account later: straight to the community.
      await ctx.clearCookies();
      await page.goto(baseUrl() + "/signin");
      await page.getByRole("link", { name: "Continue with Google" }).click();
      await page.waitForURL(/\/oauth\/demo\/google\?/);
      await page.fill("#f-email", email);
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await page.waitForURL(/\/community$/);
      expect(await heading(page)).toBe("Community");
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }

  it("signs in with the preset demo Google identity", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/oauth/google-login");
    await page.getByRole("button", { name: /Continue as Demo Google User \(demo\.google@example\.com\)/ }).click();
    await page.waitForURL(/\/(user-questions|community)$/);
    await ctx.close();
  });

  it("shows a clear message on /signin when the user cancels at Google", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/signin");
    await page.getByRole("link", { name: "Continue with Google" }).click();
    await page.waitForURL(/\/oauth\/demo\/google\?/);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL(/\/signin\?error=google-cancelled$/);
    expect(await page.getByRole("alert").textContent()).toBe("Google sign-in was cancelled.");
    await ctx.close();
  });

  it("signs in with Apple: the demo page form-posts a signed id_token to the callback (JavaScript off)", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/signin");
    await page.getByRole("link", { name: "Continue with Apple" }).click();
    await page.waitForURL(/\/oauth\/demo\/apple\?/);
    expect(await heading(page)).toBe("Sign in with Apple");
    const email = `e2e-apple-${Date.now()}@example.com`;
    await page.fill("#f-email", email);
    await page.getByRole("button", { name: "Use this Apple ID" }).click();
    await page.getByRole("button", { name: `Continue as Demo Apple User (${email})` }).click();
    await page.waitForURL(/\/user-questions$/);
    expect(await heading(page)).toBe("Tell us about you");
    await ctx.close();
  });
});
