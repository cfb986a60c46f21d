import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverWithAdmin } from "../support/admin";
import { launchBrowser, sessionContext, skipE2E } from "../support/browser";
import { get, postForm, signUp } from "../support/http";

// With JavaScript off: an admin hides a reported post with the form's button, and a user deletes
// their account from settings. Both are plain form posts answered by the server.
describe.skipIf(skipE2E)("admin and account deletion without JavaScript", () => {
  let browser: Browser;
  let ctx: Awaited<ReturnType<typeof serverWithAdmin>>;
  beforeAll(async () => {
    [browser, ctx] = await Promise.all([launchBrowser(), serverWithAdmin()]);
  }, 400_000);
  afterAll(async () => {
    await browser?.close();
    await ctx?.cleanup();
  });

  it("an admin hides a reported post", async () => {
    const base = ctx.server.url;
    const author = await signUp({ base });
    const reporter = await signUp({ base });
    const body = `browser report ${Date.now()}`;
    expect((await postForm("/community", { intent: "post", body }, { base, cookie: author.cookie })).status).toBe(303);
    const feed = (await (await get("/community?_data=routes%2Fcommunity", { base, cookie: author.cookie })).json()) as {
      posts: { id: string; body: string }[];
    };
    const postId = String(feed.posts.find((p) => p.body === body)!.id);
    await postForm(`/posts/${postId}`, { intent: "report", reason: "abusive" }, { base, cookie: reporter.cookie });

    const browserCtx = await sessionContext(browser, ctx.admin.cookie, { javaScriptEnabled: false }, base);
    const page = await browserCtx.newPage();
    // The admin's menu leads to /admin; nobody else's does.
    await page.goto(base + "/community");
    expect(await page.locator('.menu-panel a[href="/admin"]').count()).toBe(1);
    expect(await (await get("/community", { base, cookie: reporter.cookie })).text()).not.toContain('href="/admin"');
    await page.goto(base + "/admin/reports");
    const card = page.locator(`[data-post="${postId}"]`);
    await expect.poll(() => card.textContent()).toContain("abusive");
    await card.getByRole("button", { name: "Hide" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Post ${postId} is hidden.` })
      .waitFor();
    expect(await page.locator(`[data-post="${postId}"]`).count()).toBe(0);
    expect((await get(`/posts/${postId}`, { base, cookie: reporter.cookie })).status).toBe(404);
    await browserCtx.close();
  });

  it("a user deletes their account with their password", async () => {
    const base = ctx.server.url;
    const me = await signUp({ base });
    const browserCtx = await sessionContext(browser, me.cookie, { javaScriptEnabled: false }, base);
    const page = await browserCtx.newPage();
    await page.goto(base + "/user/settings");
    await page.getByRole("link", { name: "Delete my account" }).click();
    await page.getByLabel("Your password").fill("wrong password");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.getByText("That is not your password.").waitFor();
    await page.getByLabel("Your password").fill(me.password);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.search === "?account=deleted");
    expect((await browserCtx.cookies()).some((c) => c.name === "grader_session" && c.value)).toBe(false);
    expect((await get("/user/settings", { base, cookie: me.cookie })).status).toBe(302);
    await browserCtx.close();
  });
});
