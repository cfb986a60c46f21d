import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signedInPage, skipE2E } from "../support/browser";
import { baseUrl } from "../support/http";

// The installable app in Chromium on a phone-sized screen: the service worker takes the whole
// site and answers a navigation without network with the offline page; push is chosen per kind
// with the plain form (JavaScript off) and turned on per device with JavaScript.
describe.skipIf(skipE2E)("the installable app", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("registers its service worker for the whole site and shows the offline page without network", async () => {
    const { ctx, page } = await signedInPage(browser, true, { width: 375, height: 740 });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(baseUrl() + "/user/settings/notifications");
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${baseUrl()}/`);
    // Hydrated: the device's push switch replaces the no-JavaScript sentence.
    await page.getByRole("button", { name: "Turn on push on this device" }).waitFor();
    expect(await page.getByText("Push needs JavaScript in this browser").count()).toBe(0);
    await ctx.setOffline(true);
    await page.goto(baseUrl() + "/community");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    await ctx.setOffline(false);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("chooses a kind for push with JavaScript off, and says the device needs JavaScript", async () => {
    const { ctx, page } = await signedInPage(browser, false, { width: 375, height: 740 });
    await page.goto(baseUrl() + "/user/settings/notifications");
    await page.getByText("Push needs JavaScript in this browser").waitFor();
    const box = page.getByRole("checkbox", { name: "Push: New followers" });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Save notification settings" }).click();
    await page.getByText("Your notification settings are saved.").waitFor();
    await page.goto(baseUrl() + "/user/settings/notifications");
    expect(await page.getByRole("checkbox", { name: "Push: New followers" }).isChecked()).toBe(true);
    // Nothing sticks out sideways at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await ctx.close();
  });
});
