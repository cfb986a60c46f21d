import crypto from "node:crypto";
import { http, HttpResponse, type RequestHandler } from "msw";
import { simDelay } from "./sim-delay";

/**
 * The browsers' push services (RFC 8030 delivery, RFC 8291 aes128gcm payloads, RFC 8292 VAPID), as
 * FCM (Chrome), Mozilla autopush (Firefox) and Apple (Safari) answer a POST to a subscription's
 * endpoint: 201 Created with a Location; 400 without a TTL or with another Content-Encoding; 403
 * when the VAPID token is missing, expired, signed by another key or for another audience; 413 past
 * 4,096 bytes; 404/410 for a subscription that is gone; 429 with Retry-After when throttled. The
 * endpoint's last path segment picks the case: `gone-…` answers 410, `expired-…` 404,
 * `throttled-…` 429. What was delivered lands in `inbox`, still encrypted, as the browser gets it.
 */
export type ReceivedPush = {
  endpoint: string;
  ttl: number;
  urgency: string | null;
  body: Buffer;
  /** The VAPID public key (k=) the token was checked against. */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
};

export const PUSH_SERVICES = [
  "https://fcm.googleapis.com/fcm/send/:token",
  "https://updates.push.services.mozilla.com/wpush/v2/:token",
  "https://web.push.apple.com/:token",
] as const;

const MAX_PAYLOAD = 4096;

function refuse(status: number, reason: string, headers: Record<string, string> = {}) {
  return HttpResponse.json({ code: status, errno: status === 410 ? 106 : 999, error: reason }, { status, headers });
}

/** Checks `vapid t=<jwt>, k=<key>` (RFC 8292 §3): an ES256 JWT for this origin, valid now, at most 24 h. */
function checkVapid(header: string | null, origin: string): ReceivedPush["claims"] & { key: string } {
  const m = header && /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header.trim());
  if (!m) throw new Error("Authorization must be vapid t=…, k=…");
  const [, token, key] = m as unknown as [string, string, string];
  const [head, body, sig] = token.split(".");
  if (!head || !body || !sig) throw new Error("the token is not a JWT");
  const header64 = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg?: string };
  if (header64.alg !== "ES256") throw new Error("the token must be ES256");
  const raw = Buffer.from(key, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
  const publicKey = crypto.createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = crypto.verify(
    "sha256",
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(sig, "base64url"),
  );
  if (!ok) throw new Error("the token's signature does not match k");
  const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as ReceivedPush["claims"];
  const now = Date.now() / 1000;
  if (claims.aud !== origin) throw new Error(`aud must be ${origin}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600 + 60)) throw new Error("exp must be within 24 hours");
  if (!/^(mailto:|https:\/\/)/.test(claims.sub ?? "")) throw new Error("sub must be a mailto: or https: URL");
  return { ...claims, key };
}

export function pushHandlers(inbox: ReceivedPush[]): RequestHandler[] {
  return PUSH_SERVICES.map((pattern) =>
    http.post(pattern, async ({ request, params }) => {
      await simDelay(40);
      const url = new URL(request.url);
      const token = String(params.token);
      let vapid;
      try {
        vapid = checkVapid(request.headers.get("authorization"), url.origin);
      } catch (e) {
        return refuse(403, `invalid VAPID credentials: ${(e as Error).message}`);
      }
      const ttl = request.headers.get("ttl");
      if (ttl === null || !/^\d+$/.test(ttl)) return refuse(400, "TTL header is required");
      const body = Buffer.from(await request.arrayBuffer());
      if (body.length && request.headers.get("content-encoding") !== "aes128gcm")
        return refuse(400, "Content-Encoding must be aes128gcm");
      if (body.length > MAX_PAYLOAD) return refuse(413, "payload too large");
      if (token.startsWith("gone-")) return refuse(410, "push subscription has unsubscribed or expired");
      if (token.startsWith("expired-")) return refuse(404, "push subscription not found");
      if (token.startsWith("throttled-")) return refuse(429, "too many requests", { "Retry-After": "60" });
      inbox.push({
        endpoint: request.url,
        ttl: Number(ttl),
        urgency: request.headers.get("urgency"),
        body,
        vapidKey: vapid.key,
        claims: { aud: vapid.aud, exp: vapid.exp, sub: vapid.sub },
      });
      return new HttpResponse(null, {
        status: 201,
        headers: { Location: `${url.origin}/m/${crypto.randomUUID()}` },
      });
    }),
  );
}
