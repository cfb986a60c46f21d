import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const skipE2E = process.env.SKIP_E2E === "1";

/** Debian's Chromium, headless, with the flags this sandbox needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. Install it with "sudo apt-get install -y chromium" ` +
        `(or point CHROMIUM_PATH at a Chromium binary). Set SKIP_E2E=1 to skip the browser tests explicitly.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
      // Amounts follow the browser's language (DECISIONS 205): the tests read them in en-US whatever
      // the machine's LANG; a test that wants another sets the context's locale.
      "--lang=en-US",
    ],
  });
}

/** A browser context carrying a session cookie ("grader_session=…") for the test server (or `url`). */
export async function sessionContext(
  browser: Browser,
  cookie: string,
  options: BrowserContextOptions = {},
  url?: string,
): Promise<BrowserContext> {
  const { baseUrl } = await import("./http");
  const ctx = await browser.newContext(options);
  await ctx.addCookies([{ name: "grader_session", value: cookie.split("=")[1]!, url: url ?? baseUrl() }]);
  return ctx;
}

/** A fresh signed-up user's browser context and page (JavaScript on or off). */
export async function signedInPage(browser: Browser, js: boolean, viewport = { width: 1280, height: 900 }) {
  const { signUp } = await import("./http");
  const { cookie, email } = await signUp();
  const ctx = await sessionContext(browser, cookie, { javaScriptEnabled: js, viewport });
  return { ctx, page: await ctx.newPage(), cookie, email };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical violations on the whole page (injected through DevTools, past our CSP). */
export async function seriousViolations(page: Page) {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  })) as { id: string; impact: string; targets: string[] }[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
