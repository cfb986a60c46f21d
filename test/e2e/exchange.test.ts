import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";

// Linking Binance in a real browser, with JavaScript on and off: the connect dialog's "Link an
// exchange" → /link/exchange → a withdrawal key refused (the key kept, the secret not) → "Use a
// demo key" → linked, back on the account page with the import running, then done.

const RUN = Date.now().toString(36);

describe.skipIf(skipE2E)("exchange linking (demo Binance, OKX) in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ["on", true],
    ["off", false],
  ])(
    "links Binance with JavaScript %s",
    async (_name, js) => {
      const { cookie } = await signUp();
      const ctx = await sessionContext(browser, cookie, {
        javaScriptEnabled: js,
        viewport: { width: 1280, height: 800 },
      });
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      await page.goto(baseUrl() + "/profile/account");
      await page.getByRole("link", { name: "Link an exchange" }).first().click();
      await page.waitForURL(/\/link\/exchange$/);
      await page.getByRole("heading", { level: 1, name: "Link an exchange" }).waitFor();

      await page.fill("#f-api_key", "demo-can-withdraw");
      await page.fill("#f-secret", "typed-secret");
      await page.getByRole("button", { name: "Link the exchange" }).click();
      await page.getByText("This key can withdraw. Create a read-only key:").waitFor();
      expect(await page.inputValue("#f-api_key")).toBe("demo-can-withdraw");
      // With JavaScript the page clears it in an effect after the answer renders: wait for it.
      await expect.poll(() => page.inputValue("#f-secret")).toBe("");
      // axe runs as a page script: only with JavaScript on.
      if (js) expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("link", { name: "Use a demo key" }).click();
      await page.waitForURL(/\/link\/exchange\?demo=1$/);
      // With JavaScript the URL changes before the page renders its new data: wait for the key.
      await expect.poll(() => page.inputValue("#f-api_key")).toBe("demo-read-only");
      // An account of this run's own: the shared database keeps earlier runs' links (406).
      await page.fill("#f-api_key", `demo-read-only-e2e-${js ? "on" : "off"}-${RUN}`);
      await page.getByRole("button", { name: "Link the exchange" }).click();
      await page.waitForURL(/\/profile\/account(#imports)?$/, { timeout: 20_000 }).catch(async (e) => {
        throw new Error(`${page.url()}: ${(await page.textContent("main"))?.slice(0, 500)} ${e}`);
      });
      await page
        .getByText(/^Binance account …\d{4}$/)
        .first()
        .waitFor();
      const [done] = await waitForImports(cookie, { timeoutMs: 90_000 });
      expect(done).toMatchObject({ state: "done", error: null });
      expect(errors).toEqual([]);
      await ctx.close();
    },
    150_000,
  );

  // OKX's key has a passphrase: its field shows for OKX with JavaScript (for every exchange
  // without), the demo key fills it, and the account links.
  it.each([
    ["on", true],
    ["off", false],
  ])(
    "links OKX, passphrase and all, with JavaScript %s",
    async (_name, js) => {
      const { cookie } = await signUp();
      const ctx = await sessionContext(browser, cookie, {
        javaScriptEnabled: js,
        viewport: { width: 1280, height: 800 },
      });
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      await page.goto(baseUrl() + "/link/exchange?demo=1");
      await expect.poll(() => page.inputValue("#f-api_key")).toBe("demo-read-only");
      // With JavaScript the field leaves once the page hydrates (Binance is chosen first).
      if (js) await expect.poll(() => page.locator("#f-passphrase").count()).toBe(0);
      await page.selectOption("#f-exchange", "okx");
      await page.locator("#f-passphrase").waitFor();
      expect(await page.inputValue("#f-passphrase")).toBe("demo-passphrase");
      await page.fill("#f-api_key", `demo-read-only-e2e-okx-${js ? "on" : "off"}-${RUN}`);
      await page.getByRole("button", { name: "Link the exchange" }).click();
      await page.waitForURL(/\/profile\/account(#imports)?$/, { timeout: 20_000 }).catch(async (e) => {
        throw new Error(`${page.url()}: ${(await page.textContent("main"))?.slice(0, 500)} ${e}`);
      });
      await page
        .getByText(/^OKX account …\d{4}$/)
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
