import { describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";
import { exchange } from "../support/plaid-link";

// Issue 32, point 2: a trader's base currency, chosen in settings without JavaScript. A change
// re-makes their grade as a job queued with it, and the page and a notification say so.

const RUN = Date.now().toString(36);

type Note = { kind: string; text: string; url: string };
async function notes(cookie: string): Promise<Note[]> {
  const res = await get("/api/portal/notifications?page_size=50", { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Note[] }).data;
}

/** The base currency select's options and which is selected, from the settings page's HTML. */
function baseCurrencySelect(html: string): { options: string[]; selected: string[] } {
  const select = /<select[^>]*name="base_currency"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
  const options = [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]!);
  const selected = [...select.matchAll(/<option value="([^"]*)" selected=""/g)].map((m) => m[1]!);
  return { options, selected };
}

const form = (username: string, base_currency: string) => ({
  username,
  first_name: "",
  last_name: "",
  show_amounts: "percentages",
  time_zone: "UTC",
  base_currency,
});

describe("base currency in settings", () => {
  it("re-makes a graded trader's grade in euros as a job, and says so on the page and in a notification", async () => {
    const trader = await signUp();
    await exchange(baseUrl(), trader.cookie, `user_good_fx${RUN}`);
    expect((await waitForImports(trader.cookie, { timeoutMs: 90_000 })).map((i) => i.state)).toEqual(["done"]);
    const page = await (await get("/user/settings", { cookie: trader.cookie })).text();
    const before = baseCurrencySelect(page);
    expect(before.selected).toEqual(["USD"]);
    expect(before.options).toEqual(expect.arrayContaining(["USD", "EUR", "GBP", "CAD", "CHF", "JPY", "AUD"]));
    expect(page).toContain("Euro (EUR)");

    const saved = await postForm("/user/settings", form(`fx_${RUN}`, "EUR"), { cookie: trader.cookie });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/user/settings?done=regrading");
    const after = await (await get(saved.headers.get("location")!, { cookie: trader.cookie })).text();
    expect(after).toContain("Your grade is being re-made in euros.");
    expect(baseCurrencySelect(after).selected).toEqual(["EUR"]);

    // The job re-makes the grade from the stored history and tells the trader.
    const deadline = Date.now() + 60_000;
    let remade: Note | undefined;
    while (!remade && Date.now() < deadline) {
      remade = (await notes(trader.cookie)).find((n) => n.kind === "grade_recomputed");
      if (!remade) await new Promise((r) => setTimeout(r, 200));
    }
    expect(remade?.text).toMatch(/^Your grade was re-made in euros: /);
    expect(remade?.url).toBe("/profile");
    // The new grade is in euros: its ledger names the base and carries the ECB's rates, and the
    // report says what the dollar did to a record held in dollars.
    const ledger = (await (await get("/api/portal/ledger", { cookie: trader.cookie })).json()) as {
      data: { baseCurrency?: string; fxRates?: { rates: { currency: string }[] } };
    };
    expect(ledger.data.baseCurrency).toBe("EUR");
    expect(new Set(ledger.data.fxRates?.rates.map((r) => r.currency))).toEqual(new Set(["USD"]));
    const stats = await (await get("/profile/stats", { cookie: trader.cookie })).text();
    expect(stats).toMatch(/came from the currency: the dollar&#x27;s (fall|rise) against the euro\./);
    // Its amounts are in euros, with the euro's sign.
    expect(stats).toMatch(/Total P&amp;L<\/a>.*?<dd>−?€[\d,]+\.\d\d<\/dd>/s);
    // So are the analytics' and the journal's amounts below the report, and the holdings'.
    const analytics = stats.slice(stats.indexOf('class="analytics"'));
    expect(analytics).toMatch(/−?€[\d,]+\.\d\d/);
    expect(analytics).not.toMatch(/\$\d/);
    const holdings = (await (await get("/api/portal/holdings", { cookie: trader.cookie })).json()) as {
      data: unknown[];
      meta: { currency: string };
    };
    expect(holdings.meta.currency).toBe("EUR");
    const holdingsPage = await (await get("/profile/holdings", { cookie: trader.cookie })).text();
    if (holdings.data.length > 0) expect(holdingsPage).not.toMatch(/\$\d/);

    // Saving again with the same currency queues nothing more.
    const again = await postForm("/user/settings", form(`fx_${RUN}`, "EUR"), { cookie: trader.cookie });
    expect(again.headers.get("location")).toBe("/user/settings?done=saved");
  }, 180_000);

  it("refuses a code it does not offer with 400, the field's error and what was sent", async () => {
    const { cookie } = await signUp();
    const bad = await postForm("/user/settings", form(`fxbad_${RUN}`, "XYZ"), { cookie });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Choose a currency from the list (for example USD or EUR).");
    expect(baseCurrencySelect(html).selected).toEqual(["XYZ"]);
    expect(html).toContain(`value="fxbad_${RUN}"`);
    // Nothing was stored.
    const page = await (await get("/user/settings", { cookie })).text();
    expect(baseCurrencySelect(page).selected).toEqual(["USD"]);
  });

  it("saves a new base currency of a trader without a grade, with nothing to re-make", async () => {
    const { cookie } = await signUp();
    const saved = await postForm("/user/settings", form(`fxnew_${RUN}`, "CAD"), { cookie });
    expect(saved.headers.get("location")).toBe("/user/settings?done=saved");
    const page = await (await get("/user/settings?done=saved", { cookie })).text();
    expect(page).toContain("Your settings are saved.");
    expect(baseCurrencySelect(page).selected).toEqual(["CAD"]);
  });
});
