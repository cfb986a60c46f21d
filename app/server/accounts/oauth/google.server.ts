import type { GoogleProfile } from "remix-auth-google";
import { z } from "zod";
import { getEnv } from "../../platform/env.server";
import { DEMO_GOOGLE_CLIENT_ID, isGoogleDemo } from "./config.server";
import { signInWithProvider, type ProviderSignIn } from "./identities.server";

export const GOOGLE_CALLBACK_PATH = "/oauth/google-callback";
export const GOOGLE_DEMO_CONSENT_PATH = "/oauth/demo/google";

/**
 * Google sign-in (authorization-code flow, scopes openid email profile). The flow itself runs on
 * remix-auth 3 + remix-auth-google 2 in app/web/oauth.server.ts; this room says which client we
 * are and what a verified Google profile makes of a user.
 */
export function googleClient(origin: string) {
  const env = getEnv();
  const demo = isGoogleDemo();
  return {
    // In demo mode the browser's authorize step goes to our stand-in consent page.
    authorizationURL: demo ? origin + GOOGLE_DEMO_CONSENT_PATH : null,
    clientID: demo ? DEMO_GOOGLE_CLIENT_ID : env.GOOGLE_CLIENT_ID!,
    clientSecret: demo ? "demo-google-client-secret" : env.GOOGLE_CLIENT_SECRET!,
    callbackURL: origin + GOOGLE_CALLBACK_PATH,
  };
}

const UserInfo = z.object({
  sub: z.string().min(1),
  email: z.string().min(3),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

/** The user for the profile remix-auth-google read from Google's userinfo. */
export async function signInWithGoogleProfile(profile: GoogleProfile): Promise<ProviderSignIn> {
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
