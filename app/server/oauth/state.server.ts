import crypto from "node:crypto";
import { oauthStateSecret, type OAuthProvider } from "./config.server";

/**
 * OAuth state that the server can check without a cookie: base64url(JSON payload) "." HMAC-SHA256.
 * Apple answers with a cross-site form_post, which does not carry our SameSite=Lax cookies, so
 * Apple's state cannot live in a cookie: it is signed instead, expires after ten minutes, names its
 * provider, and carries a random nonce that Apple copies into the id_token (checked there).
 */
export type OAuthState = { provider: OAuthProvider; nonce: string; expiresAt: number; next: string | null };

export const STATE_TTL_SECONDS = 600;

function sign(payload: string): string {
  return crypto.createHmac("sha256", oauthStateSecret()).update(`grader-oauth-state.${payload}`).digest("base64url");
}

export function createStateToken(
  provider: OAuthProvider,
  next: string | null,
  now = Date.now(),
): { token: string; state: OAuthState } {
  const state: OAuthState = {
    provider,
    nonce: crypto.randomBytes(24).toString("base64url"),
    expiresAt: Math.floor(now / 1000) + STATE_TTL_SECONDS,
    next,
  };
  const payload = Buffer.from(
    JSON.stringify({ p: state.provider, n: state.nonce, e: state.expiresAt, r: state.next }),
  ).toString("base64url");
  return { token: `${payload}.${sign(payload)}`, state };
}

/** The state, or null when it is missing, forged, for another provider or expired. */
export function verifyStateToken(token: unknown, provider: OAuthProvider, now = Date.now()): OAuthState | null {
  if (typeof token !== "string" || token.length > 2000) return null;
  const [payload, mac, ...rest] = token.split(".");
  if (!payload || !mac || rest.length) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  try {
    const raw = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      p?: unknown;
      n?: unknown;
      e?: unknown;
      r?: unknown;
    };
    if (raw.p !== provider || typeof raw.n !== "string" || typeof raw.e !== "number") return null;
    if (raw.e < Math.floor(now / 1000)) return null;
    return { provider, nonce: raw.n, expiresAt: raw.e, next: typeof raw.r === "string" ? raw.r : null };
  } catch {
    return null;
  }
}
