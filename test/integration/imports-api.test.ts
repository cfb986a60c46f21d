import { describe, expect, it } from "vitest";
import { baseUrl, get, signUp, waitForImports, type ImportRow } from "../support/http";

// GET /api/portal/imports and the account page's progress, on the shared test server.

const demoToken = () =>
  `public-sandbox-user_good_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function link(cookie: string) {
  const res = await fetch(baseUrl() + "/api/finance/plaid/exchange-public-token", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ public_token: demoToken() }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { accounts: { id: number; import_id: number; status: string }[] } }).data
    .accounts[0]!;
}

async function imports(cookie: string) {
  const res = await get("/api/portal/imports", { cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return ((await res.json()) as { data: ImportRow[] }).data;
}

describe("GET /api/portal/imports", () => {
  it("needs a session and shows only the caller's own imports", async () => {
    expect((await get("/api/portal/imports")).status).toBe(401);
    const alice = await signUp();
    const bob = await signUp();
    const linked = await link(alice.cookie);
    expect(linked.status).toBe("importing");
    const mine = await imports(alice.cookie);
    expect(mine.map((i) => i.id)).toEqual([linked.import_id]);
    expect(mine[0]).toMatchObject({ linked_account_id: linked.id, reason: "link" });
    expect(["queued", "waiting_for_provider", "fetching", "mapping", "grading", "done"]).toContain(mine[0]!.state);
    expect(await imports(bob.cookie)).toEqual([]);
    const [done] = await waitForImports(alice.cookie);
    expect(done).toMatchObject({ state: "done", error: null });
    expect(done!.fetched).toBe(done!.total);
    // A job per page of 500, then the holdings twice (the simulator's rate limit answers the first).
    expect(done!.attempts).toBe(Math.ceil(done!.total! / 500) + 2);
    expect(Array.isArray(done!.skipped)).toBe(true);
    for (const s of done!.skipped) expect(s).toEqual({ reason: expect.any(String), count: expect.any(Number) });
  });
});

describe("/profile/account while an import runs", () => {
  it("shows a progress bar, and without JavaScript refreshes itself until the import is done", async () => {
    const { cookie } = await signUp();
    await link(cookie);
    const during = await (await get("/profile/account", { cookie })).text();
    expect(during).toContain('data-testid="import-progress"');
    expect(during).toMatch(/<progress[^>]*aria-label="Import of Platypus Brokerage/);
    expect(during).toMatch(/<noscript><meta http-equiv="refresh" content="2; url=\/profile\/account"\/?><\/noscript>/);
    expect(during).toMatch(/Your trades are importing\. <a[^>]*href="\/profile\/account"[^>]*>Refresh<\/a>/);
    await waitForImports(cookie);
    const after = await (await get("/profile/account", { cookie })).text();
    expect(after).toContain('data-state="done"');
    expect(after).not.toContain('http-equiv="refresh"');
    expect(after).not.toContain("Your trades are importing.");
  });
});
