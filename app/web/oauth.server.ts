import { createCookieSessionStorage, redirect, type SessionStorage } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { GoogleStrategy } from "remix-auth-google";
import { safeRedirect } from "~/lib/safe-redirect";
import {
  APPLE_CALLBACK_PATH,
  appleAuthorization,
  appleRedirectUri,
  completeAppleSignIn,
} from "~/server/accounts/oauth/apple.server";
import {
  callbackOrigin,
  oauthStateSecret,
  secureCookies,
  signinErrorPath,
  type OAuthErrorCode,
} from "~/server/accounts/oauth/config.server";
import { googleClient, signInWithGoogleProfile } from "~/server/accounts/oauth/google.server";
import { UnverifiedEmailConflictError, type ProviderSignIn } from "~/server/accounts/oauth/identities.server";
import { STATE_TTL_SECONDS } from "~/server/accounts/oauth/state.server";
import { clientIp, hitLimit } from "~/server/http/rate-limit.server";
import { createSession, readCookie } from "~/server/http/session.server";
import { log } from "~/server/platform/log.server";

// The HTTP side of Google and Apple sign-in: cookies, redirects and the answer to every failure
// (a redirect to /signin with a message code). What is verified and who signs in is
// app/server/accounts/oauth's.

/**
 * Starts our own DB-backed session for the user and sends the browser on: a brand-new user to
 * onboarding, anyone else to `next` (when safe) or /community. `extraCookies` clear OAuth state.
 */
async function finishProviderSignIn(
  result: ProviderSignIn,
  request: Request,
  next: string | null | undefined,
  extraCookies: string[] = [],
): Promise<Response> {
  const { setCookie } = await createSession(result.userId, request);
  const headers = new Headers();
  headers.append("Set-Cookie", setCookie);
  for (const cookie of extraCookies) headers.append("Set-Cookie", cookie);
  const target = result.isNew ? "/user-questions" : safeRedirect(next);
  return redirect(target, { headers });
}

// --- Google ---------------------------------------------------------------------------------

const NEXT_KEY = "next";

/**
 * remix-auth keeps only the short-lived OAuth state and `next` in this cookie session (SameSite=Lax
 * works: Google returns with a top-level GET); the real session is ours (session.server).
 */
let stateStorage: SessionStorage | undefined;
function oauthStateStorage(): SessionStorage {
  return (stateStorage ??= createCookieSessionStorage({
    cookie: {
      name: "grader_oauth",
      path: "/oauth",
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(),
      secrets: [oauthStateSecret()],
      maxAge: 600,
    },
  }));
}

/** In demo mode the browser's authorize step goes to our stand-in consent page; the rest is the real strategy. */
class GraderGoogleStrategy extends GoogleStrategy<ProviderSignIn> {
  constructor(authorizationURL: string | null, ...args: ConstructorParameters<typeof GoogleStrategy<ProviderSignIn>>) {
    super(...args);
    if (authorizationURL) this.authorizationURL = authorizationURL;
  }
}

/** A new Authenticator per request: the callback URL depends on the request's origin in demo mode. */
function googleAuthenticator(request: Request): Authenticator<ProviderSignIn> {
  const { authorizationURL, ...client } = googleClient(callbackOrigin("google", request));
  const authenticator = new Authenticator<ProviderSignIn>(oauthStateStorage(), { throwOnError: true });
  authenticator.use(
    new GraderGoogleStrategy(
      authorizationURL,
      { ...client, scope: ["openid", "email", "profile"], prompt: "select_account" },
      ({ profile }) => signInWithGoogleProfile(profile),
    ),
  );
  return authenticator;
}

/**
 * GET /oauth/google-login: remembers a safe `next` in the state cookie, then lets the strategy
 * redirect to Google (or the demo consent page) with a fresh state.
 */
export async function startGoogleLogin(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const next = url.searchParams.get("next");
  const storage = oauthStateStorage();
  const session = await storage.getSession();
  if (next) session.set(NEXT_KEY, safeRedirect(next));
  // The strategy reads its session from the request's Cookie header: hand it one holding `next`.
  const seeded = (await storage.commitSession(session)).split(";")[0]!;
  const strategyRequest = new Request(url.origin + url.pathname, { headers: { cookie: seeded, host: url.host } });
  try {
    await googleAuthenticator(request).authenticate("google", strategyRequest);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    log("error", "google sign-in could not start", { error: String(thrown) });
  }
  return redirect(signinErrorPath("google"));
}

/** GET /oauth/google-callback: state check, code exchange and userinfo by remix-auth-google, then our session. */
export async function handleGoogleCallback(request: Request): Promise<Response> {
  const storage = oauthStateStorage();
  const clearState = await storage.destroySession(await storage.getSession());
  const fail = (code: OAuthErrorCode) => redirect(signinErrorPath(code), { headers: { "Set-Cookie": clearState } });
  const limit = await hitLimit("oauth-ip", clientIp(request));
  if (!limit.ok) return fail("oauth-rate");
  const url = new URL(request.url);
  if (url.searchParams.get("error") === "access_denied") return fail("google-cancelled");
  let result: ProviderSignIn;
  try {
    result = await googleAuthenticator(request).authenticate("google", request, { throwOnError: true });
  } catch (thrown) {
    const cause = thrown instanceof Error ? (thrown.cause ?? thrown) : thrown;
    if (cause instanceof UnverifiedEmailConflictError) return fail("google-unverified");
    log("info", "google sign-in failed", { error: thrown instanceof Error ? thrown.message : String(thrown) });
    return fail("google");
  }
  const session = await storage.getSession(request.headers.get("cookie"));
  const next = session.get(NEXT_KEY) as string | undefined;
  return finishProviderSignIn(result, request, next, [clearState]);
}

// --- Apple ----------------------------------------------------------------------------------

/** Binds the state to the browser where cookies can be SameSite=None (HTTPS only). */
const BINDING_COOKIE = "grader_apple_nonce";

/** GET /oauth/apple-login: a signed state and nonce, then Apple's authorize page (or the demo stand-in). */
export async function startAppleLogin(request: Request): Promise<Response> {
  const { url, nonce } = await appleAuthorization(request, new URL(request.url).searchParams.get("next"));
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (secureCookies()) {
    headers.append(
      "Set-Cookie",
      `${BINDING_COOKIE}=${nonce}; Path=/; HttpOnly; Secure; SameSite=None; Max-Age=${STATE_TTL_SECONDS}`,
    );
  }
  return redirect(url, { headers });
}

/**
 * POST /oauth/apple-callback and /api/user/oauth/apple-callback (Apple's cross-site form_post).
 * Every failure goes to /signin with a message code (never a 500).
 */
export async function handleAppleCallback(request: Request, path = APPLE_CALLBACK_PATH): Promise<Response> {
  const clearBinding = secureCookies()
    ? [`${BINDING_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=None; Max-Age=0`]
    : [];
  const fail = (code: OAuthErrorCode) =>
    redirect(signinErrorPath(code), { headers: clearBinding.map((c): [string, string] => ["Set-Cookie", c]) });
  if (request.method !== "POST") return redirect("/signin");
  try {
    const limit = await hitLimit("oauth-ip", clientIp(request));
    if (!limit.ok) return fail("oauth-rate");
    const outcome = await completeAppleSignIn(await request.formData(), {
      redirectUri: appleRedirectUri(request, path),
      // A missing cookie is "" and never matches a nonce.
      browserNonce: secureCookies() ? (readCookie(request, BINDING_COOKIE) ?? "") : null,
    });
    if (!outcome.ok) return fail(outcome.code);
    return await finishProviderSignIn(outcome.signIn, request, outcome.next, clearBinding);
  } catch (error) {
    log("info", "apple sign-in failed", {
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return fail("apple");
  }
}
