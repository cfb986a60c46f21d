import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signedInPage, skipE2E } from "../support/browser";
import { baseUrl, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";

// Issue 32: a graded trader changes their base currency in settings with JavaScript off (a plain
// form post), sees the re-grade announced, finds the new currency chosen, and is told when the
// grade is re-made.
const RUN = Date.now().toString(36);

describe.skipIf(skipE2E)("the base currency in settings in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("changes USD to EUR without JavaScript and says the grade is being re-made in euros", async () => {
    const { ctx, page, cookie } = await signedInPage(browser, false);
    await exchange(baseUrl(), cookie, `user_good_fxe2e${RUN}`);
    expect((await waitForImports(cookie, { timeoutMs: 90_000 })).map((i) => i.state)).toEqual(["done"]);
    await page.goto(baseUrl() + "/user/settings");
    await page.getByLabel("Username").fill(`fxe2e_${RUN}`);
    const select = page.getByLabel("Base currency");
    expect(await select.inputValue()).toBe("USD");
    await select.selectOption("EUR");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("status").filter({ hasText: "Your grade is being re-made in euros." }).waitFor();
    expect(new URL(page.url()).search).toBe("?done=regrading");
    expect(await page.getByLabel("Base currency").inputValue()).toBe("EUR");
    // The re-grade's job runs in the background; its notification says when the grade is re-made.
    await expect
      .poll(
        async () => {
          await page.goto(baseUrl() + "/notifications");
          return page.getByText(/Your grade was re-made in euros: /).count();
        },
        { timeout: 45_000, interval: 500 },
      )
      .toBe(1);
    await ctx.close();
  });
});
