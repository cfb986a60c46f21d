import crypto from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../platform/db.server";
import { hashToken } from "../http/session.server";

export const TOKEN_TTL_MS = { reset: 30 * 60_000, verify: 24 * 3_600_000 } as const;
export type TokenPurpose = keyof typeof TOKEN_TTL_MS;

/** A random single-use token; only its hash is stored. */
export async function issueToken(db: DB, userId: number, purpose: TokenPurpose): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db
    .insertInto("auth_tokens")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      expires_at: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
    })
    .execute();
  return token;
}

/** Marks the token used and returns its user, in one conditional UPDATE (two racing uses: one wins). */
export async function consumeToken(db: DB, token: string, purpose: TokenPurpose): Promise<number | null> {
  if (!token || token.length > 100) return null;
  const row = await db
    .updateTable("auth_tokens")
    .set({ used_at: sql`now()` })
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * Voids every unused token of a purpose for a user: once one reset link is used or the password
 * changes, no older link opens the account.
 */
export async function voidTokens(db: DB, userId: number, purpose: TokenPurpose): Promise<void> {
  await db
    .updateTable("auth_tokens")
    .set({ used_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
}

/** Checks a token without using it (to show the reset form only for a live link). */
export async function peekToken(db: DB, token: string, purpose: TokenPurpose): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const row = await db
    .selectFrom("auth_tokens")
    .select("user_id")
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
  return Boolean(row);
}
