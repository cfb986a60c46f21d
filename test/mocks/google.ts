import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/**
 * A deterministic simulator of Google's OAuth endpoints for demo mode and tests. The demo consent
 * page (app/routes/_auth+/oauth.demo.google.tsx) asks DEMO_CONSENT for a code; the code carries the chosen
 * identity, so the token and userinfo endpoints answer with it. The subject is derived from the
 * email, so the same email is always the same Google account. An email whose local part starts with
 * "error500" makes the token endpoint fail with 500 (to show provider outages).
 */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const GOOGLE_USERINFO_URL = "https://www.googleapis.com/oauth2/v3/userinfo";
export const GOOGLE_DEMO_CONSENT_URL = "https://accounts.google.com/demo/consent";

type DemoIdentity = { email: string; name: string; verified: boolean };

function encode(identity: DemoIdentity): string {
  return Buffer.from(JSON.stringify(identity)).toString("base64url");
}

function decode(value: string | null | undefined, prefix: string): DemoIdentity | null {
  if (!value?.startsWith(prefix)) return null;
  try {
    const raw = JSON.parse(
      Buffer.from(value.slice(prefix.length), "base64url").toString("utf8"),
    ) as Partial<DemoIdentity>;
    if (typeof raw.email !== "string" || typeof raw.name !== "string" || typeof raw.verified !== "boolean") return null;
    return { email: raw.email, name: raw.name, verified: raw.verified };
  } catch {
    return null;
  }
}

export function demoGoogleSubject(email: string): string {
  const hex = crypto.createHash("sha256").update(`google:${email.trim().toLowerCase()}`).digest("hex").slice(0, 16);
  return `1${BigInt(`0x${hex}`).toString().padStart(20, "0")}`;
}

export function googleHandlers() {
  return [
    http.post(GOOGLE_DEMO_CONSENT_URL, async ({ request }) => {
      const body = (await request.json()) as Partial<DemoIdentity>;
      if (typeof body.email !== "string" || !body.email.includes("@"))
        return HttpResponse.json({ error: "invalid_request" }, { status: 400 });
      const identity = {
        email: body.email.trim().toLowerCase(),
        name: String(body.name ?? "").slice(0, 100) || "Demo Google User",
        verified: body.verified !== false,
      };
      return HttpResponse.json({ code: `demo-code.${encode(identity)}` });
    }),

    http.post(GOOGLE_TOKEN_URL, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const identity = decode(form.get("code"), "demo-code.");
      if (
        form.get("grant_type") !== "authorization_code" ||
        !form.get("client_id") ||
        !form.get("client_secret") ||
        !form.get("redirect_uri")
      ) {
        return HttpResponse.json({ error: "invalid_request" }, { status: 400 });
      }
      if (!identity)
        return HttpResponse.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 });
      if (identity.email.startsWith("error500"))
        return HttpResponse.json({ error: "internal_failure" }, { status: 500 });
      return HttpResponse.json({
        access_token: `demo-at.${encode(identity)}`,
        expires_in: 3599,
        scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
        token_type: "Bearer",
        id_token: "demo.id.token",
      });
    }),

    http.get(GOOGLE_USERINFO_URL, ({ request }) => {
      const auth = request.headers.get("authorization") ?? "";
      const identity = decode(auth.startsWith("Bearer ") ? auth.slice(7) : null, "demo-at.");
      if (!identity)
        return HttpResponse.json(
          { error: "invalid_request", error_description: "Invalid Credentials" },
          { status: 401 },
        );
      const [given, ...family] = identity.name.split(" ");
      return HttpResponse.json({
        sub: demoGoogleSubject(identity.email),
        name: identity.name,
        given_name: given ?? identity.name,
        family_name: family.join(" ") || undefined,
        picture: "https://lh3.googleusercontent.com/a/demo-avatar=s96-c",
        email: identity.email,
        email_verified: identity.verified,
      });
    }),
  ];
}
