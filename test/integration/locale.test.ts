import { describe, expect, it } from "vitest";
import { baseUrl, get, signUp, waitForImports } from "../support/http";

// Issue 32, point 5 (DECISIONS 205): a page's amounts are written in the reader's locale, from
// the request's Accept-Language; none (or one Intl cannot format) reads en-US as before. The CSV
// export and the JSON API stay machine-readable whatever the browser asks for.

const STATEMENT = [
  "date,type,symbol,quantity,price,fee,currency,amount,asset_class,account",
  "2024-01-02,deposit,,,,,USD,20000,,main",
  "2024-01-03,buy,AAPL,10,1234.56,2.50,USD,,stock,main",
  "2024-02-01,sell,AAPL,10,1300.00,2.50,USD,,stock,main",
].join("\n");

async function uploadStatement(cookie: string) {
  const form = new FormData();
  form.append("file", new Blob([STATEMENT]), "statement.csv");
  const res = await fetch(`${baseUrl()}/api/statements`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: baseUrl() },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const [done] = await waitForImports(cookie, { timeoutMs: 60_000 });
  expect(done, JSON.stringify(done)).toMatchObject({ state: "done", error: null });
}

const page = async (path: string, cookie: string, acceptLanguage?: string) => {
  const res = await get(path, { cookie, headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} });
  expect(res.status).toBe(200);
  return res.text();
};

/** The root loader's data as the page hands it to hydration. */
const rootLocale = (html: string) => /"root":\{[^]*?"locale":"([^"]+)"/.exec(html)?.[1];

describe("amounts in the reader's locale", () => {
  it("writes 1.234,56 for de-DE and 1,234.56 for en-US on the same trader's pages", async () => {
    const { cookie } = await signUp();
    await uploadStatement(cookie);

    const german = await page("/profile/history", cookie, "de-DE,de;q=0.9,en;q=0.8");
    // The no-break space Intl puts before a sign that follows the amount.
    expect(german).toContain("1.234,56\u00a0$");
    expect(german).toContain("2,50\u00a0$");
    expect(german).not.toContain("$1,234.56");
    expect(rootLocale(german)).toBe("de-DE");

    const american = await page("/profile/history", cookie, "en-US,en;q=0.9");
    expect(american).toContain("$1,234.56");
    expect(american).toContain("$2.50");
    expect(american).not.toContain("1.234,56");
    expect(rootLocale(american)).toBe("en-US");

    // A browser asking for French gets its narrow no-break spaces; one asking for nothing Intl
    // knows, or for nothing at all, gets en-US.
    expect(await page("/profile/history", cookie, "fr-FR")).toContain("1\u202f234,56\u00a0$US");
    expect(await page("/profile/history", cookie, "xx-YY, *;q=0.1")).toContain("$1,234.56");
    expect(await page("/profile/history", cookie)).toContain("$1,234.56");

    // The report's own amounts follow the locale too; its percentages read as the card draws them.
    const stats = await page("/profile/stats", cookie, "de-DE");
    expect(stats).toMatch(/Total P&amp;L<\/a>.*?<dd>−?[\d.]+,\d\d\u00a0\$<\/dd>/s);
    expect(stats).not.toMatch(/\$\d/);
    expect(stats).toMatch(/[+−]\d+\.\d%/);
  }, 120_000);

  it("keeps the CSV export and the JSON API machine-readable whatever the browser asks for", async () => {
    const { cookie } = await signUp();
    await uploadStatement(cookie);
    const de = { "accept-language": "de-DE" };
    const csv = await (await get("/api/portal/trades.csv", { cookie, headers: de })).text();
    expect(csv).toMatch(/^.*\bprice\b.*$/m);
    expect(csv).toContain(",1234.56,");
    expect(csv).toMatch(/2024-01-03T\d\d:\d\d:\d\d/);
    expect(csv).not.toContain("1.234,56");
    const api = (await (await get("/api/portal/trades", { cookie, headers: de })).json()) as {
      data: { price: number; fee: number }[];
    };
    expect(api.data.map((t) => t.price).sort()).toEqual([1234.56, 1300]);
  }, 120_000);
});
