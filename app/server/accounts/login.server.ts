import crypto from "node:crypto";
import { derivedKey } from "../platform/crypto.server";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { clientIp, hitLimit } from "../http/rate-limit.server";
import { createSession, readCookie } from "../http/session.server";
import { normalizeEmail, verifyLogin } from "./users.server";

/**
 * Sign-in with email and password, the one service behind /signin and POST /api/user/login. The
 * per-account limit (`login-account`) slows password guessing from many addresses, but on its own it let
 * anyone lock a known account out for an hour. A browser that signed in to the account before
 * carries a device cookie (HMAC-signed user id, a year) and is exempt: the owner's own browser
 * keeps working while an attacker is throttled. The per-IP limit applies to everyone.
 */
export const DEVICE_COOKIE = "grader_device";
const DEVICE_MAX_AGE_S = 365 * 86_400;

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

export type SignInOutcome =
  /** `cookies`: the session's and the device's Set-Cookie values. */
  | { ok: true; token: string; cookies: string[] }
  | { ok: false; reason: "throttled"; retryAfter: number; message: string }
  | { ok: false; reason: "wrong" };

const SIGNIN_THROTTLED = {
  ip: "Too many attempts. Please wait a moment and try again.",
  account: "Too many failed attempts for this account. Try again later or reset your password.",
};

/** Counts the attempt against the client's address and (unless from the owner's device) the account, then checks the password and opens a session. */
export async function signIn(request: Request, email: string, password: string): Promise<SignInOutcome> {
  const ipLimit = await hitLimit("login-ip", clientIp(request));
  if (!ipLimit.ok)
    return { ok: false, reason: "throttled", retryAfter: ipLimit.retryAfter, message: SIGNIN_THROTTLED.ip };
  if (!(await isOwnersDevice(request, email))) {
    const limit = await hitLimit("login-account", normalizeEmail(email));
    if (!limit.ok)
      return { ok: false, reason: "throttled", retryAfter: limit.retryAfter, message: SIGNIN_THROTTLED.account };
  }
  const userId = await verifyLogin(email, password);
  if (!userId) return { ok: false, reason: "wrong" };
  const { token, setCookie } = await createSession(userId, request);
  return { ok: true, token, cookies: [setCookie, deviceCookie(userId)] };
}

async function isOwnersDevice(request: Request, email: string): Promise<boolean> {
  const known = deviceUser(request);
  if (known === null) return false;
  const db = await getDb();
  const row = await db.selectFrom("users").select("id").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  return row?.id === known;
}
