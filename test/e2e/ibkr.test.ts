import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";

// Linking Interactive Brokers in a real browser, with JavaScript off and on: the account page's
// "Interactive Brokers" → /link/ibkr with its guide → an IP-restricted token refused in words (what
// was typed kept) → "Use the demo token" → linked, back on the account page, the import done.

const RUN = Date.now().toString(36);

describe.skipIf(skipE2E)("Interactive Brokers linking (demo Flex Web Service) in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ["off", false],
    ["on", true],
  ])(
    "links IBKR with JavaScript %s",
    async (name, js) => {
      const { cookie } = await signUp();
      const ctx = await sessionContext(browser, cookie, {
        javaScriptEnabled: js,
        viewport: { width: 1280, height: 800 },
      });
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      await page.goto(baseUrl() + "/profile/account");
      await page
        .getByRole("link", { name: /Interactive Brokers/ })
        .first()
        .click();
      await page.waitForURL(/\/link\/ibkr$/);
      await page.getByRole("heading", { level: 1, name: "Link Interactive Brokers" }).waitFor();
      await page.getByText("Activity Flex Query", { exact: false }).first().waitFor();

      await page.fill("#f-token", "sim-ip-typed");
      await page.fill("#f-query_id", "31337");
      await page.getByRole("button", { name: "Link Interactive Brokers" }).click();
      await page.getByText(/restricted to other IP addresses/).waitFor();
      expect(await page.inputValue("#f-token")).toBe("sim-ip-typed");
      expect(await page.inputValue("#f-query_id")).toBe("31337");
      if (js) expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("link", { name: "Use the demo token" }).click();
      await page.waitForURL(/\/link\/ibkr\?demo=1$/);
      await expect.poll(() => page.inputValue("#f-token")).toBe("demo");
      // An account of this run's own: the shared database keeps earlier runs' links (406).
      await page.fill("#f-token", `demo-e2e-${name}-${RUN}`);
      await page.getByRole("button", { name: "Link Interactive Brokers" }).click();
      await page.waitForURL(/\/profile\/account(#imports)?$/, { timeout: 30_000 }).catch(async (e) => {
        throw new Error(`${page.url()}: ${(await page.textContent("main"))?.slice(0, 500)} ${e}`);
      });
      await page
        .getByText(/^IBKR account …\d{4}$/)
        .first()
        .waitFor();
      const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
      expect(done).toMatchObject({ state: "done", error: null });
      expect(errors).toEqual([]);
      await ctx.close();
    },
    150_000,
  );
});
