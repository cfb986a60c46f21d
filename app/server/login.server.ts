import crypto from "node:crypto";
import { derivedKey } from "./crypto.server";
import { getDb } from "./db.server";
import { getEnv } from "./env.server";
import { hitRateLimit } from "./rate-limit.server";
import { readCookie } from "./session.server";
import { normalizeEmail, verifyLogin } from "./users.server";

/**
 * Sign-in with email and password, shared by /signin and the JSON API. The per-account limit
 * (100 attempts an hour) slows password guessing from many addresses, but on its own it let
 * anyone lock a known account out for an hour. A browser that signed in to the account before
 * carries a device cookie (HMAC-signed user id, a year) and is exempt: the owner's own browser
 * keeps working while an attacker is throttled. The per-IP limit applies to everyone.
 */
export const DEVICE_COOKIE = "grader_device";
const DEVICE_MAX_AGE_S = 365 * 86_400;
const ACCOUNT_LIMIT = 100;

function sign(userId: number, issued: number): string {
  return crypto.createHmac("sha256", derivedKey("login-device")).update(`${userId}.${issued}`).digest("base64url");
}

export function deviceCookie(userId: number, now = Date.now()): string {
  const issued = Math.floor(now / 1000);
  const secure = getEnv().PUBLIC_URL.startsWith("https:") ? "; Secure" : "";
  return `${DEVICE_COOKIE}=${userId}.${issued}.${sign(userId, issued)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${DEVICE_MAX_AGE_S}${secure}`;
}

/** The user whose earlier sign-in this browser proves, or null. */
export function deviceUser(request: Request, now = Date.now()): number | null {
  const value = readCookie(request, DEVICE_COOKIE);
  const m = value && /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return null;
  const userId = Number(m[1]);
  const issued = Number(m[2]);
  if (now / 1000 - issued > DEVICE_MAX_AGE_S) return null;
  const expected = Buffer.from(sign(userId, issued));
  const given = Buffer.from(m[3]!);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? userId : null;
}

export type LoginOutcome =
  | { ok: true; userId: number; deviceCookie: string }
  | { ok: false; reason: "throttled"; retryAfter: number }
  | { ok: false; reason: "wrong" };

export async function attemptLogin(request: Request, email: string, password: string): Promise<LoginOutcome> {
  const known = deviceUser(request);
  let owner = false;
  if (known !== null) {
    const db = await getDb();
    const row = await db.selectFrom("users").select("id").where("email", "=", normalizeEmail(email)).executeTakeFirst();
    owner = row?.id === known;
  }
  if (!owner) {
    const limit = await hitRateLimit(`login:account:${normalizeEmail(email)}`, ACCOUNT_LIMIT, 3600);
    if (!limit.ok) return { ok: false, reason: "throttled", retryAfter: limit.retryAfter };
  }
  const userId = await verifyLogin(email, password);
  if (!userId) return { ok: false, reason: "wrong" };
  return { ok: true, userId, deviceCookie: deviceCookie(userId) };
}
