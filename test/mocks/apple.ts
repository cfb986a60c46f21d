import crypto from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from "jose";
import { http, HttpResponse } from "msw";

/**
 * A simulator of Sign in with Apple for demo mode and tests. At start it makes an RS256 key pair
 * and serves the public half at /auth/keys, so id_tokens it signs pass the app's real JWKS
 * verification. DEMO_CONSENT (asked by app/routes/_auth+/oauth.demo.apple.tsx) plays Apple's consent step:
 * it returns the code and id_token Apple would form_post; /auth/token redeems that code. The
 * subject is derived from the email, like Apple's stable per-team user id.
 */
export const APPLE_KEYS_URL = "https://appleid.apple.com/auth/keys";
export const APPLE_TOKEN_URL = "https://appleid.apple.com/auth/token";
export const APPLE_DEMO_CONSENT_URL = "https://appleid.apple.com/demo/consent";
const ISSUER = "https://appleid.apple.com";

type CodePayload = { email: string; verified: boolean; nonce: string | null; aud: string };

export function demoAppleSubject(email: string): string {
  const hex = crypto.createHash("sha256").update(`apple:${email.trim().toLowerCase()}`).digest("hex");
  return `000${String(parseInt(hex.slice(0, 5), 16) % 1_000_000).padStart(6, "0")}.${hex.slice(5, 37)}.${hex.slice(37, 41)}`;
}

export async function appleHandlers() {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `demo-${crypto.randomBytes(5).toString("hex")}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, use: "sig", alg: "RS256" };

  async function idToken(payload: CodePayload, withNonce: boolean) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      email: payload.email,
      email_verified: payload.verified ? "true" : "false",
      is_private_email: "false",
      auth_time: now,
      nonce_supported: true,
      ...(withNonce && payload.nonce ? { nonce: payload.nonce } : {}),
    })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(ISSUER)
      .setAudience(payload.aud)
      .setSubject(demoAppleSubject(payload.email))
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(privateKey);
  }

  const encode = (p: CodePayload) => `demo-apple.${Buffer.from(JSON.stringify(p)).toString("base64url")}`;
  function decode(code: string | null): CodePayload | null {
    if (!code?.startsWith("demo-apple.")) return null;
    try {
      const raw = JSON.parse(Buffer.from(code.slice(11), "base64url").toString("utf8")) as CodePayload;
      return typeof raw.email === "string" && typeof raw.aud === "string" ? raw : null;
    } catch {
      return null;
    }
  }

  return [
    http.get(APPLE_KEYS_URL, () => HttpResponse.json({ keys: [jwk] })),

    http.post(APPLE_DEMO_CONSENT_URL, async ({ request }) => {
      const body = (await request.json()) as {
        email?: unknown;
        verified?: unknown;
        nonce?: unknown;
        client_id?: unknown;
      };
      if (typeof body.email !== "string" || !body.email.includes("@") || typeof body.client_id !== "string") {
        return HttpResponse.json({ error: "invalid_request" }, { status: 400 });
      }
      const payload: CodePayload = {
        email: body.email.trim().toLowerCase(),
        verified: body.verified !== false,
        nonce: typeof body.nonce === "string" ? body.nonce : null,
        aud: body.client_id,
      };
      return HttpResponse.json({ code: encode(payload), id_token: await idToken(payload, true) });
    }),

    http.post(APPLE_TOKEN_URL, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const payload = decode(form.get("code"));
      const clientId = form.get("client_id");
      let secretOk = false;
      try {
        const secret = decodeJwt(form.get("client_secret") ?? "");
        secretOk =
          secret.sub === clientId &&
          secret.aud === ISSUER &&
          typeof secret.iss === "string" &&
          (secret.exp ?? 0) * 1000 > Date.now();
      } catch {
        secretOk = false;
      }
      if (!secretOk) return HttpResponse.json({ error: "invalid_client" }, { status: 400 });
      if (form.get("grant_type") !== "authorization_code" || !form.get("redirect_uri"))
        return HttpResponse.json({ error: "invalid_request" }, { status: 400 });
      if (!payload || payload.aud !== clientId) return HttpResponse.json({ error: "invalid_grant" }, { status: 400 });
      if (payload.email.startsWith("error500")) return HttpResponse.json({ error: "server_error" }, { status: 500 });
      return HttpResponse.json({
        access_token: `demo-apple-at.${crypto.randomBytes(8).toString("hex")}`,
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: `demo-apple-rt.${crypto.randomBytes(8).toString("hex")}`,
        id_token: await idToken(payload, false),
      });
    }),
  ];
}
