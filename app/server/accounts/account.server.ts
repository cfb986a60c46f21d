import { sql } from "kysely";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { enqueueMail } from "../platform/mail.server";
import { hashPassword, verifyPassword } from "./password.server";
import { recordReferral } from "../community/points.server";
import { clientIp, hitLimit } from "../http/rate-limit.server";
import { createSession, hashToken } from "../http/session.server";
import { consumeToken, issueToken, voidTokens } from "./tokens.server";
import { createUser, normalizeEmail, type NewUser } from "./users.server";

function link(path: string, token: string) {
  // Built from the configured public URL, never from the request's Host header.
  const url = new URL(path, getEnv().PUBLIC_URL);
  url.searchParams.set("token", token);
  return url.toString();
}

export type SignUpOutcome =
  | { ok: true; token: string; setCookie: string }
  | { ok: false; reason: "throttled"; retryAfter: number; message: string }
  | { ok: false; reason: "taken" };

const SIGNUP_THROTTLED = {
  ip: "Too many sign-ups from here. Please try again later.",
  email: "Too many attempts. Please wait a moment and try again.",
};

/**
 * Sign-up, the one service behind /signup and POST /api/user/register. Both limits (`signup-ip`,
 * `signup-email`) are what keeps the "taken" answer from listing accounts (DECISIONS 5). A new
 * account gets its verification mail, the referral of `ref` (the /airdrop link) and a session.
 */
export async function signUp(request: Request, input: NewUser & { ref?: string | null }): Promise<SignUpOutcome> {
  const ipLimit = await hitLimit("signup-ip", clientIp(request));
  if (!ipLimit.ok)
    return { ok: false, reason: "throttled", retryAfter: ipLimit.retryAfter, message: SIGNUP_THROTTLED.ip };
  const emailLimit = await hitLimit("signup-email", normalizeEmail(input.email));
  if (!emailLimit.ok)
    return { ok: false, reason: "throttled", retryAfter: emailLimit.retryAfter, message: SIGNUP_THROTTLED.email };
  const user = await createUser(input);
  if (!user) return { ok: false, reason: "taken" };
  await recordReferral(user.id, input.ref);
  await sendVerificationEmail(user.id);
  const { token, setCookie } = await createSession(user.id, request);
  return { ok: true, token, setCookie };
}

/** Always succeeds from the caller's point of view: whether the email exists is never revealed. */
export async function requestPasswordReset(emailInput: string): Promise<void> {
  const db = await getDb();
  const email = normalizeEmail(emailInput);
  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    if (!user) return;
    const token = await issueToken(trx, user.id, "reset");
    await enqueueMail(
      {
        to: email,
        subject: "Reset your Grader password",
        text: `Someone asked to reset the password of your Grader account.\n\nReset it here (valid for 30 minutes, once):\n${link("/reset-password", token)}\n\nIf it wasn't you, ignore this email: your password stays as it is.`,
      },
      trx,
    );
  });
}

/** Sets a new password from a reset token and revokes every session of the user. */
export async function resetPassword(token: string, newPassword: string): Promise<boolean> {
  const db = await getDb();
  const passwordHash = await hashPassword(newPassword);
  return db.transaction().execute(async (trx) => {
    const userId = await consumeToken(trx, token, "reset");
    if (!userId) return false;
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    // Every other reset link sent before is void now.
    await voidTokens(trx, userId, "reset");
    return true;
  });
}

export async function sendVerificationEmail(userId: number): Promise<void> {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["email", "email_verified_at"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user || user.email_verified_at) return;
    const token = await issueToken(trx, userId, "verify");
    await enqueueMail(
      {
        to: user.email,
        subject: "Confirm your email for Grader",
        text: `Welcome to Grader!\n\nConfirm your email address here (valid for 24 hours):\n${link("/verify-email", token)}`,
      },
      trx,
    );
  });
}

export async function verifyEmail(token: string): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const userId = await consumeToken(trx, token, "verify");
    if (!userId) return false;
    await trx
      .updateTable("users")
      .set({ email_verified_at: sql`now()` })
      .where("id", "=", userId)
      .where("email_verified_at", "is", null)
      .execute();
    return true;
  });
}

/** Changes the password after checking the current one; every other session is revoked. */
export async function changePassword(
  userId: number,
  currentToken: string | undefined,
  current: string,
  next: string,
): Promise<boolean> {
  const db = await getDb();
  const user = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  if (!user?.password_hash || !(await verifyPassword(user.password_hash, current))) return false;
  const passwordHash = await hashPassword(next);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where("id", "=", userId)
      .execute();
    await voidTokens(trx, userId, "reset");
    let revoke = trx.deleteFrom("sessions").where("user_id", "=", userId);
    if (currentToken) revoke = revoke.where("id_hash", "!=", hashToken(currentToken));
    await revoke.execute();
  });
  return true;
}
