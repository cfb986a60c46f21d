import {
  createRemoteJWKSet,
  generateKeyPair,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type JWTPayload,
  type KeyLike,
} from "jose";
import { z } from "zod";
import { safeRedirect } from "~/lib/safe-redirect";
import { getEnv } from "../../platform/env.server";
import { log } from "../../platform/log.server";
import { callbackOrigin, DEMO_APPLE_CLIENT_ID, isAppleDemo, type OAuthErrorCode } from "./config.server";
import { signInWithProvider, UnverifiedEmailConflictError, type ProviderSignIn } from "./identities.server";
import { createStateToken, verifyStateToken } from "./state.server";

export const APPLE_ISSUER = "https://appleid.apple.com";
export const APPLE_AUTHORIZE_URL = "https://appleid.apple.com/auth/authorize";
export const APPLE_TOKEN_URL = "https://appleid.apple.com/auth/token";
export const APPLE_KEYS_URL = "https://appleid.apple.com/auth/keys";
export const APPLE_CALLBACK_PATH = "/oauth/apple-callback";
export const APPLE_API_CALLBACK_PATH = "/api/user/oauth/apple-callback";
export const APPLE_DEMO_CONSENT_PATH = "/oauth/demo/apple";

/**
 * Sign in with Apple (web, response_mode=form_post). Apple posts code, state, id_token and, the
 * first time only, a `user` JSON with the name, cross-site to our callback. State is an HMAC token
 * (state.server.ts) because that POST carries no SameSite=Lax cookie; its nonce must come back in
 * the id_token; the id_token is verified against Apple's JWKS; the code is redeemed at Apple's
 * token endpoint with our client secret and must name the same subject.
 */
export function appleClientId(): string {
  return isAppleDemo() ? DEMO_APPLE_CLIENT_ID : getEnv().APPLE_CLIENT_ID!;
}

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
function appleKeys() {
  return (jwks ??= createRemoteJWKSet(new URL(APPLE_KEYS_URL), { timeoutDuration: 5000, cooldownDuration: 30_000 }));
}

type SigningKey = { key: KeyLike; keyId: string; teamId: string };
let demoSigningKey: Promise<SigningKey> | undefined;

/** The ES256 key that signs our client secret: the .p8 key from Apple, or a per-process demo key. */
async function clientSecretKey(): Promise<SigningKey> {
  const env = getEnv();
  if (!isAppleDemo()) {
    return {
      key: await importPKCS8(env.APPLE_PRIVATE_KEY!, "ES256"),
      keyId: env.APPLE_KEY_ID!,
      teamId: env.APPLE_TEAM_ID!,
    };
  }
  return (demoSigningKey ??= generateKeyPair("ES256").then(({ privateKey }) => ({
    key: privateKey,
    keyId: "DEMOKEY001",
    teamId: "DEMOTEAM01",
  })));
}

/** Apple's client_secret: a short-lived ES256 JWT (iss team, sub services id, aud appleid.apple.com). */
export async function appleClientSecret(now = Date.now()): Promise<string> {
  const { key, keyId, teamId } = await clientSecretKey();
  const iat = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: keyId })
    .setIssuer(teamId)
    .setSubject(appleClientId())
    .setAudience(APPLE_ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(key);
}

export function appleRedirectUri(request: Request, path = APPLE_CALLBACK_PATH): string {
  return callbackOrigin("apple", request) + path;
}

/**
 * The start of a sign-in (GET /oauth/apple-login): a signed state carrying a safe `next` and a
 * nonce, and Apple's authorize URL (or the demo stand-in's). The glue binds the nonce to the browser.
 */
export async function appleAuthorization(
  request: Request,
  next: string | null,
): Promise<{ url: string; nonce: string }> {
  const { token, state } = await createStateToken("apple", next ? safeRedirect(next) : null);
  const params = new URLSearchParams({
    client_id: appleClientId(),
    redirect_uri: appleRedirectUri(request),
    response_type: "code id_token",
    response_mode: "form_post",
    scope: "name email",
    state: token,
    nonce: state.nonce,
  });
  const authorize = isAppleDemo() ? `${new URL(request.url).origin}${APPLE_DEMO_CONSENT_PATH}` : APPLE_AUTHORIZE_URL;
  return { url: `${authorize}?${params}`, nonce: state.nonce };
}

const AppleClaims = z.object({
  sub: z.string().min(1),
  email: z.string().min(3),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"])]).optional(),
  nonce: z.string().optional(),
});

/** Verifies an Apple id_token: signature against Apple's keys, iss, aud, exp (and iat sanity). */
export async function verifyAppleIdToken(idToken: string): Promise<JWTPayload> {
  const { payload } = await jwtVerify(idToken, appleKeys(), {
    issuer: APPLE_ISSUER,
    audience: appleClientId(),
    algorithms: ["RS256"],
    clockTolerance: 60,
    maxTokenAge: "1 day",
  });
  return payload;
}

async function redeemAppleCode(code: string, redirectUri: string): Promise<JWTPayload> {
  const response = await fetch(APPLE_TOKEN_URL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      client_id: appleClientId(),
      client_secret: await appleClientSecret(),
      code,
      grant_type: "authorization_code",
      redirect_uri: redirectUri,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`Apple token endpoint answered ${response.status}`);
  const body = (await response.json()) as { id_token?: unknown };
  if (typeof body.id_token !== "string") throw new Error("Apple token endpoint gave no id_token");
  return verifyAppleIdToken(body.id_token);
}

const AppleUser = z.object({
  name: z.object({ firstName: z.string().max(100).optional(), lastName: z.string().max(100).optional() }).optional(),
});

function parseAppleUser(raw: FormDataEntryValue | null) {
  if (typeof raw !== "string" || raw.length > 2000) return undefined;
  try {
    return AppleUser.safeParse(JSON.parse(raw)).data;
  } catch {
    return undefined;
  }
}

class AppleSignInError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type AppleSignIn =
  { ok: true; signIn: ProviderSignIn; next: string | null } | { ok: false; code: OAuthErrorCode };

/**
 * What Apple posted to our callback, checked: the state (and, where cookies can be bound, the
 * browser's nonce: `browserNonce` null where they cannot), Apple's answer, the id_token, the code
 * redeemed for the same subject; then the user found or made. A failure is a message code for
 * /signin (never a 500).
 */
export async function completeAppleSignIn(
  form: FormData,
  check: { redirectUri: string; browserNonce: string | null },
): Promise<AppleSignIn> {
  try {
    const state = await verifyStateToken(form.get("state"), "apple");
    if (!state) throw new AppleSignInError("apple", "state is missing, forged or expired");
    if (check.browserNonce !== null && check.browserNonce !== state.nonce) {
      throw new AppleSignInError("apple", "state was not started in this browser");
    }
    const error = form.get("error");
    if (typeof error === "string" && error)
      throw new AppleSignInError(
        error === "user_cancelled_authorize" ? "apple-cancelled" : "apple",
        `Apple answered ${error}`,
      );
    const idToken = form.get("id_token");
    const code = form.get("code");
    if (typeof idToken !== "string" || !idToken || typeof code !== "string" || !code) {
      throw new AppleSignInError("apple", "code or id_token missing");
    }
    const claims = AppleClaims.parse(await verifyAppleIdToken(idToken));
    if (claims.nonce !== state.nonce) throw new AppleSignInError("apple", "id_token nonce does not match the state");
    const redeemed = await redeemAppleCode(code, check.redirectUri);
    if (redeemed.sub !== claims.sub) throw new AppleSignInError("apple", "code and id_token name different users");
    const user = parseAppleUser(form.get("user"));
    const signIn = await signInWithProvider({
      provider: "apple",
      subject: claims.sub,
      email: claims.email,
      emailVerified: claims.email_verified === true || claims.email_verified === "true",
      firstName: user?.name?.firstName ?? null,
      lastName: user?.name?.lastName ?? null,
    });
    return { ok: true, signIn, next: state.next };
  } catch (error) {
    if (error instanceof UnverifiedEmailConflictError) return { ok: false, code: "apple-unverified" };
    log("info", "apple sign-in failed", {
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return { ok: false, code: error instanceof AppleSignInError ? error.code : "apple" };
  }
}
