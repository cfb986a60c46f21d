import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

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

/** A signed-up trader with a grade of the demo broker, made over HTTP. */
async function gradedTrader() {
  const { cookie } = await signUp();
  await post("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() });
  // The history imports as jobs and ends with an automatic grade, which this call finds (2002).
  await waitForImports(cookie);
  const graded = await post("/api/finance/plaid/evaluation", cookie);
  expect([200, 2002]).toContain(graded.data?.code);
  const info = (await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } };
  return { cookie, id: info.data.id };
}

const SHOTS = process.env.STATS_SHOTS; // a folder to keep screenshots in, when set

describe.skipIf(skipE2E)("the Stats tab: analytics, journal and glossary", () => {
  let browser: Browser;
  let trader: { cookie: string; id: number };
  beforeAll(async () => {
    browser = await launchBrowser();
    trader = await gradedTrader();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const js of [true, false]) {
    for (const width of [375, 1280]) {
      it(`renders readable at ${width} px with JavaScript ${js ? "on" : "off"}: axes, tables, calendar and journal`, async () => {
        const ctx = await sessionContext(browser, trader.cookie, {
          javaScriptEnabled: js,
          viewport: { width, height: 900 },
        });
        const page = await ctx.newPage();
        const res = await page.goto(baseUrl() + "/profile/stats");
        expect(res?.status()).toBe(200);
        // The equity chart has labelled axes and the benchmark on the same scale.
        const equity = page.locator(".chart-figure").first();
        expect(await equity.locator(".chart-y-label").textContent()).toBe("Index (1.00 = start)");
        const xLabels = await equity.locator(".x-tick").allTextContents();
        expect(xLabels.length).toBeGreaterThanOrEqual(2);
        expect(xLabels.every((t) => /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|\d{4})/.test(t))).toBe(true);
        expect((await equity.locator(".y-tick").allTextContents()).every((t) => /^\d+\.\d\d$/.test(t))).toBe(true);
        // Axis labels never overlap one another (x) and stay readable (≥ 11 px) at any width.
        const boxes = await equity.locator(".x-tick").evaluateAll((els) =>
          els
            .filter((e) => getComputedStyle(e).display !== "none")
            .map((e) => e.getBoundingClientRect())
            .map((r) => [r.left, r.right]),
        );
        expect(boxes.length).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < boxes.length; i++) expect(boxes[i]![0]).toBeGreaterThan(boxes[i - 1]![1]);
        expect(
          await equity
            .locator(".x-tick")
            .first()
            .evaluate((e) => parseFloat(getComputedStyle(e).fontSize)),
        ).toBeGreaterThanOrEqual(11);
        expect(await page.locator(".chart-legend").first().textContent()).toMatch(/You.*S&P 500, on the same scale/);
        await page.getByRole("heading", { name: "Monthly returns" }).waitFor();
        await page.getByRole("heading", { name: "By weekday" }).waitFor();
        await page.getByRole("heading", { name: "By holding time" }).waitFor();
        await page.getByRole("heading", { name: /Distribution of round-trip returns/ }).waitFor();
        expect(await page.locator("table.calendar").count()).toBeGreaterThan(0);
        await page.getByText(/likely your edge is real/).waitFor();
        const journal = page.locator("table.journal tbody tr");
        expect(await journal.count()).toBe(25);
        // Nothing in the tab sticks out sideways on a phone: wide tables scroll inside their own box.
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("main *")]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest(".scroll-x, .tabs"))
            .map((el) => `${el.tagName}.${el.className}`),
        );
        expect(wide).toEqual([]);
        if (SHOTS) {
          const parts = {
            charts: ".charts",
            figures: ".figures",
            monthly: "[aria-labelledby=monthly-title]",
            calendar: "[aria-labelledby=calendar-title]",
            breakdowns: "[aria-labelledby=breakdowns-title]",
            distribution: "[aria-labelledby=distribution-title]",
            journal: "#journal",
          };
          for (const [name, sel] of Object.entries(parts))
            await page
              .locator(sel)
              .first()
              .screenshot({ path: `${SHOTS}/${width}-${js ? "js" : "nojs"}-${name}.png` });
        }

        // The journal's GET form filters without JavaScript as with it.
        await page.selectOption("#j-outcome", "loss");
        await page.selectOption("#j-sort", "return");
        await page.selectOption("#j-order", "asc");
        await page.getByRole("button", { name: "Show" }).click();
        await page.waitForURL(/outcome=loss/);
        // The page's own links are rendered from the new query once it has loaded.
        await page.locator('a[href*="round_trips.csv?outcome=loss"]').waitFor();
        const returns = (await page.locator("table.journal tbody tr td:nth-child(3)").allTextContents()).map((t) =>
          Number(t.replace("−", "-").replace("%", "")),
        );
        expect(returns.length).toBeGreaterThan(0);
        expect(returns.every((r) => r < 0)).toBe(true);
        expect(returns).toEqual([...returns].sort((a, b) => a - b));
        // The CSV link carries the same filters.
        expect(await page.getByRole("link", { name: "these round trips (CSV)" }).getAttribute("href")).toMatch(
          /^\/api\/portal\/round_trips\.csv\?outcome=loss&sort_by=return&order=asc$/,
        );
        if (js && width === 1280) {
          // JavaScript adds the hovered day's figures to the chart.
          const plot = page.locator(".chart-plot").first();
          const box = (await plot.boundingBox())!;
          await plot.hover({ position: { x: box.width * 0.25, y: box.height / 2 } });
          expect(await plot.locator(".chart-hover").textContent()).toMatch(
            /^\d{4}-\d\d-\d\d \d+\.\d\d · S&P 500 \d+\.\d\d$/,
          );
          expect(await seriousViolations(page)).toEqual([]);
          // A figure's explanation shows on keyboard focus.
          const term = page.locator(".figures .term a").first();
          await term.focus();
          const tip = page.locator(".figures .term .tip").first();
          expect(await tip.isVisible()).toBe(true);
          expect(await term.getAttribute("aria-describedby")).toBe(await tip.getAttribute("id"));
        }
        await ctx.close();
      });
    }
  }

  it("another trader sees no money column when amounts are hidden, and the journal refuses P&L sorting", async () => {
    const viewer = await signUp();
    const ctx = await sessionContext(browser, viewer.cookie, { viewport: { width: 375, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${baseUrl()}/u/${trader.id}/stats?sort_by=pnl`);
    await page.getByText(/Some filters were not understood/).waitFor();
    expect(await page.locator("table.journal thead th").allTextContents()).not.toContain("P&L");
    expect(await page.getByRole("link", { name: "these round trips (CSV)" }).count()).toBe(0);
    expect(await page.locator("text=$").count()).toBe(0);
    expect(await page.content()).not.toMatch(/\$\d/);
    expect(await seriousViolations(page), JSON.stringify(await seriousViolations(page))).toEqual([]);
    await ctx.close();
  });

  it("the page agrees with itself: day counts, drawdown figure and chart, the calendar's year, no hour table for dates, one minus sign", async () => {
    const ctx = await sessionContext(browser, trader.cookie, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/profile/stats");
    const figure = async (label: string) =>
      (await page
        .locator(".figures > div")
        .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}`) }) })
        .first()
        .locator("dd")
        .textContent())!;
    const pct = (t: string) => Number(t.replace("\u2212", "-").replace("%", "").replace("+", "")) / 100;
    // Day counts: the active days are among the record's days.
    const [days, active] = (await figure("Track record")).match(/[\d,]+/g)!.map((n) => Number(n.replaceAll(",", "")));
    expect(active!).toBeLessThanOrEqual(days!);
    // The drawdown chart's lowest point is the max drawdown beside it (to a tenth of a point).
    const maxDrawdown = pct(await figure("Max drawdown"));
    const chart = page.locator(".chart-figure").nth(1);
    const ticks = (await chart.locator(".y-tick").allTextContents()).map(pct);
    const [lo, hi] = [Math.min(...ticks), Math.max(...ticks)];
    const d = (await chart.locator('path[fill="none"]').last().getAttribute("d"))!;
    const ys = [...d.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
    const low = lo + (1 - Math.max(...ys) / 1000) * (hi - lo);
    expect(Math.abs(low - maxDrawdown)).toBeLessThan(0.001);
    // The calendar is the last twelve months up to today: from last year's month to this one, no day to come.
    const today = new Date().toISOString().slice(0, 10);
    const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    const caption = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
    const yearAgo = new Date(
      Date.UTC(Number(today.slice(0, 4)) - 1, Number(today.slice(5, 7)) - 1, Number(today.slice(8)) + 1),
    );
    const captions = await page.locator("table.calendar caption").allTextContents();
    expect(captions[0]).toBe(caption(yearAgo.toISOString()));
    expect(captions.at(-1)).toBe(caption(today));
    const shownDays = (
      await page.locator("table.calendar").last().locator("td span[aria-hidden], td.off").allTextContents()
    ).map(Number);
    expect(Math.max(...shownDays)).toBe(Number(today.slice(8)));
    // Open positions carried at the broker's last prices: the months after them show no return, and the page says so.
    const note = page.getByTestId("priced-through");
    if (await note.count()) {
      const through = (await note.textContent())!.match(/\d{4}-\d\d-\d\d/)![0];
      for (const row of await page.locator("table.monthly tbody tr").all()) {
        const year = Number(await row.locator("th").textContent());
        const cells = await row.locator("td").allTextContents();
        cells.slice(0, 12).forEach((text, i) => {
          if (`${year}-${String(i + 1).padStart(2, "0")}` > through.slice(0, 7)) expect(text).toBe("");
        });
      }
    }
    // The demo broker gives dates without times: no hour-of-day table.
    expect(await page.locator("#by-hour").count()).toBe(0);
    expect(await page.locator("[aria-labelledby=breakdowns-title]").textContent()).toMatch(/no hour of day/);
    // P&L shares only of a net result away from zero.
    const noShares = /too near zero to share out/.test(
      (await page.locator("[aria-labelledby=breakdowns-title] > p").first().textContent())!,
    );
    expect((await page.locator('th:has-text("P&L share")').count()) > 0).toBe(!noShares);
    // One minus sign: no hyphen before a figure anywhere in the report and the analytics.
    for (const sel of [".figures", ".insights", ".chart-axis", ".analytics table"]) {
      for (const text of await page.locator(sel).allTextContents()) expect(text, sel).not.toMatch(/(^|[\s(])-[\d$]/);
    }
    await ctx.close();
  });

  it("the glossary explains every figure, and the time zone setting is kept (a date-only history has no hours to move)", async () => {
    const ctx = await browser.newContext({ viewport: { width: 375, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/glossary#psr");
    await page.getByRole("heading", { level: 1, name: "Glossary" }).waitFor();
    expect(await page.locator("#psr dd").textContent()).toMatch(
      /probability that your true Sharpe ratio is above zero/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await ctx.close();
    const bad = await postForm(
      "/user/settings",
      { username: `tz${Date.now().toString(36)}`, show_amounts: "percentages", time_zone: "Mars/Olympus" },
      { cookie: trader.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/Choose a time zone from the list/);
    const ok = await postForm(
      "/user/settings",
      { username: `tz${Date.now().toString(36)}`, show_amounts: "percentages", time_zone: "Asia/Tokyo" },
      { cookie: trader.cookie },
    );
    expect(ok.headers.get("location")).toBe("/user/settings?done=saved");
    const html = await (await get("/profile/stats", { cookie: trader.cookie })).text();
    expect(html).toMatch(/the broker gives dates without times, so there is no hour of day/);
    expect(html).not.toMatch(/By hour of day/);
  });
});
