import { sql } from "kysely";
import { getDb } from "../platform/db.server";

export type ProfileUpdate = {
  username: string;
  first_name: string | null;
  last_name: string | null;
  markets?: string[];
  experience?: string;
  show_amounts?: boolean;
  share_trades?: boolean;
  time_zone?: string;
  onboarded?: boolean;
};

/** Saves profile fields; returns "username-taken" when the unique constraint says so. */
export async function updateProfile(userId: number, update: ProfileUpdate): Promise<"ok" | "username-taken"> {
  const db = await getDb();
  const { onboarded, ...fields } = update;
  try {
    await db
      .updateTable("users")
      .set({
        ...fields,
        updated_at: sql`now()`,
        ...(onboarded ? { onboarded_at: sql`coalesce(onboarded_at, now())` } : {}),
      })
      .where("id", "=", userId)
      .execute();
    return "ok";
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return "username-taken";
    throw error;
  }
}

export async function getProfile(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("users")
    .select([
      "username",
      "first_name",
      "last_name",
      "markets",
      "experience",
      "show_amounts",
      "share_trades",
      "time_zone",
      "email",
      "avatar_url",
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}
