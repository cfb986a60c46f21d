import { describe, expect, it } from "vitest";
import { baseUrl, get, postForm, signUp, waitForImports } from "../support/http";

// Unlinking never erases history: an account that was part of a grade and is then unlinked is
// disclosed by the next grade, on the signed record, the verify page, the stats tab and the share page.

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

describe("unlinking after a grade", () => {
  it("is disclosed by the next grade with the account's kind and last known return", async () => {
    const { cookie } = await signUp();
    for (let i = 0; i < 2; i++)
      expect(
        (await api("/api/finance/plaid/exchange-public-token", cookie, { public_token: demoToken() })).status,
      ).toBeLessThan(300);
    // The histories import as jobs and end with an automatic grade, which this call finds (2002).
    await waitForImports(cookie);
    const first = await api("/api/finance/plaid/evaluation", cookie);
    expect([200, 2002]).toContain(first.body.data?.code);
    const firstCode = first.body.data!.verification_code as string;
    const firstRecord = (await (await get(`/verify/${firstCode}/record.json`)).json()) as {
      record: { returns: { twr: number }; unlinked: unknown[]; accounts: Record<string, number> };
    };
    expect(firstRecord.record.unlinked).toEqual([]);
    const linked = firstRecord.record.accounts.plaid!;
    expect(linked).toBeGreaterThanOrEqual(2);

    const accounts = (
      (await (await get("/api/finance/plaid/accounts", { cookie })).json()) as { data: { id: number }[] }
    ).data;
    const asked = await postForm("/profile/account", { intent: "unlink", id: String(accounts[0]!.id) }, { cookie });
    expect(asked.status).toBe(200);
    const done = await postForm(
      "/profile/account",
      { intent: "unlink", id: String(accounts[0]!.id), confirm: "yes" },
      { cookie },
    );
    expect(done.status).toBe(302);

    const second = await api("/api/finance/plaid/evaluation", cookie);
    expect(second.body.data?.code).toBe(200);
    const code = second.body.data!.verification_code as string;
    expect(code).not.toBe(firstCode);
    const entry = (await (await get(`/verify/${code}/record.json`)).json()) as {
      record: { unlinked: { kind: string; twr: number }[]; accounts: Record<string, number> };
    };
    expect(entry.record.unlinked).toEqual([{ kind: "plaid", twr: firstRecord.record.returns.twr }]);
    expect(entry.record.accounts.plaid).toBe(linked - 1);

    const pct = Math.abs(firstRecord.record.returns.twr * 100).toLocaleString("en-US", { maximumFractionDigits: 1 });
    const sign = firstRecord.record.returns.twr < 0 ? "\u2212" : firstRecord.record.returns.twr > 0 ? "+" : "";
    const disclosure = `1 account with a ${sign}${pct} % record unlinked since the last grade`;
    const id = ((await (await get("/api/user/info", { cookie })).json()) as { data: { id: number } }).data.id;
    for (const [path, withCookie] of [
      [`/verify/${code}`, false],
      ["/profile/stats", true],
      [`/share/open_graph/${id}`, false],
    ] as const) {
      const res = await get(path, withCookie ? { cookie } : {});
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain(disclosure);
    }
    // The earlier grade's record is unchanged and discloses nothing.
    expect(await (await get(`/verify/${firstCode}`)).text()).not.toContain("unlinked since the last grade");
  });
});
