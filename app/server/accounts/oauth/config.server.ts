import crypto from "node:crypto";
import { isSimulated } from "../../platform/demo.server";
import { getEnv } from "../../platform/env.server";
import { log } from "../../platform/log.server";

export type OAuthProvider = "google" | "apple";

/** The services id Apple sees in demo mode (the msw simulator answers for it). */
export const DEMO_APPLE_CLIENT_ID = "demo.grader.apple";
export const DEMO_GOOGLE_CLIENT_ID = "demo-grader.apps.googleusercontent.example";

/** A provider is in demo mode when its credentials are not configured (then test/mocks answers for it). */
export function isGoogleDemo(): boolean {
  return isSimulated("google");
}

export function isAppleDemo(): boolean {
  return isSimulated("apple");
}

export function isProviderDemo(provider: OAuthProvider): boolean {
  return provider === "google" ? isGoogleDemo() : isAppleDemo();
}

let generatedSecret: string | undefined;

/**
 * The key that signs OAuth state (Apple's HMAC state token, the Google state cookie). Without
 * OAUTH_STATE_SECRET one is generated per process: fine for demo mode and one replica; several
 * replicas need the variable so a callback can land on any of them.
 */
export function oauthStateSecret(): string {
  const configured = getEnv().OAUTH_STATE_SECRET;
  if (configured) return configured;
  if (!generatedSecret) {
    generatedSecret = crypto.randomBytes(32).toString("base64url");
    if (!isGoogleDemo() || !isAppleDemo()) {
      log("error", "OAUTH_STATE_SECRET is unset: using a per-process key; set it when running more than one replica");
    }
  }
  return generatedSecret;
}

/** Cookies that must reach us over HTTPS only when we are served over HTTPS. */
export function secureCookies(): boolean {
  return getEnv().PUBLIC_URL.startsWith("https:");
}

/**
 * The origin providers send the browser back to: PUBLIC_URL with real credentials (it must match
 * the redirect URI registered with the provider); in demo mode the request's own origin, so the
 * demo works on any port (tests run on an ephemeral one).
 */
export function callbackOrigin(provider: OAuthProvider, request: Request): string {
  if (isProviderDemo(provider)) return new URL(request.url).origin;
  return new URL(getEnv().PUBLIC_URL).origin;
}

/** /signin?error=… codes understood by the sign-in page. */
export type OAuthErrorCode =
  OAuthProvider | `${OAuthProvider}-unverified` | `${OAuthProvider}-cancelled` | "oauth-rate";

export function signinErrorPath(code: OAuthErrorCode): string {
  return `/signin?error=${code}`;
}
