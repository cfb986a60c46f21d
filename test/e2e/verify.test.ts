import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, signUp, waitForImports } from "../support/http";

// /verify in a browser with JavaScript off (375 and 1280 px): type a code in any case, reach the
// record with the card and the signed-record download; a wrong code stays on the form with the
// message (the 404 page keeps the form); axe (JavaScript on) finds no serious issue.

const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

let traderCookie = "";

async function gradedCode(): Promise<string> {
  const { cookie } = await signUp();
  traderCookie = cookie;
  const post = (path: string, body: unknown) =>
    fetch(baseUrl() + path, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
  expect((await post("/api/finance/plaid/exchange-public-token", { public_token: demoToken() })).status).toBeLessThan(
    300,
  );
  // The history imports as jobs and ends with an automatic grade, which this call finds (2002).
  await waitForImports(cookie);
  const graded = (await (await post("/api/finance/plaid/evaluation", {})).json()) as {
    data: { code: number; verification_code: string };
  };
  expect([200, 2002]).toContain(graded.data.code);
  // The card is rendered by the share flow; the record page shows the same image.
  await get(
    `/share/open_graph/${((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id}`,
  );
  return graded.data.verification_code;
}

describe.skipIf(skipE2E)("/verify without JavaScript", () => {
  let browser: Browser;
  let code: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    code = await gradedCode();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const width of [375, 1280]) {
    it(`finds a grade by its code typed loosely, and says so for a wrong one (${width} px)`, async () => {
      const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(baseUrl() + "/verify");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Verify a grade");
      await page.getByLabel("Verification code").fill(` ${code.toLowerCase().replace(/-/g, " ")} `);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(new RegExp(`/verify/${code}$`));
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Verified evaluation");
      const body = await page.locator("body").innerText();
      for (const text of [
        "Time-weighted return",
        "Max drawdown",
        "Win rate",
        "Accounts linked",
        "the signature and hash check out",
      ])
        expect(body).toContain(text);
      const card = page.getByRole("img", { name: new RegExp(`The card of this grade.*${code}`) });
      const src = (await card.getAttribute("src"))!;
      expect(src).toMatch(/^\/cards\/[0-9a-f]{64}\.png$/);
      const png = await get(src);
      expect(png.headers.get("content-type")).toBe("image/png");
      expect(await page.getByRole("link", { name: "Download the signed record" }).getAttribute("href")).toBe(
        `/verify/${code}/record.json`,
      );

      await page.getByLabel("Verification code").fill("GR-ZZZZ-ZZZZ");
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(/\/verify\/GR-ZZZZ-ZZZZ$/);
      expect(await page.getByRole("alert").textContent()).toBe("No grade has this code");
      expect(await page.getByLabel("Verification code").inputValue()).toBe("GR-ZZZZ-ZZZZ");
      await ctx.close();
    });

    it(`has no serious axe issue and no sideways scroll on the form, the record and the 404 (${width} px, JavaScript on for axe)`, async () => {
      const ctx = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      for (const path of ["/verify", `/verify/${code}`, "/verify/GR-ZZZZ-ZZZZ"]) {
        await page.goto(baseUrl() + path);
        expect(await seriousViolations(page), path).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
      }
      await ctx.close();
    });
  }

  it("offers the badge and embed snippets on the profile, inside a phone's width", async () => {
    const ctx = await sessionContext(browser, traderCookie, { viewport: { width: 375, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/profile");
    await page.getByText("Show your grade on your site").click();
    const badge = page.getByLabel("Badge (image with a link)");
    expect(await badge.inputValue()).toMatch(/<img src="[^"]+\/u\/\d+\/badge\.svg"/);
    expect(await page.getByLabel("Card (frame)").inputValue()).toMatch(/<iframe src="[^"]+\/embed\/u\/\d+"/);
    expect(
      await page
        .getByRole("img", { name: "Your grade badge" })
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    // The snippets stay inside the phone's width (the header of a graded trader is checked elsewhere).
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll(".embed-snippets, .embed-snippets *")].every(
          (e) => e.getBoundingClientRect().right <= window.innerWidth,
        ),
      ),
    ).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await ctx.close();
  });
});
