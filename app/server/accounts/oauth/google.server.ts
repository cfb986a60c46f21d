import { createCookieSessionStorage, redirect, type SessionStorage } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { GoogleStrategy, type GoogleProfile } from "remix-auth-google";
import { z } from "zod";
import { safeRedirect } from "~/lib/safe-redirect";
import { getEnv } from "../../platform/env.server";
import { log } from "../../platform/log.server";
import { clientIp, hitLimit } from "../../http/rate-limit.server";
import {
  callbackOrigin,
  DEMO_GOOGLE_CLIENT_ID,
  isGoogleDemo,
  oauthStateSecret,
  secureCookies,
  signinErrorPath,
} from "./config.server";
import {
  finishProviderSignIn,
  signInWithProvider,
  UnverifiedEmailConflictError,
  type ProviderSignIn,
} from "./identities.server";

export const GOOGLE_CALLBACK_PATH = "/oauth/google-callback";
export const GOOGLE_DEMO_CONSENT_PATH = "/oauth/demo/google";
const NEXT_KEY = "next";

/**
 * Google sign-in with remix-auth 3 + remix-auth-google 2 (authorization-code flow, scopes
 * openid email profile). remix-auth keeps only the short-lived OAuth state in this cookie session
 * (SameSite=Lax works: Google returns with a top-level GET); the real session is ours (session.server).
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

const UserInfo = z.object({
  sub: z.string().min(1),
  email: z.string().min(3),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

async function verifyGoogleProfile({ profile }: { profile: GoogleProfile }): Promise<ProviderSignIn> {
  const info = UserInfo.parse(profile._json);
  return signInWithProvider({
    provider: "google",
    subject: info.sub,
    email: info.email,
    emailVerified: info.email_verified === true || info.email_verified === "true",
    firstName: info.given_name ?? null,
    lastName: info.family_name ?? null,
    name: info.name ?? null,
    // Not info.picture: our CSP serves images from our own origin only.
  });
}

/** A new Authenticator per request: the callback URL depends on the request's origin in demo mode. */
function googleAuthenticator(request: Request): Authenticator<ProviderSignIn> {
  const env = getEnv();
  const demo = isGoogleDemo();
  const origin = callbackOrigin("google", request);
  const authenticator = new Authenticator<ProviderSignIn>(oauthStateStorage(), { throwOnError: true });
  authenticator.use(
    new GraderGoogleStrategy(
      demo ? origin + GOOGLE_DEMO_CONSENT_PATH : null,
      {
        clientID: demo ? DEMO_GOOGLE_CLIENT_ID : env.GOOGLE_CLIENT_ID!,
        clientSecret: demo ? "demo-google-client-secret" : env.GOOGLE_CLIENT_SECRET!,
        callbackURL: origin + GOOGLE_CALLBACK_PATH,
        scope: ["openid", "email", "profile"],
        prompt: "select_account",
      },
      verifyGoogleProfile,
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
  const fail = (code: Parameters<typeof signinErrorPath>[0]) =>
    redirect(signinErrorPath(code), { headers: { "Set-Cookie": clearState } });
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
