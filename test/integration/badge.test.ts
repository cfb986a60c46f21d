import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

// The embeddable badge and card: public, cacheable, loadable and frameable by any site (those two
// paths only), no cookies, and dollars only for a trader who shows amounts.

async function api(path: string, cookie: string, body: unknown = {}) {
  const res = await fetch(baseUrl() + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } };
}
const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function gradedTrader(showAmounts: boolean) {
  const { cookie } = await signUp();
  expect(
    (await api("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() })).status,
  ).toBeLessThan(300);
  // The history imports as jobs and ends with an automatic grade, which this call finds (2002).
  await waitForImports(cookie);
  const graded = await api("/api/finance/plaid/evaluation", cookie);
  expect([200, 2002]).toContain(graded.body.data?.code);
  const id = ((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id;
  if (showAmounts) {
    const saved = await postForm(
      "/user/settings",
      { username: `badge_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`, show_amounts: "amounts" },
      { cookie },
    );
    expect(saved.status).toBeLessThan(400);
  }
  return { cookie, id, code: graded.body.data!.verification_code as string, tier: graded.body.data!.tier as string };
}

describe("the badge and the embeddable card", () => {
  let hidden: Awaited<ReturnType<typeof gradedTrader>>;
  let shown: Awaited<ReturnType<typeof gradedTrader>>;

  beforeAll(async () => {
    hidden = await gradedTrader(false);
    shown = await gradedTrader(true);
  });

  it("serves the badge as a public, cacheable, cross-origin SVG without cookies", async () => {
    for (const t of [hidden, shown]) {
      const res = await get(`/u/${t.id}/badge.svg`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("image/svg+xml");
      expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
      expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(res.headers.get("set-cookie")).toBeNull();
      const svg = await res.text();
      expect(svg).toMatch(/^<\?xml[^>]*>\s*<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).toContain(t.tier);
      expect(svg).toMatch(/[★☆]{5}/);
      expect(svg).toMatch(/TWR [+\u2212]?[\d.,KMB]+%|TWR —/);
      expect(svg).toContain("verified");
      expect(svg).toContain(`/verify/${t.code}`);
      if (t === hidden) expect(svg).not.toContain("$");
      else expect(svg).toMatch(/P&amp;L [+\u2212]?\$/);
    }
  });

  it("serves the card that any site may frame, and keeps framing refused elsewhere", async () => {
    for (const t of [hidden, shown]) {
      const res = await get(`/embed/u/${t.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("x-frame-options")).toBeNull();
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors *");
      expect(csp).not.toContain("frame-ancestors 'none'");
      expect(res.headers.get("set-cookie")).toBeNull();
      const html = await res.text();
      expect(html).toContain(t.tier);
      expect(html).toContain("Time-weighted return");
      expect(html).toContain(`/verify/${t.code}`);
      expect(html).not.toContain("<script");
      if (t === hidden) expect(html).not.toContain("$");
      else expect(html).toMatch(/Total P&amp;L [+\u2212]?\$/);
    }
    const other = await get("/verify");
    expect(other.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(other.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("answers 404 for unknown and ungraded traders", async () => {
    const ungraded = await signUp();
    const id = ((await (await get("/api/user/info", { cookie: ungraded.cookie })).json()) as { data: { id: number } })
      .data.id;
    for (const path of [
      `/u/${id}/badge.svg`,
      `/embed/u/${id}`,
      "/u/999999999/badge.svg",
      "/embed/u/999999999",
      "/embed/u/abc",
    ])
      expect((await get(path)).status, path).toBe(404);
  });

  it("offers both snippets on the profile to copy", async () => {
    const html = await (await get("/profile", { cookie: hidden.cookie })).text();
    expect(html).toContain("Show your grade on your site");
    expect(html).toContain(`/u/${hidden.id}/badge.svg`);
    expect(html).toContain(`/embed/u/${hidden.id}`);
    expect(html).toMatch(/<textarea[^>]*readOnly|<textarea[^>]*readonly/);
  });
});
