import crypto from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { oauthStateSecret, type OAuthProvider } from "./config.server";

/**
 * OAuth state that the server can check without a cookie: a JWT (HS256, through `jose`).
 * Apple answers with a cross-site form_post, which does not carry our SameSite=Lax cookies, so
 * Apple's state cannot live in a cookie: it is signed instead, expires after ten minutes, names its
 * provider (the audience), and carries a random nonce that Apple copies into the id_token (checked there).
 */
export type OAuthState = { provider: OAuthProvider; nonce: string; expiresAt: number; next: string | null };

export const STATE_TTL_SECONDS = 600;
const ISSUER = "grader-oauth-state";

// Its own key, derived from the state secret (which also signs the Google state cookie).
function key(): Uint8Array {
  return crypto.createHmac("sha256", oauthStateSecret()).update(ISSUER).digest();
}

export async function createStateToken(
  provider: OAuthProvider,
  next: string | null,
  now = Date.now(),
): Promise<{ token: string; state: OAuthState }> {
  const state: OAuthState = {
    provider,
    nonce: crypto.randomBytes(24).toString("base64url"),
    expiresAt: Math.floor(now / 1000) + STATE_TTL_SECONDS,
    next,
  };
  const token = await new SignJWT({ n: state.nonce, r: state.next })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setAudience(provider)
    .setExpirationTime(state.expiresAt)
    .sign(key());
  return { token, state };
}

/** The state, or null when it is missing, forged, for another provider or expired. */
export async function verifyStateToken(
  token: unknown,
  provider: OAuthProvider,
  now = Date.now(),
): Promise<OAuthState | null> {
  if (typeof token !== "string" || token.length > 2000) return null;
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: provider,
      requiredClaims: ["exp"],
      currentDate: new Date(now),
    });
    if (typeof payload.n !== "string") return null;
    return {
      provider,
      nonce: payload.n,
      expiresAt: payload.exp!,
      next: typeof payload.r === "string" ? payload.r : null,
    };
  } catch {
    return null;
  }
}
