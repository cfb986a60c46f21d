import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";

// Issue 32, point 5 (DECISIONS 205): a German browser reads its amounts as 1.234,56 $, from the
// server's render, through hydration (no mismatch: the root hands its locale down) and after a
// navigation the browser renders itself.

const STATEMENT = [
  "date,type,symbol,quantity,price,fee,currency,amount,asset_class,account",
  "2024-01-02,deposit,,,,,USD,20000,,main",
  "2024-01-03,buy,AAPL,10,1234.56,2.50,USD,,stock,main",
  "2024-02-01,sell,AAPL,10,1300.00,2.50,USD,,stock,main",
].join("\n");

describe.skipIf(skipE2E)("amounts in a German browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows 1.234,56 $ rendered on the server, hydrated and re-rendered in the browser", async () => {
    const { cookie } = await signUp();
    const form = new FormData();
    form.append("file", new Blob([STATEMENT]), "statement.csv");
    const res = await fetch(`${baseUrl()}/api/statements`, {
      method: "POST",
      body: form,
      headers: { cookie, origin: baseUrl() },
    });
    expect(res.status).toBe(201);
    expect((await waitForImports(cookie, { timeoutMs: 60_000 }))[0]).toMatchObject({ state: "done" });

    // Playwright's locale sets both Accept-Language and the browser's own (navigator.language).
    const ctx = await sessionContext(browser, cookie, { locale: "de-DE", viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // React reports a hydration mismatch on the console, not as a page error.
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto(baseUrl() + "/profile/history");
    const prices = () => page.locator("main table").textContent();
    expect(await prices()).toContain("1.234,56\u00a0$");
    // Hydrated: React owns the sort links.
    await page.waitForFunction(() =>
      Object.keys(document.querySelector("main table thead a") ?? {}).some((k) => k.startsWith("__reactProps")),
    );
    // A sort is a client-side navigation: the browser renders the table itself, in the same locale.
    await page.getByRole("link", { name: /Price/ }).click();
    await page.waitForURL(/sort_by=price/);
    await expect.poll(prices).toContain("1.300,00\u00a0$");
    expect(await prices()).toContain("1.234,56\u00a0$");
    expect(await prices()).not.toContain("$1,234.56");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});
