import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, skipE2E, seriousViolations } from "../support/browser";
import { baseUrl, signUp } from "../support/http";

const shots = path.resolve(import.meta.dirname, "../../test-results");

describe.skipIf(skipE2E)("landing, blog, white paper, contact in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const js of [true, false]) {
    it(`follows the header's landing anchors with JavaScript ${js ? "on" : "off"}`, async () => {
      const ctx = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      await page.goto(baseUrl() + "/");
      for (const [label, id, heading] of [
        ["How it works", "how-it-works", "How it works"],
        ["Features", "features", "Features"],
        ["Roadmap", "roadmap", "Roadmap"],
      ] as const) {
        await page.locator(".nav-desktop a", { hasText: label }).click();
        await page.waitForURL(new RegExp(`#${id}$`));
        await expect
          .poll(() => page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().top < window.innerHeight), {
            timeout: 5000,
          })
          .toBe(true);
        expect(await page.locator(`#${id} h2`).first().textContent()).toContain(heading);
      }
      await page.goto(baseUrl() + "/#contact-container");
      expect(await page.locator("#contact-container h2").textContent()).toBe("Contact us");
      await ctx.close();
    });
  }

  it("sends START NOW to /signup for a visitor; a signed-in user is taken from the landing to /community", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/");
    await page.locator(".hero a", { hasText: "START NOW" }).click();
    await page.waitForURL(/\/signup$/);
    const { cookie } = await signUp();
    await ctx.addCookies([{ name: "grader_session", value: cookie.split("=")[1]!, url: baseUrl() }]);
    await page.goto(baseUrl() + "/");
    await page.waitForURL(/\/community$/);
    await ctx.close();
  });

  it("renders the mobile landing at 375 px and the desktop one at 1280 px, and saves screenshots", async () => {
    for (const [width, variant] of [
      [375, "mobile"],
      [1280, "desktop"],
    ] as const) {
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
      const page = await ctx.newPage();
      await page.goto(baseUrl() + "/");
      await page.locator(`[data-variant="${variant}"]`).waitFor();
      // Nothing overflows sideways at this width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: path.join(shots, `landing-${width}.png`), fullPage: true });
      await ctx.close();
    }
  });

  it("keeps the landing within its budgets: JavaScript ≤ 150 KB gzipped, all bytes ≤ 600 KB", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    const sizes: { type: string; bytes: number }[] = [];
    page.on("requestfinished", async (req) => {
      const s = await req.sizes();
      sizes.push({ type: req.resourceType(), bytes: s.responseBodySize + s.responseHeadersSize });
    });
    await page.goto(baseUrl() + "/", { waitUntil: "networkidle" });
    const js = sizes.filter((s) => s.type === "script").reduce((a, s) => a + s.bytes, 0);
    const all = sizes.reduce((a, s) => a + s.bytes, 0);
    console.log(
      `landing budget: JavaScript ${(js / 1024).toFixed(1)} KB, all ${(all / 1024).toFixed(1)} KB over ${sizes.length} requests`,
    );
    expect(js).toBeLessThanOrEqual(150 * 1024);
    expect(all).toBeLessThanOrEqual(600 * 1024);
    await ctx.close();
  });

  it("opens an article from the blog list", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/blogs");
    const title = (await page.locator(".articles h2").first().textContent())!;
    await page.locator(".articles a").first().click();
    await page.waitForURL(/\/blogs\/Aq7TrX8B$/);
    // A client-side navigation: the URL changes before the article has rendered.
    await page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor();
    expect(await page.locator(".blog-detail").textContent()).toContain("3 mins read");
    await expect.poll(() => page.title()).toContain(title);
    await ctx.close();
  });

  it("walks the white paper through all 13 sections with next and back with previous", async () => {
    const slugs = [
      "welcome",
      "what-is-grader",
      "we-solved-it",
      "tokenomics",
      "nfts-membership",
      "nfts-performance",
      "roadmap",
      "key-features",
      "utility",
      "revenue-streams",
      "deflation",
      "involved",
      "disclaimer",
    ];
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/white-paper");
    expect(await page.locator(".toc li").count()).toBe(13);
    await page.locator(".toc a").first().click();
    for (let i = 0; i < slugs.length; i++) {
      await page.waitForURL((url) => url.pathname === `/white-paper/${slugs[i]}`);
      await expect.poll(() => page.locator(".muted.small").first().textContent()).toContain(`Section ${i + 1} of 13`);
      expect(await page.locator(".prose h1").textContent()).toBeTruthy();
      if (i < slugs.length - 1) await page.locator('a[rel="next"]').click();
    }
    expect(await page.locator('a[rel="next"]').count()).toBe(0);
    await page.locator('a[rel="prev"]').click();
    await page.waitForURL((url) => url.pathname === "/white-paper/involved");
    await ctx.close();
  });

  for (const js of [true, false]) {
    it(`sends the contact form with JavaScript ${js ? "on" : "off"}, errors first`, async () => {
      const ctx = await browser.newContext({ javaScriptEnabled: js });
      const page = await ctx.newPage();
      await page.goto(baseUrl() + "/contact");
      await page.fill("#f-name", "Grace Hopper");
      await page.fill("#f-email", "grace@example.com");
      await page.fill("#f-message", "short");
      await page.click("form.card button[type=submit]");
      await page.getByText("Write at least 10 characters.").waitFor();
      expect(await page.inputValue("#f-name")).toBe("Grace Hopper");
      await page.fill("#f-message", "Please export all the data you hold about me.");
      await page.click("form.card button[type=submit]");
      await page.getByText("Thank you!").waitFor();
      await ctx.close();
    });
  }

  it("has no serious or critical axe violations on the landing (both widths), blog, white paper and contact pages", async () => {
    for (const [width, paths] of [
      [
        1280,
        [
          "/",
          "/blogs",
          "/blogs/Aq7TrX8B",
          "/white-paper",
          "/white-paper/what-is-grader",
          "/contact",
          "/privacy",
          "/m/guide",
        ],
      ],
      [375, ["/", "/blogs/Vm9FaTcN", "/contact"]],
    ] as const) {
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
      const page = await ctx.newPage();
      for (const p of paths) {
        await page.goto(baseUrl() + p);
        expect(await seriousViolations(page), `${p} at ${width}px`).toEqual([]);
      }
      await ctx.close();
    }
  });
});
