import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signedInPage, skipE2E } from "../support/browser";
import { baseUrl } from "../support/http";

// A 2×3 PNG.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEJMCJzAE0SA/3Z0O4QAAAAAElFTkSuQmCC",
  "base64",
);

describe.skipIf(skipE2E)("settings avatar and the verification banner in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const js of [true, false]) {
    it(`uploads and removes the avatar with feedback in the Avatar card (JavaScript ${js ? "on" : "off"})`, async () => {
      const { ctx, page } = await signedInPage(browser, js);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(baseUrl() + "/user/settings");
      const card = page.locator("form", { has: page.locator("#f-avatar") });
      // With JavaScript, wait until React owns the form, or the click is a plain (no-JS) post.
      if (js)
        await page.waitForFunction(() =>
          Object.keys(document.querySelector("#f-avatar")?.closest("form") ?? {}).some((k) =>
            k.startsWith("__reactProps"),
          ),
        );
      await page.setInputFiles("#f-avatar", { name: "me.png", mimeType: "image/png", buffer: png });
      await card.getByRole("button", { name: "Upload avatar" }).click();
      await card.getByRole("status").filter({ hasText: "Your avatar is updated." }).waitFor();
      // Post, redirect, get: the page's address names what was done, never the index route's ?index.
      expect(new URL(page.url()).search).toBe("?done=avatar-updated");
      // The file is stored: the input no longer names it, and nothing is said in the profile form.
      await expect
        .poll(() => page.locator("#f-avatar").evaluate((el) => (el as HTMLInputElement).files?.length ?? 0), {
          timeout: 3000,
        })
        .toBe(0);
      expect(await page.getByText("Your settings are saved.").count()).toBe(0);
      await card.getByRole("button", { name: "Remove avatar" }).click();
      await card.getByRole("status").filter({ hasText: "Your avatar is removed." }).waitFor();
      await page.getByRole("button", { name: "Remove avatar" }).waitFor({ state: "detached", timeout: 5000 });
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }

  for (const js of [true, false]) {
    it(`resends the verification link from the banner and comes back to the page (JavaScript ${js ? "on" : "off"})`, async () => {
      const { ctx, page } = await signedInPage(browser, js);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(baseUrl() + "/profile/stats");
      const banner = page.locator(".verify-banner");
      if (js)
        await page.waitForFunction(() =>
          Object.keys(document.querySelector(".verify-banner form") ?? {}).some((k) => k.startsWith("__reactProps")),
        );
      const entries = await page.evaluate(() => history.length);
      await banner.getByRole("button", { name: "Resend link" }).click();
      await banner.getByText("A new link is on its way.").waitFor();
      await page.waitForURL(/\/profile\/stats\?verification=sent$/);
      // With JavaScript the answer takes the page's place in the history; without, the browser adds the post's.
      if (js) expect(await page.evaluate(() => history.length)).toBe(entries);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }
});
