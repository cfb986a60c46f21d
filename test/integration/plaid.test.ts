import crypto from "node:crypto";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, sessionCookie, uniqueEmail, waitForImports } from "../support/http";
import { expectedDemoLedger } from "../support/plaid-expected";
import { ownDatabase, startServer, type RunningServer } from "../support/server";
import { DEMO_WEBHOOK_KID, MISMATCH_EXTRA_HON, signDemoWebhook } from "../mocks/plaid";
import { demoBrokerage, demoItemId } from "../mocks/plaid-data";

// Broker linking through Plaid in demo mode: the server's real `plaid` SDK code talks to the msw
// simulator (test/mocks/plaid.ts). Its own server, so the test can read every log line it writes.

const SPEC_406 =
  "This investment account has been associated with a Grader account. Please use a new investment account or switch to the associated Grader account.";

let server: RunningServer;
let base: string;
const seen: string[] = []; // every response body, checked for leaked tokens at the end

async function call(
  path: string,
  opts: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string>; raw?: string } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined || opts.raw !== undefined) headers["content-type"] ??= "application/json";
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(base + path, {
    method: opts.method ?? (opts.body !== undefined || opts.raw !== undefined ? "POST" : "GET"),
    headers,
    body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    redirect: "manual",
  });
  const text = await res.text();
  seen.push(text, JSON.stringify([...res.headers]));
  let json: any = null; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of any shape
  try {
    json = JSON.parse(text);
  } catch {
    /* HTML */
  }
  return { status: res.status, json, text, headers: res.headers };
}

async function newUser() {
  const res = await postForm("/signup", { email: uniqueEmail("plaid"), password: "correct horse battery" }, { base });
  expect(res.status).toBe(302);
  return sessionCookie(res);
}

// Demo usernames unique to this run, so the suite also passes on a reused PostgreSQL database.
const RUN = Date.now().toString(36);
const U = `user_good_${RUN}`;
const token = (tail: string) => `public-sandbox-${tail}-${crypto.randomBytes(4).toString("hex")}`;
const exchange = (cookie: string, publicToken: string) =>
  call("/api/finance/plaid/exchange-public-token", { body: { public_token: publicToken }, cookie });
const accounts = async (cookie: string) =>
  (await call("/api/finance/plaid/accounts", { cookie })).json.data as {
    id: number;
    trades: number;
    last_imported_at: string;
    [k: string]: unknown;
  }[];
const imports = (cookie: string) => waitForImports(cookie, { base });

const expected = expectedDemoLedger;

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: "debug", ...(await ownDatabase()) });
  base = server.url;
});

afterAll(async () => {
  await server?.stop();
});

describe("Plaid linking (demo mode, msw simulator)", () => {
  let alice: string;
  let aliceAccountId: number;

  it("has a realistic demo brokerage", () => {
    const e = expected("user_good");
    expect(e.trades).toBeGreaterThanOrEqual(150);
    expect(e.symbols).toBeGreaterThanOrEqual(15);
    expect(e.withdrawals).toBeGreaterThanOrEqual(1);
    const b = demoBrokerage("user_good");
    const months = new Set(b.transactions.map((t) => t.date.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(12);
    expect(b.transactions.some((t) => t.name.includes("partial fill"))).toBe(true);
    expect(b.transactions.some((t) => t.fees > 0)).toBe(true);
    // Deterministic: the same every time.
    expect(JSON.stringify(demoBrokerage("user_good").transactions.slice(0, 5))).toBe(
      JSON.stringify(b.transactions.slice(0, 5)),
    );
  });

  it("answers a link token (investments) and 401 without a session", async () => {
    alice = await newUser();
    const res = await call("/api/finance/plaid/link-token", { method: "POST", cookie: alice });
    expect(res.status).toBe(200);
    expect(res.json.data.link_token).toMatch(/^link-sandbox-/);
    const anon = await call("/api/finance/plaid/link-token", { method: "POST" });
    expect(anon.status).toBe(401);
    const get = await call("/api/finance/plaid/link-token", { cookie: alice });
    expect(get.status).toBe(405);
  });

  it("exchanges a public token at once, then imports the full history as jobs and grades it without a try", async () => {
    const res = await exchange(alice, token(U));
    expect(res.status).toBe(201);
    expect(res.json.data.message).toBe("Added the account successfully!");
    const e = expected(U);
    const [linked] = res.json.data.accounts;
    expect(linked).toMatchObject({ institution_name: "First Platypus Bank", created: true, status: "importing" });
    expect(linked.import_id).toBeGreaterThan(0);
    aliceAccountId = linked.id;
    const [done] = await imports(alice);
    expect(done).toMatchObject({
      id: linked.import_id,
      linked_account_id: linked.id,
      state: "done",
      error: null,
      trades_added: e.trades,
    });
    expect(done.total).toBe(demoBrokerage(U).transactions.length);
    expect(done.fetched).toBe(done.total);
    // The automatic re-grade after the import: a grade, and every free try left.
    expect((await call("/api/user/info", { cookie: alice })).json.data.is_star).toBe(true);
    expect((await call("/evaluate", { cookie: alice })).text.replace(/<!-- -->/g, "")).toContain("you have 3 left");
    const list = await accounts(alice);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: "plaid",
      status: "active",
      trades: e.trades,
      cash_flows: e.cashFlows,
      withdrawals: e.withdrawals,
    });
    expect(list[0].trades).toBeGreaterThanOrEqual(150);
    expect(list[0].last_imported_at).toBeTruthy();
    expect((await call("/api/user/info", { cookie: alice })).json.data.platform_name).toBe("plaid");
  });

  it("re-importing adds nothing (webhook-style refresh and a second exchange)", async () => {
    const again = await call("/api/finance/plaid/import", {
      body: { linked_account_id: aliceAccountId },
      cookie: alice,
    });
    expect(again.status).toBe(202);
    expect((await imports(alice))[0]).toMatchObject({ id: again.json.data.import_id, state: "done", trades_added: 0 });
    const relink = await exchange(alice, token(U));
    expect(relink.status).toBe(201);
    expect(relink.json.data.accounts[0]).toMatchObject({ id: aliceAccountId, created: false });
    expect((await imports(alice))[0]).toMatchObject({
      id: relink.json.data.accounts[0].import_id,
      state: "done",
      trades_added: 0,
    });
    expect((await accounts(alice))[0].trades).toBe(expected(U).trades);
  });

  it("answers the 406 case for a second user and links nothing", async () => {
    const bob = await newUser();
    const res = await exchange(bob, token(U));
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: 406, message: SPEC_406 });
    expect(await accounts(bob)).toEqual([]);
    expect((await call("/api/user/info", { cookie: bob })).json.data.platform_name).toBeNull();
    expect((await accounts(alice))[0].trades).toBe(expected(U).trades);
  });

  it("lets one user link several accounts", async () => {
    const res = await exchange(alice, token(`${U}x`));
    expect(res.status).toBe(201);
    expect(res.json.data.message).toBe("Added the account successfully!");
    await imports(alice);
    const list = await accounts(alice);
    expect(list).toHaveLength(2);
    expect(list[1].trades).toBe(expected(`${U}x`).trades);
  });

  it("reconciles the computed positions with Plaid's holdings: a difference is a warning naming the symbol, on the stats page and the verify record", async () => {
    const html = async (path: string, cookie?: string) =>
      (await call(path, { cookie })).text.replace(/<!-- -->/g, "").replace(/&#x27;|&#39;/g, "'");
    // Alice's history adds up to what Plaid reports held: no warning.
    expect(await html("/profile/stats", alice)).not.toContain("positions disagree");

    const erin = await newUser();
    expect((await exchange(erin, token(`holdings-mismatch-${U}m`))).status).toBe(201);
    expect((await imports(erin))[0]).toMatchObject({ state: "done", error: null });
    const stats = await html("/profile/stats", erin);
    const line = `HON: positions disagree with the provider's holdings (8 from the imported history, ${8 + MISMATCH_EXTRA_HON} reported held)`;
    expect(stats).toContain(line);
    expect(stats.match(/data-testid="position-disagreement"/g)).toHaveLength(1);
    const code = /verification code <code>([^<]+)<\/code>/.exec(stats)?.[1];
    expect(code).toBeTruthy();
    const verify = await html(`/verify/${code}`);
    expect(verify).toContain("1 symbol's positions disagree with the provider's holdings: HON");
    expect(verify).not.toContain("reported held"); // the public record names symbols, not quantities
  });

  it("marks the account relogin_required on ITEM_LOGIN_REQUIRED and keeps its ledger; Link update mode repairs it", async () => {
    const before = (await accounts(alice))[0];
    const res = await exchange(alice, token(`item-login-required-${U}`));
    // The link itself succeeds; its import fails at once (no retry helps) and says why.
    expect(res.status).toBe(201);
    const [failed] = await imports(alice);
    expect(failed).toMatchObject({ linked_account_id: before.id, state: "failed", attempts: 1 });
    expect(failed.error).toContain("ITEM_LOGIN_REQUIRED");
    const after = (await accounts(alice))[0];
    expect(after).toMatchObject({
      id: before.id,
      status: "relogin_required",
      trades: before.trades,
      cash_flows: before.cash_flows,
    });

    // Update mode: a link token made with the item's access token, then the stand-in Link page.
    const lt = await call("/api/finance/plaid/link-token", {
      body: { linked_account_id: aliceAccountId },
      cookie: alice,
    });
    expect(lt.status).toBe(200);
    const start = await postForm("/link/plaid", { linked_account_id: String(aliceAccountId) }, { base, cookie: alice });
    expect(start.status).toBe(302);
    const location = start.headers.get("location")!;
    expect(location).toMatch(/^\/demo\/plaid-link\?link_token=link-sandbox-.+&account=\d+$/);
    const params = new URL(location, base).searchParams;
    const done = await postForm(
      "/demo/plaid-link",
      {
        link_token: params.get("link_token")!,
        account: params.get("account")!,
        username: U,
        password: "pass_good",
        intent: "submit",
      },
      { base, cookie: alice },
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/profile/account?reconnected=1#imports");
    expect((await imports(alice))[0]).toMatchObject({ linked_account_id: before.id, state: "done" });
    expect((await accounts(alice))[0]).toMatchObject({ status: "active", trades: before.trades });
  });

  it("a 500 or a malformed answer is retried, then the import ends failed with a clear message", async () => {
    // A new user: the first transactions page succeeds, the second answers 500 every time.
    const carol = await newUser();
    const fail = await exchange(carol, token(`server-error-${U}c`));
    expect(fail.status).toBe(201);
    const [failed] = await imports(carol);
    // JOB_RETRY_LIMIT=2 in tests: the first try and two retries of the failing page.
    expect(failed).toMatchObject({ state: "failed", total: expect.any(Number) });
    expect(failed.attempts).toBe(4);
    expect(failed.error).toContain("INTERNAL_SERVER_ERROR");
    expect(failed.error).toContain("Gave up after 4 attempts");
    expect((await accounts(carol))[0]).toMatchObject({ status: "error" });

    const malformed = await exchange(carol, token(`malformed-${U}c`));
    expect(malformed.status).toBe(201);
    const [broken] = await imports(carol);
    expect(broken).toMatchObject({ state: "failed" });
    expect(broken.error).toContain("MALFORMED");

    // An existing account: status error, previous ledger intact.
    const before = (await accounts(alice))[0];
    const res = await exchange(alice, token(`server-error-${U}`));
    expect(res.status).toBe(201);
    await imports(alice);
    expect((await accounts(alice))[0]).toMatchObject({
      status: "error",
      trades: before.trades,
      cash_flows: before.cash_flows,
    });
    const repaired = await exchange(alice, token(U));
    expect(repaired.status).toBe(201);
    await imports(alice);
    expect((await accounts(alice))[0]).toMatchObject({ status: "active", trades: before.trades });

    const bad = await exchange(carol, "not-a-public-token");
    expect(bad.status).toBe(400);
    const missing = await call("/api/finance/plaid/exchange-public-token", { body: {}, cookie: carol });
    expect(missing.status).toBe(400);
  }, 90_000);

  it("links through the stand-in Link page without JavaScript (wrong credentials keep the username)", async () => {
    const dave = await newUser();
    const start = await postForm("/link/plaid", {}, { base, cookie: dave });
    expect(start.status).toBe(302);
    const location = start.headers.get("location")!;
    expect(location).toMatch(/^\/demo\/plaid-link\?link_token=link-sandbox-/);
    const page = await call(location, { cookie: dave });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Connect your broker");
    expect(page.text).toContain("Demo data");
    const linkToken = new URL(location, base).searchParams.get("link_token")!;

    const wrong = await postForm(
      location,
      { link_token: linkToken, username: `${U}d`, password: "wrong", intent: "submit" },
      { base, cookie: dave },
    );
    expect(wrong.status).toBe(400);
    const html = await wrong.text();
    expect(html).toContain("The username or password provided were not correct.");
    expect(html).toContain(`value="${U}d"`);

    const ok = await postForm(
      location,
      { link_token: linkToken, username: `${U}d`, password: "pass_good", intent: "submit" },
      { base, cookie: dave },
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/profile/account?added=1#imports");
    await imports(dave);
    const profile = await call("/profile/account?added=1", { cookie: dave });
    expect(profile.text).toContain("Added the account successfully!");
    expect(profile.text).toContain(`Platypus Brokerage (${RUN}d)`);

    // Someone else's link token is refused; the 406 case lands on the message.
    const erin = await newUser();
    const foreign = await postForm(
      "/demo/plaid-link",
      { link_token: linkToken, username: `${U}d`, password: "pass_good", intent: "submit" },
      { base, cookie: erin },
    );
    expect(foreign.headers.get("location")).toBe("/profile/account?linkError=hiccup");
    const erinStart = await postForm("/link/plaid", {}, { base, cookie: erin });
    const erinToken = new URL(erinStart.headers.get("location")!, base).searchParams.get("link_token")!;
    const taken = await postForm(
      "/demo/plaid-link",
      { link_token: erinToken, username: `${U}d`, password: "pass_good", intent: "submit" },
      { base, cookie: erin },
    );
    expect(taken.headers.get("location")).toBe("/profile/account?linkError=406");
    expect((await call("/profile/account?linkError=406", { cookie: erin })).text).toContain(
      "This investment account has been associated with a Grader account.",
    );
    expect(await accounts(erin)).toEqual([]);

    // Unlink with a confirmation step.
    const id = (await accounts(dave))[0].id;
    const ask = await postForm("/profile/account", { intent: "unlink", id: String(id) }, { base, cookie: dave });
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain(`Unlink Platypus Brokerage (${RUN}d)`);
    expect(await accounts(dave)).toHaveLength(1);
    const confirm = await postForm(
      "/profile/account",
      { intent: "unlink", id: String(id), confirm: "yes" },
      { base, cookie: dave },
    );
    expect(confirm.status).toBe(302);
    expect(await accounts(dave)).toEqual([]);
  });
});

describe("Plaid webhooks", () => {
  let cookie: string;
  let publicToken: string;

  beforeAll(async () => {
    cookie = await newUser();
    publicToken = token(`${U}h`);
    const res = await exchange(cookie, publicToken);
    expect(res.status).toBe(201);
    await imports(cookie);
  });

  const post = (raw: string, verification?: string) =>
    call("/api/finance/plaid/webhook", { raw, headers: verification ? { "plaid-verification": verification } : {} });

  it("accepts a valid signature and re-imports on DEFAULT_UPDATE (adding nothing new)", async () => {
    const before = (await accounts(cookie))[0];
    const raw = JSON.stringify({
      webhook_type: "INVESTMENTS_TRANSACTIONS",
      webhook_code: "DEFAULT_UPDATE",
      item_id: demoItemId(publicToken),
      new_investments_transactions: 0,
      environment: "sandbox",
    });
    const res = await post(raw, await signDemoWebhook(raw));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ received: true, action: "import queued", accounts: 1 });
    const [imp] = await imports(cookie);
    expect(imp).toMatchObject({ reason: "webhook", state: "done", trades_added: 0 });
    const after = (await accounts(cookie))[0];
    expect(after.trades).toBe(before.trades);
    expect(new Date(after.last_imported_at).getTime()).toBeGreaterThanOrEqual(
      new Date(before.last_imported_at).getTime(),
    );
  });

  it("marks the item relogin_required on an ITEM ERROR webhook", async () => {
    const raw = JSON.stringify({
      webhook_type: "ITEM",
      webhook_code: "ERROR",
      item_id: demoItemId(publicToken),
      error: { error_type: "ITEM_ERROR", error_code: "ITEM_LOGIN_REQUIRED", error_message: "login required" },
      environment: "sandbox",
    });
    const res = await post(raw, await signDemoWebhook(raw));
    expect(res.status).toBe(200);
    expect((await accounts(cookie))[0].status).toBe("relogin_required");
  });

  it("refuses a replayed webhook with 400, and accepts Plaid's next one", async () => {
    // A code that changes nothing here (acknowledged and ignored), so the account is left as it is.
    const raw = JSON.stringify({
      webhook_type: "ITEM",
      webhook_code: "WEBHOOK_UPDATE_ACKNOWLEDGED",
      item_id: demoItemId(publicToken),
      environment: "sandbox",
    });
    const verification = await signDemoWebhook(raw);
    const first = await post(raw, verification);
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ received: true, action: "ignored" });
    for (let i = 0; i < 2; i++) {
      const replay = await post(raw, verification);
      expect(replay.status).toBe(400);
      expect(replay.json).toEqual({ error: { message: "Webhook rejected." } });
    }
    // Plaid's next webhook with the same body (its own iat) is a new one.
    const next = await post(raw, await signDemoWebhook(raw, { iat: Math.floor(Date.now() / 1000) + 1 }));
    expect(next.status).toBe(200);
    expect(server.logs.filter((l) => l.includes('"reason":"replayed"'))).toHaveLength(2);
  });

  it("answers 400 to a bad signature, an old iat, a wrong body hash, alg none, HS256 or no header", async () => {
    const raw = JSON.stringify({
      webhook_type: "ITEM",
      webhook_code: "LOGIN_REPAIRED",
      item_id: demoItemId(publicToken),
    });
    const other = await generateKeyPair("ES256");
    const forged = await new SignJWT({ request_body_sha256: crypto.createHash("sha256").update(raw).digest("hex") })
      .setProtectedHeader({ alg: "ES256", kid: DEMO_WEBHOOK_KID })
      .setIssuedAt()
      .sign(other.privateKey);
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const none = `${b64({ alg: "none", kid: DEMO_WEBHOOK_KID })}.${b64({ iat: Math.floor(Date.now() / 1000), request_body_sha256: crypto.createHash("sha256").update(raw).digest("hex") })}.`;
    const hs = await new SignJWT({ request_body_sha256: crypto.createHash("sha256").update(raw).digest("hex") })
      .setProtectedHeader({ alg: "HS256", kid: DEMO_WEBHOOK_KID })
      .setIssuedAt()
      .sign(new TextEncoder().encode("a shared secret of some length......"));
    const cases: [string, string | undefined, string?][] = [
      ["bad signature", forged],
      ["old iat", await signDemoWebhook(raw, { iat: Math.floor(Date.now() / 1000) - 6 * 60 })],
      [
        "wrong body hash",
        await signDemoWebhook(raw, {
          bodySha256: crypto
            .createHash("sha256")
            .update(raw + " ")
            .digest("hex"),
        }),
      ],
      ["body changed after signing", await signDemoWebhook(raw), raw.replace("LOGIN_REPAIRED", "ERROR")],
      ["alg none", none],
      ["HS256", hs],
      ["unknown kid", await signDemoWebhook(raw, { kid: "no-such-key" })],
      ["no header", undefined],
      ["garbage", "not.a.jwt"],
    ];
    for (const [name, header, body] of cases) {
      const res = await post(body ?? raw, header);
      expect(res.status, name).toBe(400);
    }
    expect((await accounts(cookie))[0].status).toBe("relogin_required");
  });

  it("PENDING_EXPIRATION asks for a re-login on the account page; Reconnect opens Link in update mode on the same item and imports resume", async () => {
    const before = await accounts(cookie);
    const raw = JSON.stringify({
      webhook_type: "ITEM",
      webhook_code: "PENDING_EXPIRATION",
      item_id: demoItemId(publicToken),
      consent_expiration_time: "2026-12-01T00:00:00Z",
      environment: "sandbox",
    });
    const res = await post(raw, await signDemoWebhook(raw));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ action: "relogin_required", accounts: 1 });
    const [account] = await accounts(cookie);
    expect(account.status).toBe("relogin_required");

    const page = (await call("/profile/account", { cookie })).text.replace(/&#x27;|&#39;/g, "'");
    expect(page).toContain("Your broker's consent for Grader expires soon. Use Reconnect: imports resume after it.");
    expect(page).toMatch(
      new RegExp(
        `<form method="post" action="/link/plaid"><input type="hidden" name="linked_account_id" value="${account.id}"/><button[^>]*>Reconnect</button>`,
      ),
    );

    // The button: a link token for the item's access token (update mode), then Link's credential step.
    const start = await postForm("/link/plaid", { linked_account_id: String(account.id) }, { base, cookie });
    expect(start.status).toBe(302);
    const params = new URL(start.headers.get("location")!, base).searchParams;
    expect(params.get("account")).toBe(String(account.id));
    const done = await postForm(
      "/demo/plaid-link",
      {
        link_token: params.get("link_token")!,
        account: String(account.id),
        username: `${U}h`,
        password: "pass_good",
        intent: "submit",
      },
      { base, cookie },
    );
    // Update mode hands back no public token: nothing is exchanged, no item or account is added.
    expect(done.headers.get("location")).toBe("/profile/account?reconnected=1#imports");
    expect((await imports(cookie))[0]).toMatchObject({
      linked_account_id: account.id,
      reason: "retry",
      state: "done",
      error: null,
    });
    const after = await accounts(cookie);
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    expect(after[0]).toMatchObject({ status: "active", trades: before[0].trades });
    expect((await call("/profile/account", { cookie })).text).not.toContain('data-testid="relogin-message"');
  });
});

describe("secrets", () => {
  it("never sends or logs an access token or the Plaid secret", async () => {
    await new Promise((r) => setTimeout(r, 200));
    const everything = [...seen, ...server.logs].join("\n");
    expect(server.logs.length).toBeGreaterThan(10);
    expect(everything).not.toContain("access-sandbox-");
    expect(everything).not.toContain("demo-grader-sandbox-secret");
    expect(everything).not.toMatch(/access_token/i);
  });
});
