import { getDb } from "../platform/db.server";
import { applyRetiredTries } from "./retired-tries.server";
import { burnPasswordCheck, checkPassword, hashPassword } from "./password.server";
import type { SessionUser } from "../http/session.server";

/** PRODUCT §3's user record, as the browser and the JSON API see it. */
export type PublicUser = {
  id: number;
  username: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar: string | null;
  platform_name: string | null;
  is_star: boolean;
  email_verified: boolean;
  onboarded: boolean;
};

export function toPublicUser(user: SessionUser): PublicUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    name: user.name,
    avatar: user.avatar_url,
    platform_name: user.platform_name,
    // A starred user is one with a grade (PRODUCT §3).
    is_star: user.current_evaluation_id !== null,
    email_verified: user.email_verified_at !== null,
    onboarded: user.onboarded_at !== null,
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type NewUser = {
  email: string;
  password: string;
  username?: string | null;
  first_name?: string | null;
  last_name?: string | null;
};

/** Creates the user, or returns null when the email (or username) is already taken. */
export async function createUser(input: NewUser): Promise<{ id: number } | null> {
  const db = await getDb();
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("users")
      .values({
        email: normalizeEmail(input.email),
        password_hash: passwordHash,
        username: input.username ?? null,
        first_name: input.first_name ?? null,
        last_name: input.last_name ?? null,
      })
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst();
    // A deleted account's used free tries come back with its e-mail (retired-tries.server.ts).
    if (row) await applyRetiredTries(trx, row.id, normalizeEmail(input.email));
    return row ?? null;
  });
}

/** The user id for a correct email and password, else null; same cost either way. */
export async function verifyLogin(email: string, password: string): Promise<number | null> {
  const db = await getDb();
  const user = await db
    .selectFrom("users")
    .select(["id", "password_hash"])
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  if (!user?.password_hash) {
    await burnPasswordCheck(password);
    return null;
  }
  const check = await checkPassword(user.password_hash, password);
  if (!check.ok) return null;
  if (check.rehash) {
    // A hash from before NFC normalisation: replaced by the NFC one, unless it changed meanwhile.
    await db
      .updateTable("users")
      .set({ password_hash: await hashPassword(password) })
      .where("id", "=", user.id)
      .where("password_hash", "=", user.password_hash)
      .execute();
  }
  return user.id;
}
