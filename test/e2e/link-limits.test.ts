import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sessionContext, skipE2E } from "../support/browser";
import { signUp, waitForImports } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// The daily link and unlink limits in a real browser with JavaScript on (the integration test
// link-limits.test.ts posts the same forms without it). Its own server with every rate limit at a
// fifth (RATE_LIMIT_FACTOR 0.2): 2 links and 1 unlink a day. Its own database on PostgreSQL: the
// shared one holds the suite's sign-ups from this address, over the fifth of their limit.

const LINK_LIMIT = "You've hit today's limit for linking accounts—try again tomorrow!";
const UNLINK_LIMIT = "You've hit today's limit for unlinking accounts—try again tomorrow!";
const RUN = Date.now().toString(36);

describe.skipIf(skipE2E)("daily link limits in a browser with JavaScript on", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMIT_FACTOR: "0.2", ...(await ownDatabase()) }),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function linkThroughStandIn(page: Page, username: string) {
    await page.goto(server.url + "/profile/account");
    await page.getByRole("button", { name: "Link a broker" }).click();
    await page.waitForURL(/\/demo\/plaid-link\?link_token=link-sandbox-/);
    await page.fill("#plaid-username", username);
    await page.fill("#plaid-password", "pass_good");
    await page.getByRole("button", { name: "Submit" }).click();
  }

  it("shows the link and unlink limits where the trader asked, keeping the form", async () => {
    const { cookie } = await signUp({ base: server.url });
    for (const tag of ["a", "b"]) {
      const res = await fetch(server.url + "/api/finance/plaid/exchange-public-token", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ public_token: `public-sandbox-user_good_${RUN}${tag}` }),
      });
      expect(res.status).toBe(201);
    }
    await waitForImports(cookie, { base: server.url, timeoutMs: 60_000 });
    const ctx = await sessionContext(
      browser,
      cookie,
      { javaScriptEnabled: true, viewport: { width: 1280, height: 800 } },
      server.url,
    );
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // A third link: the stand-in Link page says so and keeps the username.
    await linkThroughStandIn(page, `user_good_${RUN}c`);
    await page.getByText(LINK_LIMIT).waitFor();
    expect(page.url()).toMatch(/\/demo\/plaid-link\?/);
    expect(await page.inputValue("#plaid-username")).toBe(`user_good_${RUN}c`);

    // The first unlink goes through; the second is refused with its question still open.
    await page.goto(server.url + "/profile/account");
    const unlink = async () => {
      await page
        .getByRole("button", { name: /^Unlink Platypus Brokerage/ })
        .first()
        .click();
      await page.getByRole("group").getByRole("button", { name: "Unlink" }).click();
    };
    await unlink();
    await page.getByText("The account was unlinked").first().waitFor();
    await expect.poll(() => page.getByTestId("linked-account").count()).toBe(1);
    await unlink();
    await page.getByText(UNLINK_LIMIT).waitFor();
    expect(await page.getByRole("group").getByRole("button", { name: "Unlink" }).count()).toBe(1);
    expect(await page.getByTestId("linked-account").count()).toBe(1);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});
