import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, postForm, signUp } from "../support/http";

// Live trade alerts in a real browser with JavaScript off, on a phone-sized screen (issue 34
// point 3): the trader turns "Share my trades live" on in the settings; a follower gets the
// alerts from the trader's profile and stops them, each a plain form post.

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(-8);
let seq = 0;

async function member(first: string, last: string) {
  const { cookie } = await signUp();
  const username = `a${run}_${seq++}`;
  const res = await postForm(
    "/user-questions",
    { username, first_name: first, last_name: last, experience: "1-3" },
    { cookie },
  );
  expect(res.status).toBe(302);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id };
}

describe.skipIf(skipE2E)("live trade alerts without JavaScript", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a trader opts in, a follower subscribes and unsubscribes, on a 375 px screen", async () => {
    const trader = await member("Tara", "Trader");
    const fan = await member("Finn", "Follower");
    const phone = { javaScriptEnabled: false, viewport: { width: 375, height: 740 } };

    const tctx = await sessionContext(browser, trader.cookie, phone);
    const tpage = await tctx.newPage();
    tpage.setDefaultTimeout(10_000);
    await tpage.goto(baseUrl() + "/user/settings");
    await tpage.getByRole("link", { name: "Live trade alerts" }).click();
    await expect.poll(() => new URL(tpage.url()).pathname).toBe("/user/settings/live-alerts");
    const box = tpage.getByLabel("Share my trades live");
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await tpage.getByLabel(/End of the trade’s day/i).check();
    await tpage.getByLabel(/Hidden: the share of my portfolio only/).check();
    await tpage.getByRole("button", { name: "Save live trade alerts" }).click();
    await tpage.getByRole("status").filter({ hasText: "Your trades are shared live" }).waitFor();
    // Saved, as a reload shows.
    await tpage.reload();
    expect(await tpage.getByLabel("Share my trades live").isChecked()).toBe(true);
    expect(await tpage.getByLabel(/End of the trade’s day/i).isChecked()).toBe(true);
    await tctx.close();
    // The page is accessible (axe runs as a script: in a context with JavaScript on).
    const actx = await sessionContext(browser, trader.cookie, { viewport: phone.viewport });
    const apage = await actx.newPage();
    await apage.goto(baseUrl() + "/user/settings/live-alerts");
    expect(await seriousViolations(apage)).toEqual([]);
    await actx.close();

    const fctx = await sessionContext(browser, fan.cookie, phone);
    const fpage = await fctx.newPage();
    fpage.setDefaultTimeout(10_000);
    await fpage.goto(`${baseUrl()}/u/${trader.id}`);
    await fpage.getByTestId("trade-alerts").filter({ hasText: "follow to get alerts" }).waitFor();
    await fpage.getByRole("button", { name: "Follow", exact: true }).click();
    await fpage.getByRole("button", { name: "Get live trade alerts" }).click();
    await fpage.getByRole("button", { name: "Stop live trade alerts" }).waitFor();
    expect(new URL(fpage.url()).pathname).toBe(`/u/${trader.id}`);
    // Nothing sticks out sideways on the phone.
    const widths = await fpage.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
    await fpage.getByRole("button", { name: "Stop live trade alerts" }).click();
    await fpage.getByRole("button", { name: "Get live trade alerts" }).waitFor();
    await fctx.close();
  }, 90_000);
});
