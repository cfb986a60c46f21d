import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signedInPage as signedInPageFor, skipE2E, seriousViolations } from "../support/browser";
import { baseUrl } from "../support/http";

// Pricing → (demo) Stripe Checkout → /pay-result, in a real browser against the built server in
// Stripe demo mode: the stand-in checkout page, the signed webhook and the return page all run.
describe.skipIf(skipE2E)("pricing and checkout", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signedInPage = (js: boolean) => signedInPageFor(browser, js);

  async function triesOnPricing(page: Page) {
    await page.goto(baseUrl() + "/pricing");
    return Number(await page.getByTestId("tries-count").textContent());
  }

  async function pay(page: Page, card: string) {
    await page.fill("#card-number", card);
    await page.fill("#card-expiry", "12 / 34");
    await page.fill("#card-cvc", "123");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
  }

  it("the success card: pricing → demo checkout → /pay-result shows paid → the tries count went up", async () => {
    const { ctx, page } = await signedInPage(true);
    const before = await triesOnPricing(page);
    expect(before).toBe(3);
    await page.getByRole("button", { name: /^Buy Starter pass/ }).click();
    await page.waitForURL(/\/demo\/checkout\/cs_test_/);
    await page.getByRole("heading", { name: "Pay Grader" }).waitFor();
    expect(await page.getByText("$4.99").first().isVisible()).toBe(true);
    await pay(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/pay-result\?session_id=cs_test_/);
    await page.getByRole("heading", { name: "Payment successful" }).waitFor();
    expect(await page.getByTestId("tries-count").textContent()).toBe(String(before + 10));
    expect(await triesOnPricing(page)).toBe(before + 10);
    await ctx.close();
  });

  it("lines the plans' buy buttons up at 1280 px, though two of their labels wrap to two lines", async () => {
    const { ctx, page } = await signedInPage(false);
    await page.goto(baseUrl() + "/pricing");
    const buttons = page.getByRole("button", { name: /^Buy / });
    expect(await buttons.count()).toBe(3);
    const boxes = await Promise.all((await buttons.all()).map((b) => b.boundingBox()));
    const heights = boxes.map((b) => Math.round(b!.height));
    // The case this is about: labels of one and of two lines side by side.
    expect(new Set(heights).size).toBeGreaterThan(1);
    const tops = boxes.map((b) => Math.round(b!.y));
    expect(Math.max(...tops) - Math.min(...tops), `button tops ${tops.join(", ")}`).toBeLessThanOrEqual(1);
    await ctx.close();
  });

  it("the declined card shows a failure and grants nothing", async () => {
    const { ctx, page } = await signedInPage(true);
    const before = await triesOnPricing(page);
    await page.getByRole("button", { name: /^Buy Pro pass/ }).click();
    await page.waitForURL(/\/demo\/checkout\/cs_test_/);
    await pay(page, "4000 0000 0000 0002");
    await page.getByRole("alert").filter({ hasText: "Your card was declined." }).waitFor();
    expect(page.url()).toMatch(/\/demo\/checkout\//);
    expect(await triesOnPricing(page)).toBe(before);
    await ctx.close();
  });

  it("with JavaScript off, the hosted-checkout fallback reaches the demo page and completes", async () => {
    const { ctx, page } = await signedInPage(false);
    const before = await triesOnPricing(page);
    await page.getByRole("button", { name: /^Buy Unlimited month/ }).click();
    await page.waitForURL(/\/demo\/checkout\/cs_test_/);
    await page.getByRole("heading", { name: "Pay Grader" }).waitFor();
    await pay(page, "4242424242424242");
    await page.waitForURL(/\/pay-result\?session_id=cs_test_/);
    await page.getByRole("heading", { name: "Payment successful" }).waitFor();
    expect(await triesOnPricing(page)).toBe(before + 100);
    expect(await page.getByTestId("tries-left").textContent()).toContain("no daily limit until");
    await ctx.close();
  });

  it("has no serious or critical axe violations on pricing, checkout, result, airdrop, staking and Stars pages", async () => {
    const { ctx, page } = await signedInPage(true);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(baseUrl() + "/pricing");
    expect(await seriousViolations(page), "/pricing").toEqual([]);
    await page.getByRole("button", { name: /^Buy Starter pass/ }).click();
    await page.waitForURL(/\/demo\/checkout\//);
    expect(await seriousViolations(page), "/demo/checkout").toEqual([]);
    await pay(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/pay-result/);
    expect(await seriousViolations(page), "/pay-result").toEqual([]);
    for (const path of ["/airdrop", "/staking", "/stars", "/star-apply", "/star-personal"]) {
      await page.goto(baseUrl() + path);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
