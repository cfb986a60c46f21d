import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";

const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function post(path: string, cookie: string, body: unknown = {}) {
  const res = await fetch(baseUrl() + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { data?: Record<string, unknown> };
}

/** A signed-up trader with a grade, made over HTTP (the grade flow has its own browser tests). */
async function gradedCookie() {
  const { cookie } = await signUp();
  await post("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() });
  await waitForImports(cookie); // graded automatically after the import
  const graded = await post("/api/finance/plaid/evaluation", cookie);
  expect(graded.data?.code).toBe(2002);
  return cookie;
}

describe.skipIf(skipE2E)("sharing the performance card", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function pageFor(cookie: string, js: boolean) {
    const ctx = await sessionContext(browser, cookie, {
      javaScriptEnabled: js,
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    return { ctx, page: await ctx.newPage() };
  }

  it("with JavaScript: the header's Share opens the modal, the preview loads, Download saves the PNG and closes it", async () => {
    const { ctx, page } = await pageFor(await gradedCookie(), true);
    await page.goto(baseUrl() + "/community");
    await page.getByRole("link", { name: "Share", exact: true }).click();
    const modal = page.getByRole("dialog", { name: "Share your performance card" });
    await modal.waitFor();
    const minHeight = await modal.evaluate((el) => getComputedStyle(el).minHeight);
    expect(minHeight).toBe(`${32.75 * 16}px`);
    // The preview loads; until then the buttons wait for share_url.
    const preview = modal.getByTestId("share-preview");
    await preview.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("[data-testid=share-preview]");
      return Boolean(img && img.complete && img.naturalWidth === 1200);
    });
    expect(await seriousViolations(page)).toEqual([]);
    // The Share popover: three networks with the product's text and the share page, plus Instagram's message.
    await modal.getByRole("button", { name: "Share" }).click();
    const x = modal.getByRole("menuitem", { name: "X (Twitter)" });
    const href = (await x.getAttribute("href"))!;
    expect(decodeURIComponent(href)).toContain(
      "Check out my Grader performance card. Think I'm bluffing? Let's settle it in the markets!",
    );
    expect(decodeURIComponent(href)).toMatch(/\/share\/open_graph\/\d+\?from=twitter/);
    await modal.getByRole("menuitem", { name: "Instagram" }).click();
    const instagram = page.getByText(
      "To share on Instagram, please download your performance card first, then upload it to your feed or story.",
    );
    await instagram.waitFor();
    // The toast shows above the modal's backdrop and can be closed while the modal is open.
    await page.locator(".toast-close").click({ timeout: 5000 });
    await instagram.waitFor({ state: "detached" });
    await modal.waitFor();
    // Download: the toasts, the file, and the modal closes.
    const downloading = page.waitForEvent("download");
    const airdropTask = page.waitForRequest((r) => r.url().endsWith("/api/airdrop/share") && r.method() === "POST");
    await modal.getByRole("button", { name: "Download" }).click();
    await airdropTask;
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.png$/);
    const file = await download.path();
    const bytes = fs.readFileSync(file!);
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(bytes.readUInt32BE(16)).toBe(1200);
    await page.getByText("Card downloaded! Now head over to Instagram and show it off.").waitFor();
    await modal.waitFor({ state: "hidden" });
    await ctx.close();
  });

  it("with JavaScript and no grade: Share shows the product's message and goes to /evaluate", async () => {
    const { cookie } = await signUp();
    const { ctx, page } = await pageFor(cookie, true);
    await page.goto(baseUrl() + "/community");
    await page.getByRole("link", { name: "Share", exact: true }).click();
    await page
      .getByText("You don’t have a grade yet. Connect your investment account to get your grade, then share it!")
      .waitFor();
    await page.waitForURL(/\/evaluate/);
    await ctx.close();
  });

  it("opens the modal once for a pending airdrop share, then removes the flag", async () => {
    const { ctx, page } = await pageFor(await gradedCookie(), true);
    await page.goto(baseUrl() + "/community");
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => window.localStorage.setItem("grader.pendingAirdropShare", "1"));
    await page.goto(baseUrl() + "/community");
    const modal = page.getByRole("dialog", { name: /airdrop/i });
    await modal.waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem("grader.pendingAirdropShare"))).toBeNull();
    await modal.getByRole("button", { name: "Close" }).click();
    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await ctx.close();
  });

  it("without JavaScript: Share leads to a page with the card, the network links and a download", async () => {
    const { ctx, page } = await pageFor(await gradedCookie(), false);
    await page.goto(baseUrl() + "/community");
    await page.getByRole("link", { name: "Share", exact: true }).click();
    await page.waitForURL(/\/share$/);
    const img = page.locator("img[alt='Your performance card']");
    await img.waitFor();
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1200);
    const main = page.locator("#main");
    for (const name of ["X (Twitter)", "Facebook", "Reddit"]) await main.getByRole("link", { name }).waitFor();
    const downloading = page.waitForEvent("download");
    await main.getByRole("link", { name: "Download card (1200×630)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.png$/);
    await ctx.close();
  });

  it("the public share page shows the card to a visitor without a session", async () => {
    const cookie = await gradedCookie();
    const id = (
      (await (await fetch(baseUrl() + "/api/user/info", { headers: { cookie } })).json()) as { data: { id: number } }
    ).data.id;
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    const res = await page.goto(`${baseUrl()}/share/open_graph/${id}?from=x`);
    expect(res?.status()).toBe(200);
    const img = page.locator("img[alt*='performance card']");
    await img.waitFor();
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1200);
    await page.getByRole("link", { name: "Get your grade" }).waitFor();
    await ctx.close();
    // Accessibility (axe needs JavaScript): the public page, the verification page and /share.
    const { ctx: js, page: a11y } = await pageFor(cookie, true);
    await a11y.goto(`${baseUrl()}/share/open_graph/${id}?from=x`);
    expect(await seriousViolations(a11y)).toEqual([]);
    await a11y.getByRole("link", { name: /^GR-/ }).click();
    await a11y.getByRole("heading", { name: "Verified evaluation" }).waitFor();
    expect(await seriousViolations(a11y)).toEqual([]);
    await a11y.goto(`${baseUrl()}/share`);
    expect(await seriousViolations(a11y)).toEqual([]);
    await js.close();
  });
});
