import { Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp, waitForImports } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Links, unlinks and imports started again are counted per user and UTC day (RATE_LIMITS "link"
// 10, "unlink" 5, "reimport" 20; PRODUCT §8), and so are automatic grades (AUTO_GRADES_PER_DAY);
// Plaid Link sessions per hour ("link-token" 20). Its own server with every rate limit at
// 0.3 (RATE_LIMIT_FACTOR): 3 links and 1 unlink a day, 6 sign-ups an hour from this address (its
// own database on PostgreSQL: the shared one holds the suite's counts of those); and
// one automatic grade a day.

const LINK_LIMIT = "You've hit today's limit for linking accounts—try again tomorrow!";
const UNLINK_LIMIT = "You've hit today's limit for unlinking accounts—try again tomorrow!";
const REIMPORT_LIMIT = "You've hit today's limit for importing again—try again tomorrow!";
const SESSION_LIMIT = "Too many attempts to connect a broker. Please wait a while and try again.";

let server: RunningServer;
let base: string;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_FACTOR: "0.3", AUTO_GRADES_PER_DAY: "1", ...(await ownDatabase()) });
  base = server.url;
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

// Demo usernames unique to this run: each is its own brokerage account.
const RUN = Date.now().toString(36);
const publicToken = (tag: string) => `public-sandbox-user_good_${RUN}${tag}`;
const html = async (res: Response) => (await res.text()).replace(/&#x27;/g, "'").replace(/<!-- -->/g, "");

async function postJson(path: string, body: unknown, cookie: string) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of any shape
}

const exchange = (cookie: string, tag: string) =>
  postJson("/api/finance/plaid/exchange-public-token", { public_token: publicToken(tag) }, cookie);

async function accounts(cookie: string): Promise<{ id: number; label: string }[]> {
  const res = await get("/api/finance/plaid/accounts", { cookie, base });
  return ((await res.json()) as { data: { id: number; label: string }[] }).data;
}

function expectRetryAfterToday(headers: Headers) {
  const seconds = Number(headers.get("retry-after"));
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(86_400);
}

describe("the daily link limit", () => {
  it("refuses a link past it: the JSON API with 429, its message and Retry-After, the Link page keeping its form", async () => {
    const { cookie } = await signUp({ base });
    for (const tag of ["a", "b", "c"]) expect((await exchange(cookie, tag)).status).toBe(201);

    const refused = await exchange(cookie, "x");
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ error: { message: LINK_LIMIT } });
    expectRetryAfterToday(refused.headers);

    // A wallet counts too: proved, then refused, nothing linked.
    const wallet = Wallet.createRandom();
    const nonce = await postJson("/api/evm/nonce", { wallet_address: wallet.address.slice(2) }, cookie);
    expect(nonce.status).toBe(200);
    const message = nonce.json.data.message as string;
    const walletRefused = await postJson(
      "/api/evm/wallet",
      { wallet_address: wallet.address.slice(2), message, signature: await wallet.signMessage(message) },
      cookie,
    );
    expect(walletRefused.status).toBe(429);
    expect(walletRefused.json.error.message).toBe(LINK_LIMIT);
    expectRetryAfterToday(walletRefused.headers);

    // The stand-in Link page, without JavaScript: the message beside the form, the username kept.
    const start = await postForm("/link/plaid", {}, { base, cookie });
    const location = start.headers.get("location")!;
    expect(location).toMatch(/^\/demo\/plaid-link\?link_token=link-sandbox-/);
    const linkToken = new URL(location, base).searchParams.get("link_token")!;
    const username = `user_good_${RUN}d`;
    const page = await postForm(
      location,
      { link_token: linkToken, username, password: "pass_good", intent: "submit" },
      { base, cookie },
    );
    expect(page.status).toBe(429);
    expectRetryAfterToday(page.headers);
    const text = await html(page);
    expect(text).toContain(LINK_LIMIT);
    expect(text).toContain(`value="${username}"`);

    expect(await accounts(cookie)).toHaveLength(3);
    await waitForImports(cookie, { base, timeoutMs: 60_000 });

    // Another trader's count is their own.
    const other = await signUp({ base });
    expect((await exchange(other.cookie, "e")).status).toBe(201);
    await waitForImports(other.cookie, { base, timeoutMs: 60_000 });
  }, 120_000);
});

describe("the daily unlink limit", () => {
  it("refuses an unlink past it on the account page, keeping the question open and the account linked", async () => {
    const { cookie } = await signUp({ base });
    expect((await exchange(cookie, "f")).status).toBe(201);
    expect((await exchange(cookie, "g")).status).toBe(201);
    await waitForImports(cookie, { base, timeoutMs: 60_000 });
    const [first, second] = await accounts(cookie);

    const unlink = (id: number, confirm = true) =>
      postForm(
        "/profile/account",
        { intent: "unlink", id: String(id), ...(confirm ? { confirm: "yes" } : {}) },
        { base, cookie },
      );
    expect((await unlink(first!.id)).headers.get("location")).toBe("/profile/account?unlinked=1");
    // Asking is not unlinking: the question is answered as before.
    const ask = await unlink(second!.id, false);
    expect(ask.status).toBe(200);

    const refused = await unlink(second!.id);
    expect(refused.status).toBe(429);
    expectRetryAfterToday(refused.headers);
    const text = await html(refused);
    expect(text).toContain(UNLINK_LIMIT);
    expect(text).toContain(`Unlink ${second!.label}?`);
    expect((await accounts(cookie)).map((a) => a.id)).toEqual([second!.id]);
  }, 120_000);
});

describe("the limits on imports started again and on Plaid Link sessions", () => {
  it("refuses a retry past today's limit with its message, and a Link session past the hour's, on the page and the API", async () => {
    const { cookie } = await signUp({ base });
    expect((await exchange(cookie, "j")).status).toBe(201);
    const [account] = await accounts(cookie);
    // 20 a day at 0.3: 6 retries start (or join) an import, the 7th is refused.
    const retry = () => postForm("/profile/account", { intent: "reimport", id: String(account!.id) }, { base, cookie });
    for (let i = 0; i < 6; i++) expect((await retry()).headers.get("location")).toBe("/profile/account?retrying=1");
    const refused = await retry();
    expect(refused.status).toBe(429);
    expectRetryAfterToday(refused.headers);
    expect(await html(refused)).toContain(REIMPORT_LIMIT);
    await waitForImports(cookie, { base, timeoutMs: 60_000 });

    // 20 an hour at 0.3: the exchange above made none; 6 Link tokens, then the API refuses.
    for (let i = 0; i < 6; i++) expect((await postJson("/api/finance/plaid/link-token", {}, cookie)).status).toBe(200);
    const apiRefused = await postJson("/api/finance/plaid/link-token", {}, cookie);
    expect(apiRefused.status).toBe(429);
    expect(apiRefused.json).toEqual({ error: { message: SESSION_LIMIT } });
    const seconds = Number(apiRefused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(3600);
    // The account page's button, without JavaScript: back to the page, which says why.
    const start = await postForm("/link/plaid", {}, { base, cookie });
    expect(start.headers.get("location")).toBe("/profile/account?linkError=sessions");
    expect(await html(await get("/profile/account?linkError=sessions", { cookie, base }))).toContain(SESSION_LIMIT);
  }, 120_000);
});

describe("the daily bound on automatic grades", () => {
  const head = async () =>
    ((await (await get("/api/grades/log?after=0", { base })).json()) as { meta: { head: { seq: number } | null } }).meta
      .head?.seq ?? 0;

  it("lets an import past it finish without a grade, saying so, and adds nothing to the public log", async () => {
    const { cookie } = await signUp({ base });
    const before = await head();
    expect((await exchange(cookie, "h")).status).toBe(201);
    const [first] = await waitForImports(cookie, { base, timeoutMs: 60_000 });
    expect(first).toMatchObject({ state: "done", error: null });
    expect(await head()).toBe(before + 1);

    // The day's one automatic grade is used: the next import ends done, without one.
    expect((await exchange(cookie, "i")).status).toBe(201);
    const [second] = await waitForImports(cookie, { base, timeoutMs: 60_000 });
    expect(second!.id).not.toBe(first!.id);
    expect(second).toMatchObject({
      state: "done",
      error:
        "The import finished, but you've hit today's limit for automatic grades, so none was made. Ask for a grade when you want one.",
    });
    expect(await head()).toBe(before + 1);
    const page = await html(await get("/profile/account", { cookie, base }));
    expect(page).toContain("you've hit today's limit for automatic grades");
    expect(page).toContain("Get my grade");

    // The trader may still ask, with a try.
    const asked = await postJson("/api/finance/plaid/evaluation", {}, cookie);
    expect(asked.json.data.code).toBe(200);
    expect(await head()).toBe(before + 2);
  }, 120_000);
});

describe("the daily limit on base currency changes", () => {
  // Each change of a graded trader's base currency re-makes the grade into the public log
  // (RATE_LIMITS "base-currency" 5, here 1).
  const settings = (base_currency: string) => ({
    username: `bc_${RUN}`,
    first_name: "",
    last_name: "",
    show_amounts: "percentages",
    time_zone: "UTC",
    base_currency,
  });

  it("refuses a change past it with 429 and its message, keeps what was chosen, and saves nothing", async () => {
    const { cookie } = await signUp({ base });
    expect((await exchange(cookie, "bc")).status).toBe(201);
    await waitForImports(cookie, { base, timeoutMs: 60_000 });
    const first = await postForm("/user/settings", settings("EUR"), { cookie, base });
    expect(first.headers.get("location")).toBe("/user/settings?done=regrading");

    const second = await postForm("/user/settings", settings("GBP"), { cookie, base });
    expect(second.status).toBe(429);
    expectRetryAfterToday(second.headers);
    const page = await html(second);
    expect(page).toContain("You've hit today's limit for changing your base currency—try again tomorrow!");
    expect(page).toMatch(/<option value="GBP" selected="">/);
    // Nothing was saved: the base is still the euro.
    const saved = await html(await get("/user/settings", { cookie, base }));
    expect(saved).toMatch(/<option value="EUR" selected="">/);
  }, 120_000);
});
