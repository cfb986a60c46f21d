import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sessionContext, signedInPage as signedInPageFor, skipE2E } from "../support/browser";
import { baseUrl, signUp } from "../support/http";
import { startServer } from "../support/server";

const TIER = /Bronze|Silver|Gold|Master|Legend/;

async function linkDemoBroker(page: Page) {
  await page.goto(baseUrl() + "/profile/account");
  await page.getByRole("button", { name: "Link a broker" }).click();
  await page.waitForURL(/\/demo\/plaid-link/);
  // Each test uses its own demo institution account (user_good_<suffix>), so the 406 rule never bites.
  await page.fill("#plaid-username", `user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`);
  await page.fill("#plaid-password", "pass_good");
  await page.getByRole("button", { name: "Submit" }).click();
  await page.waitForURL(/\/profile\/account/);
  // Linking answers before the history is in: the page follows the import (live with JavaScript,
  // by refreshing itself without) until it is done and graded.
  await page.locator('[data-testid="import-progress"][data-state="done"]').waitFor({ timeout: 30_000 });
}

describe.skipIf(skipE2E)("sign up → link the demo broker → Get Grade", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signedInPage = (js: boolean) => signedInPageFor(browser, js);

  it("with JavaScript: the connect modal first, then confirm, loading, toast, badge and stats", async () => {
    const { ctx, page } = await signedInPage(true);
    await page.goto(baseUrl() + "/community");
    await page.getByRole("link", { name: "Get Grade" }).click();
    const connect = page.getByRole("dialog", { name: "Get Your Grade" });
    await connect.waitFor();
    // Broker from the connect modal: the stand-in Link page, with the modal gone.
    await connect.getByRole("button", { name: /Broker/ }).click();
    await page.waitForURL(/\/demo\/plaid-link/);
    await connect.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Exit" }).click();
    await page.waitForURL(/\/profile\/account/);
    await linkDemoBroker(page);
    await page.goto(baseUrl() + "/community");
    // "Refresh Grade" once the import's automatic grade is there, "Get Grade" while it runs.
    await page.getByRole("link", { name: /^(Get|Refresh) Grade$/ }).click();
    await page.getByRole("dialog", { name: "Confirm To Update Your Grade" }).waitFor();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page
      .getByText(
        /^(Evaluated successfully! Your new grade used one try\.|Nothing new since your last grade: it stands, and no try was used\.)$/,
      )
      .waitFor({ timeout: 30_000 });
    await page.locator(".user-menu summary").click();
    await page.getByRole("menuitem", { name: "My Current Grade" }).click();
    const modal = page.getByRole("dialog", { name: "My Current Grade" });
    await modal.waitFor();
    // The account menu closed behind it.
    expect(await page.locator(".user-menu").evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    const tier = (await modal.locator(".grade-tier").textContent())!;
    expect(tier).toMatch(TIER);
    await modal.getByRole("link", { name: "See my stats" }).click();
    await page.waitForURL(/\/profile\/stats$/);
    expect(await page.locator(".report .grade-tier").first().textContent()).toBe(tier);
    await page.locator("svg.chart").first().waitFor();
    await ctx.close();
  });

  it("without JavaScript: /evaluate's connect options, then the confirm form, then the stats", async () => {
    const { ctx, page } = await signedInPage(false);
    await page.goto(baseUrl() + "/community");
    await page.getByRole("link", { name: "Get Grade" }).click();
    await page.waitForURL(/\/evaluate$/);
    expect(await page.getByRole("heading", { name: "Get Your Grade", exact: true }).count()).toBe(1);
    await linkDemoBroker(page);
    await page.goto(baseUrl() + "/evaluate");
    expect(await page.getByRole("heading", { name: "Confirm To Update Your Grade", exact: true }).count()).toBe(1);
    // The import graded automatically once it was done ("Refresh Grade"), unless it is still running ("Get Grade").
    await page.getByRole("button", { name: /^(Get|Refresh) Grade$/ }).click();
    await page.waitForURL(/\/profile\/stats\?evaluated=(new|same)$/, { timeout: 30_000 });
    expect(await page.locator(".form-success").textContent()).toMatch(
      /^(Evaluated successfully! Your new grade used one try\.|Nothing new since your last grade: it stands, and no try was used\.)$/,
    );
    expect(await page.locator(".profile-head .grade-tier").textContent()).toMatch(TIER);
    expect(await page.locator(".report .grade-tier").first().textContent()).toBe(
      await page.locator(".profile-head .grade-tier").textContent(),
    );
    await ctx.close();
  });

  describe("while the import runs", () => {
    // A slow simulator answering one trade per page keeps the first import running for minutes,
    // however slowly a loaded machine gets the page up (at 25 per page it could finish first, and
    // the grade then ran instead). Its own server, started in the hook: the test is the dialog,
    // not the server's start; it stops without waiting out the import.
    let server: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      server = await startServer({ SIM_DELAY_FACTOR: "20", SIM_PLAID_PAGE_SIZE: "1", SHUTDOWN_TIMEOUT_MS: "3000" });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("shows the Tips dialog for a code ≥ 300: an evaluation during the import answers 425", async () => {
      const { cookie } = await signUp({ base: server.url });
      const linked = await fetch(server.url + "/api/finance/plaid/exchange-public-token", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ public_token: `public-sandbox-user_good_tips${Date.now().toString(36)}` }),
      });
      expect(linked.status).toBeLessThan(300);
      const ctx = await sessionContext(browser, cookie, { viewport: { width: 1280, height: 900 } }, server.url);
      const page = await ctx.newPage();
      await page.goto(server.url + "/community");
      // A click before React owns the button follows the link to /evaluate (the no-JS flow).
      await page.waitForFunction(() =>
        [...document.querySelectorAll("a.btn-primary")].some(
          (a) => a.textContent === "Get Grade" && Object.keys(a).some((k) => k.startsWith("__reactProps")),
        ),
      );
      // No grade yet while the first import runs: the button offers one.
      await page.getByRole("link", { name: "Get Grade" }).click();
      await page.getByRole("button", { name: "Confirm" }).click();
      const tips = page.getByRole("dialog", { name: "Tips" });
      await tips.waitFor({ timeout: 30_000 });
      expect(await tips.textContent()).toContain("Your trades are still importing. Try again when the import is done.");
      await tips.getByRole("button", { name: "OK" }).click();
      await tips.waitFor({ state: "detached" });
      await page.goto(server.url + "/evaluate");
      expect((await page.locator("main").textContent())?.replace(/\s+/g, " ")).toContain("you have 3 left");
      await ctx.close();
    });
  });
});
