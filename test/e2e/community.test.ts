import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, postForm, signUp } from "../support/http";

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;
type Member = { cookie: string; id: number; username: string; name: string };

async function member(first: string): Promise<Member> {
  const { cookie } = await signUp();
  const username = `e${run}_${seq++}`;
  const last = `Zed${run}${seq}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: first, last_name: last, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id, username, name: `${first} ${last}` };
}

describe.skipIf(skipE2E)("community in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function as(m: Member, js: boolean): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
    const ctx = await sessionContext(browser, m.cookie, {
      javaScriptEnabled: js,
      viewport: { width: 1280, height: 900 },
    });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // A script injected by user text would most likely call alert(): any dialog fails the test.
    page.on("dialog", (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    return { ctx, page, errors };
  }

  it("moves through search results with the arrow keys, opens one with Enter and closes with Escape", async () => {
    const viewer = await member("Viewer");
    await member("Kira");
    await member("Kiro");
    const { ctx, page, errors } = await as(viewer, true);
    await page.goto(baseUrl() + "/community");
    const box = page.locator("#trader-search");
    const active = () => box.getAttribute("aria-activedescendant");
    // Typing before React owns the box would go unseen by the search.
    const hydrated = () =>
      page.waitForFunction(() =>
        Object.keys(document.querySelector("#trader-search") ?? {}).some((k) => k.startsWith("__reactProps")),
      );
    await hydrated();
    // Every member of this run matches the shared prefix of their usernames: at least three results.
    await box.pressSequentially(`e${run}`);
    await expect.poll(() => page.locator(".search-result").count()).toBeGreaterThanOrEqual(3);
    const options = page.locator('.search-popover [role="option"]');
    expect(await active()).toBeNull();
    await box.press("ArrowDown");
    expect(await active()).toBe(await options.nth(0).getAttribute("id"));
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("true");
    expect(await options.nth(0).getAttribute("class")).toContain("is-active");
    await box.press("ArrowDown");
    expect(await active()).toBe(await options.nth(1).getAttribute("id"));
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("false");
    await box.press("ArrowUp");
    await box.press("ArrowUp");
    // Up from the first option wraps to the last.
    expect(await active()).toBe(await options.last().getAttribute("id"));
    await box.press("Escape");
    await page.locator(".search-popover").waitFor({ state: "detached" });
    expect(await box.getAttribute("aria-expanded")).toBe("false");
    expect(await active()).toBeNull();
    expect(await box.inputValue()).toBe(`e${run}`);
    // Down opens the list again; Enter opens the highlighted trader, not the results page.
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    const href = await options.nth(1).getAttribute("href");
    expect(href).toMatch(/^\/u\/\d+$/);
    await box.press("Enter");
    await page.waitForURL((url) => url.pathname.startsWith(href!));
    // With no option highlighted, Enter still submits the search form.
    await page.goto(baseUrl() + "/community");
    await hydrated();
    await box.pressSequentially(`e${run}`);
    await page.locator(".search-result").first().waitFor();
    await box.press("Enter");
    await page.waitForURL(/\/search\?keyword=/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  for (const js of [true, false]) {
    const mode = `JavaScript ${js ? "on" : "off"}`;

    it(`searches, opens a profile and follows (${mode})`, async () => {
      const viewer = await member("Viewer");
      const target = await member(js ? "Quentin" : "Quorra");
      const { ctx, page, errors } = await as(viewer, js);
      await page.goto(baseUrl() + "/community");
      const box = page.locator("#trader-search");
      if (js) {
        await box.pressSequentially(target.username.slice(0, 2));
        await page.waitForTimeout(500);
        expect(await page.locator(".search-popover").count()).toBe(0);
        await box.pressSequentially(target.username.slice(2));
        const result = page.locator(".search-result", { hasText: target.name });
        await result.waitFor();
        // Below 3 characters the results clear.
        await box.fill(target.username.slice(0, 2));
        await page.locator(".search-popover").waitFor({ state: "detached" });
        await box.fill(target.username);
        await page.locator(".search-result", { hasText: target.name }).click();
      } else {
        await box.fill(target.username);
        await box.press("Enter");
        await page.waitForURL(/\/search\?keyword=/);
        await page.locator(".trader-list a", { hasText: target.name }).click();
      }
      await page.waitForURL(new RegExp(`/u/${target.id}(/|$)`));
      expect(await page.locator(".profile-head h1").textContent()).toBe(target.name);
      await page.locator(".follow-row button", { hasText: "Follow" }).click();
      await page.locator(".follow-row button", { hasText: "Unfollow" }).waitFor();
      expect(await page.locator(".follow-row").textContent()).toContain("1 follower");
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it(`posts, replies and likes, with user HTML inert (${mode})`, async () => {
      const author = await member("Poster");
      const { ctx, page, errors } = await as(author, js);
      await page.goto(baseUrl() + "/community");
      // A post the server refuses (over 1,000 characters; set directly, past the box's maxlength)
      // keeps its text with the error, and the next good post still empties the box.
      await page.locator("#composer-post").evaluate((el: HTMLTextAreaElement) => (el.value = "R".repeat(1001)));
      await page.locator(".composer button", { hasText: "Post" }).click();
      await page.locator("#composer-post-error").waitFor();
      expect(await page.locator("#composer-post").inputValue()).toBe("R".repeat(1001));
      const text = `Post ${run} ${js} <img src=x onerror=alert(1)> javascript:alert(2) https://example.com/${run}`;
      await page.fill("#composer-post", text);
      await page.locator(".composer button", { hasText: "Post" }).click();
      const card = page.locator(".post-card", { hasText: `Post ${run} ${js}` }).first();
      await card.waitFor();
      expect(await card.locator(".post-body").textContent()).toBe(text);
      expect(await card.locator(".post-body img").count()).toBe(0);
      expect(await card.locator('.post-body a[href^="javascript"]').count()).toBe(0);
      expect(await card.locator(`.post-body a[href="https://example.com/${run}"]`).count()).toBe(1);
      if (js) expect(await page.locator("#composer-post").inputValue()).toBe("");
      await card.locator("a", { hasText: "Reply" }).click();
      await page.waitForURL(/\/posts\/\d+$/);
      await page.fill("#composer-reply", `Reply ${run}`);
      await page.locator(".composer button", { hasText: "Reply" }).click();
      await page.locator(".replies .post-card", { hasText: `Reply ${run}` }).waitFor();
      const main = page.locator(".post-card").first();
      // The like shows at once (optimistic); wait for the server's answer before reloading.
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/posts/")),
        main.locator("button", { hasText: "Like" }).click(),
      ]);
      await main.locator("button", { hasText: "Liked" }).waitFor();
      expect(await main.locator("button[aria-pressed=true] .count").textContent()).toBe("1");
      await page.reload();
      expect(await page.locator(".post-card").first().locator("button[aria-pressed=true] .count").textContent()).toBe(
        "1",
      );
      expect(await page.locator(".post-card").first().textContent()).toMatch(/1 reply/);
      expect(errors).toEqual([]);
      await ctx.close();
    });

    it(`sends a message that becomes a request, accepts it and replies (${mode})`, async () => {
      const sender = await member("Sender");
      const recipient = await member("Recipient");
      const s = await as(sender, js);
      await s.page.goto(`${baseUrl()}/u/${recipient.id}`);
      await s.page.locator("summary", { hasText: "Message" }).click();
      await s.page.fill("#dm-body", `Hello ${run} <b>there</b>`);
      await s.page.getByRole("button", { name: "Send", exact: true }).click();
      await s.page.waitForURL(/\/messages\/\d+\/reply$/);
      // waitForURL can resolve before React renders the new page: wait for the text itself.
      await s.page.locator("p[role=status]", { hasText: "Message request sent" }).waitFor();
      const id = /\/messages\/(\d+)\//.exec(s.page.url())![1];
      // The sender leaves the conversation: an open one reads what arrives (live, with JavaScript),
      // and the reply must be unread in the list below.
      await s.page.goto(baseUrl() + "/notifications");

      const r = await as(recipient, js);
      await r.page.goto(baseUrl() + "/messages");
      await r.page.locator("section[aria-label='Message requests'] a", { hasText: sender.name }).click();
      await r.page.waitForURL(new RegExp(`/messages/${id}/request$`));
      expect(await r.page.locator(".message-list").textContent()).toContain(`Hello ${run} <b>there</b>`);
      await r.page.getByRole("button", { name: "Accept", exact: true }).click();
      await r.page.waitForURL(new RegExp(`/messages/${id}/reply$`));
      await r.page.fill("#reply-body", `Welcome ${run}`);
      // With JavaScript the reply shows before the server has it: wait for the server's answer.
      await Promise.all([
        r.page.waitForResponse((res) => res.request().method() === "POST" && res.url().includes(`/messages/${id}`)),
        r.page.getByRole("button", { name: "Send", exact: true }).click(),
      ]);
      await r.page.locator(".message.mine", { hasText: `Welcome ${run}` }).waitFor();

      await s.page.goto(baseUrl() + "/messages");
      expect(await s.page.locator(".conversation.unread").textContent()).toContain(`Welcome ${run}`);
      await s.page.locator(".conversation a").first().click();
      await s.page.locator(".message", { hasText: `Welcome ${run}` }).waitFor();
      expect(s.errors).toEqual([]);
      expect(r.errors).toEqual([]);
      await s.ctx.close();
      await r.ctx.close();
    });
  }
});
