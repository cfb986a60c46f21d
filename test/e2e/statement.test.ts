import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";

// A statement uploaded in a real browser with JavaScript off (issue 33): the connect option on the
// account page → /link/statement → a bad file refused with its line → the template uploaded →
// the grade made in the background, "Self-reported" on the profile and on the verification page
// beside the card.

const TEMPLATE = path.resolve(import.meta.dirname, "../../public/statement-template.csv");

describe.skipIf(skipE2E)("a statement uploaded in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("uploads a CSV with JavaScript off and shows the grade as self-reported", async () => {
    const { cookie } = await signUp();
    const ctx = await sessionContext(browser, cookie, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    let page = await ctx.newPage();

    await page.goto(baseUrl() + "/profile/account");
    await page.getByRole("link", { name: "Upload a statement" }).first().click();
    await page.waitForURL(/\/link\/statement$/);
    await page.getByRole("heading", { level: 1, name: "Upload a statement" }).waitFor();

    await page.setInputFiles('input[name="file"]', {
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("date,type,symbol,quantity,price\n2024-01-02,buy,AAPL,1,ten\n"),
    });
    await page.getByRole("button", { name: "Upload and grade" }).click();
    await page.getByText("line 2: price is not a number").waitFor();

    await page.setInputFiles('input[name="file"]', TEMPLATE);
    await page.getByRole("button", { name: "Upload and grade" }).click();
    await page.waitForURL(/\/profile\/account(#imports)?$/, { timeout: 20_000 });
    expect(await page.textContent("main")).toContain("Statement (self-reported)");

    const [done] = await waitForImports(cookie, { timeoutMs: 60_000 });
    expect(done).toMatchObject({ state: "done", error: null });
    // Without JavaScript the account page refreshes itself while the import runs; that refresh
    // aborted the next navigation once (net::ERR_ABORTED). A fresh tab has no such timer.
    await page.close();
    page = await ctx.newPage();
    await page.goto(baseUrl() + "/profile");
    await expect.poll(async () => page.getByTestId("self-reported").first().textContent()).toBe("Self-reported");

    // The share page shows the card and says so; /verify names it self-reported beside the card.
    await page.goto(baseUrl() + "/share");
    await page.getByTestId("self-reported").first().waitFor();
    const card = page.locator('img[alt="Your performance card"]');
    expect(await card.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1200);
    const code = await page.evaluate(() => document.body.innerHTML.match(/GR-[A-Z0-9]{4}-[A-Z0-9]{4}/)?.[0] ?? null);
    if (code) {
      await page.goto(`${baseUrl()}/verify/${code}`);
      await page.getByRole("heading", { level: 1, name: "Self-reported evaluation" }).waitFor();
    }
    await ctx.close();
  }, 120_000);

  it("uploads with JavaScript on at 375 px: the page hydrates without an error and keeps its answers", async () => {
    const { cookie } = await signUp();
    const ctx = await sessionContext(browser, cookie, { viewport: { width: 375, height: 800 } });
    const page = await ctx.newPage();
    // The page once bundled the CSV parser, whose Node `Buffer` broke hydration in the browser.
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(baseUrl() + "/link/statement");
    await page.getByRole("heading", { level: 1, name: "Upload a statement" }).waitFor();
    expect(await page.textContent("main")).toContain("date, type, symbol, quantity, price");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.setInputFiles('input[name="file"]', {
      name: "bad.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("date,type,symbol,quantity,price\n2024-01-02,buy,AAPL,1,ten\n"),
    });
    await page.getByRole("button", { name: "Upload and grade" }).click();
    await page.getByText("line 2: price is not a number").waitFor();
    await page.setInputFiles('input[name="file"]', TEMPLATE);
    await page.getByRole("button", { name: "Upload and grade" }).click();
    await page.waitForURL(/\/profile\/account(#imports)?$/, { timeout: 20_000 });
    await page.getByText("Statement (self-reported)").first().waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});
