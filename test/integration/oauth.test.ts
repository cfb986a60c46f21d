import { decodeProtectedHeader, generateKeyPair, SignJWT, decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, get, postForm, sessionCookie, signUp, uniqueEmail } from "../support/http";
import { startServer, type RunningServer } from "../support/server";

// Google and Apple sign-in in demo mode: the server runs without provider credentials, so msw
// (test/mocks) answers Google's and Apple's endpoints inside the server process while the real
// strategy code (remix-auth-google, jose JWKS verification) runs.

type Identity = { email: string; name?: string; verified?: boolean };

function cookiePair(res: Response, name: string): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!set) throw new Error(`no ${name} cookie in response ${res.status}`);
  return set.split(";")[0]!;
}

async function userInfo(cookie: string) {
  const res = await get("/api/user/info", { cookie });
  expect(res.status).toBe(200);
  return (
    (await res.json()) as {
      data: { id: number; email: string; email_verified: boolean; first_name: string | null; name: string | null };
    }
  ).data;
}

/** /oauth/google-login → demo consent page: the state cookie and the consent URL's parameters. */
async function startGoogle(next?: string) {
  const res = await get(`/oauth/google-login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  expect(res.status).toBe(302);
  const consent = new URL(res.headers.get("location")!);
  expect(consent.pathname).toBe("/oauth/demo/google");
  expect(consent.searchParams.get("scope")).toBe("openid email profile");
  expect(consent.searchParams.get("redirect_uri")).toBe(`${baseUrl()}/oauth/google-callback`);
  return { cookie: cookiePair(res, "grader_oauth"), consent, state: consent.searchParams.get("state")! };
}

/** The demo consent form's POST; answers the callback URL the browser is sent to. */
async function consentGoogle(consent: URL, identity: Identity, intent: "allow" | "deny" = "allow") {
  const fields: Record<string, string> = {
    state: consent.searchParams.get("state")!,
    redirect_uri: consent.searchParams.get("redirect_uri")!,
    email: identity.email,
    name: identity.name ?? "Grace Hopper",
    intent,
  };
  if (identity.verified !== false) fields.verified = "on";
  const res = await postForm(consent.pathname + consent.search, fields);
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

async function googleSignIn(identity: Identity, next?: string) {
  const { cookie, consent } = await startGoogle(next);
  const callback = await consentGoogle(consent, identity);
  return get(callback.pathname + callback.search, { cookie });
}

/** /oauth/apple-login → the demo consent page → the fields of its form_post for one identity. */
async function appleConsent(identity?: Identity, startPath = "/oauth/apple-login", base?: string) {
  const start = await get(startPath, { base });
  expect(start.status).toBe(302);
  const consent = new URL(start.headers.get("location")!);
  expect(consent.pathname).toBe("/oauth/demo/apple");
  expect(consent.searchParams.get("response_mode")).toBe("form_post");
  if (identity) {
    consent.searchParams.set("email", identity.email);
    consent.searchParams.set("name", identity.name ?? "Ada Lovelace");
    if (identity.verified !== false) consent.searchParams.set("verified", "on");
  }
  const page = await get(consent.pathname + consent.search, { base });
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = html.match(/<form[^>]*method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/)!;
  const fields: Record<string, string> = {};
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  for (const [, name, value] of form[2]!.matchAll(/name="([^"]*)" value="([^"]*)"/g)) fields[name!] = unescape(value!);
  expect(Object.keys(fields).sort()).toEqual(["code", "id_token", "state", "user"]);
  return { action: form[1]!, fields, nonce: consent.searchParams.get("nonce")!, start };
}

/** Apple's form_post arrives cross-site, from appleid.apple.com, without our cookies. */
function postToApple(path: string, fields: Record<string, string>, opts: { base?: string; cookie?: string } = {}) {
  return postForm(path, fields, {
    origin: "https://appleid.apple.com",
    headers: { "sec-fetch-site": "cross-site" },
    ...opts,
  });
}

function expectSigninError(res: Response, code: string) {
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe(`/signin?error=${code}`);
  expect(
    res.headers.getSetCookie().some((c) => c.startsWith("grader_session=") && !c.startsWith("grader_session=;")),
  ).toBe(false);
}

describe("Google sign-in (demo mode)", () => {
  it("creates a password-less user with a verified email, then signs the same Google account in again", async () => {
    const email = uniqueEmail("google");
    const first = await googleSignIn({ email, name: "Grace Hopper" });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/user-questions");
    expect(first.headers.getSetCookie().join()).toMatch(/grader_oauth=;/);
    const user = await userInfo(sessionCookie(first));
    expect(user).toMatchObject({ email, email_verified: true, first_name: "Grace", name: "Grace Hopper" });
    // No password was set: the email form cannot log in to this account.
    expect((await postForm("/signin", { email, password: "anything at all" })).status).toBe(400);

    const again = await googleSignIn({ email }, "/profile");
    expect(again.headers.get("location")).toBe("/profile");
    expect((await userInfo(sessionCookie(again))).id).toBe(user.id);
    const dotted = await googleSignIn({ email }, "/.//evil.example/x");
    expect(dotted.headers.get("location")).toBe("/community");
  });

  it("refuses a callback whose state does not match the state cookie", async () => {
    const { cookie, consent } = await startGoogle();
    const callback = await consentGoogle(consent, { email: uniqueEmail("mismatch") });
    callback.searchParams.set("state", "00000000-0000-4000-8000-000000000000");
    expectSigninError(await get(callback.pathname + callback.search, { cookie }), "google");
  });

  it("refuses a callback without the state cookie (another browser) and one without parameters", async () => {
    const { consent } = await startGoogle();
    const callback = await consentGoogle(consent, { email: uniqueEmail("nocookie") });
    expectSigninError(await get(callback.pathname + callback.search), "google");
    expectSigninError(await get("/oauth/google-callback"), "google");
  });

  it("joins the existing account with the same verified email", async () => {
    const { email, password, cookie } = await signUp();
    const existing = await userInfo(cookie);
    const res = await googleSignIn({ email: email.toUpperCase() });
    expect(res.headers.get("location")).toBe("/community");
    const joined = await userInfo(sessionCookie(res));
    expect(joined.id).toBe(existing.id);
    expect(joined.email_verified).toBe(true);
    // The account's email had never been verified, so its password (set by whoever signed up
    // first) no longer works and its old sessions are gone: the verified owner now holds it.
    expect((await postForm("/signin", { email, password })).status).toBe(400);
    expect((await get("/api/user/info", { cookie })).status).toBe(401);
  });

  it("does not let an unverified email join an existing account, and says why", async () => {
    const { email, cookie } = await signUp();
    const res = await googleSignIn({ email, verified: false });
    expectSigninError(res, "google-unverified");
    const page = await (await get(res.headers.get("location")!)).text();
    expect(page).toContain("Google hasn&#x27;t verified that email address");
    expect((await get("/api/user/info", { cookie })).status).toBe(200);
  });

  it("lands on /signin with a message when Google fails or the user cancels, never a 500", async () => {
    expectSigninError(await googleSignIn({ email: uniqueEmail("error500") }), "google");
    const { cookie, consent } = await startGoogle();
    const denied = await consentGoogle(consent, { email: uniqueEmail("deny") }, "deny");
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expectSigninError(await get(denied.pathname + denied.search, { cookie }), "google-cancelled");
    const badCode = await get(
      `/oauth/google-callback?code=forged&state=${encodeURIComponent(consent.searchParams.get("state")!)}`,
      { cookie },
    );
    expectSigninError(badCode, "google");
    const page = await (await get("/signin?error=google")).text();
    expect(page).toContain("We couldn&#x27;t sign you in with Google. Please try again.");
  });

  it("only redirects the demo consent page back to our own callback", async () => {
    const { consent } = await startGoogle();
    consent.searchParams.set("redirect_uri", "https://evil.example/oauth/google-callback");
    expect((await get(consent.pathname + consent.search)).status).toBe(400);
    const res = await postForm("/oauth/demo/google", {
      state: "x",
      redirect_uri: "https://evil.example/cb",
      email: "a@b.co",
      intent: "allow",
    });
    expect(res.status).toBe(400);
  });
});

describe("Apple sign-in (demo mode)", () => {
  it("accepts Apple's cross-site form_post with a verified id_token and creates the user", async () => {
    const email = uniqueEmail("apple");
    const { action, fields, nonce } = await appleConsent({ email, name: "Ada Lovelace" });
    expect(action).toBe("/oauth/apple-callback");
    expect(decodeJwt(fields.id_token!)).toMatchObject({
      iss: "https://appleid.apple.com",
      aud: "demo.grader.apple",
      nonce,
      email,
    });
    const res = await postToApple(action, fields);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user-questions");
    expect(await userInfo(sessionCookie(res))).toMatchObject({ email, email_verified: true, first_name: "Ada" });
  });

  it("also accepts the form_post at /api/user/oauth/apple-callback", async () => {
    const email = uniqueEmail("apple-api");
    const { fields } = await appleConsent({ email });
    const res = await postToApple("/api/user/oauth/apple-callback", fields);
    expect(res.headers.get("location")).toBe("/user-questions");
    expect((await userInfo(sessionCookie(res))).email).toBe(email);
  });

  it("refuses an id_token with a bad signature", async () => {
    const { fields } = await appleConsent({ email: uniqueEmail("badsig") });
    const [header, payload, signature] = fields.id_token!.split(".");
    const flipped = (signature!.startsWith("A") ? "B" : "A") + signature!.slice(1);
    expectSigninError(
      await postToApple("/oauth/apple-callback", { ...fields, id_token: `${header}.${payload}.${flipped}` }),
      "apple",
    );

    // Same claims and key id, signed with a key that is not Apple's.
    const { fields: fresh } = await appleConsent({ email: uniqueEmail("forged") });
    const claims = decodeJwt(fresh.id_token!);
    const { kid } = decodeProtectedHeader(fresh.id_token!);
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "RS256", kid: kid! }).sign(privateKey);
    expectSigninError(await postToApple("/oauth/apple-callback", { ...fresh, id_token: forged }), "apple");
  });

  it("refuses a tampered, foreign or missing state, and an id_token from another sign-in (nonce)", async () => {
    const a = await appleConsent({ email: uniqueEmail("state") });
    const b = await appleConsent({ email: uniqueEmail("state") });
    const [header, payload, mac] = a.fields.state!.split(".");
    const tampered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), r: "/profile" }),
    ).toString("base64url");
    expectSigninError(
      await postToApple("/oauth/apple-callback", { ...a.fields, state: `${header}.${tampered}.${mac}` }),
      "apple",
    );
    expectSigninError(await postToApple("/oauth/apple-callback", { ...a.fields, state: "not-a-state" }), "apple");
    const { state: _drop, ...withoutState } = a.fields;
    expectSigninError(await postToApple("/oauth/apple-callback", withoutState), "apple");
    // b's state with a's id_token: the nonce in the token belongs to a's state.
    expectSigninError(await postToApple("/oauth/apple-callback", { ...a.fields, state: b.fields.state! }), "apple");
    // A Google state is not an Apple state.
    const google = await startGoogle();
    expectSigninError(await postToApple("/oauth/apple-callback", { ...a.fields, state: google.state }), "apple");
    // a's own fields still work once.
    expect((await postToApple("/oauth/apple-callback", a.fields)).headers.get("location")).toBe("/user-questions");
  });

  it("joins the existing account with the same verified email, and refuses an unverified one", async () => {
    const { email, cookie } = await signUp();
    const existing = await userInfo(cookie);
    const unverified = await appleConsent({ email, verified: false });
    expectSigninError(await postToApple("/oauth/apple-callback", unverified.fields), "apple-unverified");
    const verified = await appleConsent({ email });
    const res = await postToApple("/oauth/apple-callback", verified.fields);
    expect(res.headers.get("location")).toBe("/community");
    expect((await userInfo(sessionCookie(res))).id).toBe(existing.id);
  });

  it("handles cancel, a forged code and a GET on the callback without a 500", async () => {
    const { fields } = await appleConsent({ email: uniqueEmail("cancel") });
    expectSigninError(
      await postToApple("/oauth/apple-callback", { state: fields.state!, error: "user_cancelled_authorize" }),
      "apple-cancelled",
    );
    expectSigninError(await postToApple("/oauth/apple-callback", { ...fields, code: "forged" }), "apple");
    const getCallback = await get("/oauth/apple-callback");
    expect(getCallback.status).toBe(302);
    expect(getCallback.headers.get("location")).toBe("/signin");
    const page = await (await get("/signin?error=apple")).text();
    expect(page).toContain("We couldn&#x27;t sign you in with Apple. Please try again.");
  });

  it("carries a safe next through the signed state", async () => {
    const email = uniqueEmail("apple-next");
    const first = await appleConsent({ email });
    expect((await postToApple("/oauth/apple-callback", first.fields)).headers.get("location")).toBe("/user-questions");
    const again = await appleConsent({ email }, "/oauth/apple-login?next=%2Fprofile%3Ftab%3Dposts");
    expect((await postToApple("/oauth/apple-callback", again.fields)).headers.get("location")).toBe(
      "/profile?tab=posts",
    );
    const evil = await appleConsent({ email }, "/oauth/apple-login?next=%2F%2Fevil.example");
    expect((await postToApple("/oauth/apple-callback", evil.fields)).headers.get("location")).toBe("/community");
    // Normalised by the URL parser into "//evil.example/x": refused, not followed.
    for (const next of ["/.//evil.example/x", "/%2e//evil.example/x", "/a/..//evil.example/x"]) {
      const dotted = await appleConsent({ email }, `/oauth/apple-login?next=${encodeURIComponent(next)}`);
      expect((await postToApple("/oauth/apple-callback", dotted.fields)).headers.get("location"), next).toBe(
        "/community",
      );
    }
  });
});

describe("Apple sign-in served over HTTPS", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: "https://grader.example" });
  });
  afterAll(() => server.stop());

  it("also binds the state to the browser with a SameSite=None; Secure cookie", async () => {
    const a = await appleConsent({ email: uniqueEmail("https") }, "/oauth/apple-login", server.url);
    const binding = a.start.headers.getSetCookie().find((c) => c.startsWith("grader_apple_nonce="))!;
    expect(binding).toMatch(/HttpOnly; Secure; SameSite=None/);
    // Without the cookie (the form_post was started in another browser): refused.
    expectSigninError(await postToApple("/oauth/apple-callback", a.fields, { base: server.url }), "apple");
    const ok = await postToApple("/oauth/apple-callback", a.fields, {
      base: server.url,
      cookie: binding.split(";")[0],
    });
    expect(ok.headers.get("location")).toBe("/user-questions");
    expect(ok.headers.getSetCookie().join()).toMatch(/grader_apple_nonce=;.*Max-Age=0/);
  });
});
