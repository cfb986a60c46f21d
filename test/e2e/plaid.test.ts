import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";

// Linking the demo broker in a real browser: /profile/account → "Link a broker" (a plain form post
// that makes the Link token on the server) → the stand-in Plaid Link page → back on
// /profile/account with the account listed and its import's progress, until the import is done
// and graded. With JavaScript on (the page updates itself) and off (it refreshes every 2 s).

// The JS-on test links user_good once per database; later runs on a reused PostgreSQL database use
// a run-unique demo login (user_good_<run>) so the 406 case stays theirs to provoke.
const RUN = Date.now().toString(36);

async function linkThroughStandIn(page: Page, username: string, password = "pass_good") {
  await page.goto(baseUrl() + "/profile/account");
  await page.getByRole("button", { name: "Link a broker" }).click();
  await page.waitForURL(/\/demo\/plaid-link\?link_token=link-sandbox-/);
  await page.getByRole("heading", { level: 1, name: "Connect your broker", exact: true }).waitFor();
  await page.fill("#plaid-username", username);
  await page.fill("#plaid-password", password);
  await page.getByRole("button", { name: "Submit" }).click();
}

describe.skipIf(skipE2E)("broker linking through Plaid (demo mode) in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function signedInPage(js: boolean) {
    const { cookie } = await signUp();
    const ctx = await sessionContext(browser, cookie, {
      javaScriptEnabled: js,
      viewport: { width: 1280, height: 800 },
    });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    return { ctx, page, errors };
  }

  let first = "user_good";

  it("links user_good with JavaScript on (a wrong password first keeps the username)", async () => {
    const { ctx, page, errors } = await signedInPage(true);
    await linkThroughStandIn(page, first, "nope");
    await page.getByText("The username or password provided were not correct.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.inputValue("#plaid-username")).toBe(first);
    await page.fill("#plaid-password", "pass_good");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/\/profile\/account\?(added=1#imports|linkError=406)$/);
    if (page.url().endsWith("linkError=406")) {
      // user_good is held by a Grader user from an earlier run on this database.
      first = `user_good_${RUN}`;
      await linkThroughStandIn(page, first);
      await page.waitForURL(/\/profile\/account\?added=1#imports$/);
    }
    expect(await page.getByTestId("link-flash").textContent()).toContain("Added the account successfully!");
    // The import runs in the background; the page follows it without reloading.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByTestId("linked-account").first().getByTestId("import-progress").waitFor();
    await page.locator('[data-testid="import-progress"][data-state="done"]').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.getByText(/\d{3} trades/).waitFor();
    const item = page.getByTestId("linked-account");
    expect(await item.count()).toBe(1);
    expect(await item.first().textContent()).toContain("Platypus Brokerage");
    expect(await item.first().textContent()).toContain("First Platypus Bank");
    expect(await item.first().textContent()).toMatch(/\d{3} trades/);
    expect(await seriousViolations(page)).toEqual([]);
    // The import ended with an automatic grade.
    await page.goto(baseUrl() + "/profile/stats");
    await page.getByText("Dimensions").first().waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("links with JavaScript off: the 406 message for an account someone else holds, then another account", async () => {
    const { ctx, page } = await signedInPage(false);
    await linkThroughStandIn(page, first);
    await page.waitForURL(/\/profile\/account\?linkError=406$/);
    expect(await page.getByTestId("link-flash").textContent()).toContain(
      "This investment account has been associated with a Grader account.",
    );
    expect(await page.getByTestId("linked-account").count()).toBe(0);

    await linkThroughStandIn(page, `user_good_${RUN}e`);
    await page.waitForURL(/\/profile\/account\?added=1#imports$/);
    expect(await page.getByTestId("link-flash").textContent()).toContain("Added the account successfully!");
    expect(await page.getByTestId("linked-account").count()).toBe(1);
    // Without JavaScript the page refreshes itself (meta refresh) until the import is done.
    if ((await page.locator('[data-testid="import-progress"][data-state="done"]').count()) === 0) {
      await page.getByRole("link", { name: "Refresh", exact: true }).first().waitFor();
    }
    await page.locator('[data-testid="import-progress"][data-state="done"]').waitFor({ timeout: 30_000 });
    await page.getByText(/\d{3} trades/).waitFor();
    expect(await page.getByRole("link", { name: "Refresh", exact: true }).count()).toBe(0);
    expect(await page.getByTestId("linked-account").first().textContent()).toContain(`Platypus Brokerage (${RUN}e)`);

    // Unlink with the no-JavaScript confirmation step.
    await page.getByRole("button", { name: /^Unlink Platypus Brokerage/ }).click();
    await page
      .getByRole("group")
      .filter({ hasText: new RegExp(`Unlink Platypus Brokerage \\(${RUN}e\\) ••\\d{4}\\?`) })
      .waitFor();
    await page.getByRole("group").getByRole("button", { name: "Unlink" }).click();
    await page.waitForURL(/\/profile\/account\?unlinked=1$/);
    expect(await page.getByTestId("linked-account").count()).toBe(0);
    await ctx.close();
  });

  it("brings Unlink's question into view and focus on a phone, with JavaScript", async () => {
    const { cookie } = await signUp();
    // Two accounts linked through the API (the stand-in page is the other tests' subject).
    for (const tag of ["q", "r"]) {
      const linked = await fetch(baseUrl() + "/api/finance/plaid/exchange-public-token", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ public_token: `public-sandbox-user_good_${RUN}${tag}` }),
      });
      expect(linked.status).toBe(201);
    }
    await waitForImports(cookie, { timeoutMs: 60_000 });
    const ctx = await sessionContext(browser, cookie, { viewport: { width: 375, height: 667 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/profile/account");
    // The last account's Unlink, scrolled to: the question appears at the top of the list.
    const unlink = page.getByRole("button", { name: /^Unlink / }).last();
    await unlink.scrollIntoViewIfNeeded();
    await unlink.click();
    const question = page.getByRole("group").filter({ hasText: /^Unlink .*\?/ });
    await question.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "group");
    // The site scrolls smoothly: wait for the question to come to rest inside the viewport.
    await page.waitForFunction(() => {
      const r = document.querySelector('[aria-labelledby="unlink-title"]')!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    await ctx.close();
  });

  it("opens Unlink's question scrolled into view on a phone, without JavaScript", async () => {
    const { cookie } = await signUp();
    const linked = await fetch(baseUrl() + "/api/finance/plaid/exchange-public-token", {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ public_token: `public-sandbox-user_good_${RUN}n` }),
    });
    expect(linked.status).toBe(201);
    await waitForImports(cookie, { timeoutMs: 60_000 });
    const ctx = await sessionContext(browser, cookie, {
      javaScriptEnabled: false,
      viewport: { width: 375, height: 800 },
    });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/profile/account");
    await page.getByRole("button", { name: /^Unlink / }).click();
    // The answer is a new page; below the profile's header and tabs the question sat under the fold.
    await page
      .getByRole("group")
      .filter({ hasText: /^Unlink .*\?/ })
      .waitFor();
    // Chromium scrolls to the fragment once the page has loaded (stylesheets, layout): the element exists
    // before that, so wait for the load and then for the scroll to come to rest.
    await page.waitForLoadState("load");
    const inView = () =>
      page.evaluate(() => {
        const r = document.querySelector('[aria-labelledby="unlink-title"]')!.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    await expect.poll(inView, { timeout: 10_000, interval: 100 }).toBe(true);
    await ctx.close();
  });

  it("marks wallets Desktop only and disables them on a phone", async () => {
    const { ctx, page } = await signedInPage(true);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(baseUrl() + "/profile/account");
    await page.waitForFunction(() => document.querySelector('[aria-disabled="true"]') !== null);
    const wallets = page.getByRole("list", { name: "Exchanges and wallets" });
    expect(await wallets.locator('a[href="/link/evm"]').count()).toBe(0);
    expect(await wallets.locator('[aria-disabled="true"]').count()).toBe(2);
    expect(await wallets.getByText("Desktop only").count()).toBe(2);
    await ctx.close();
  });
});
