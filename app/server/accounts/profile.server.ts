import { sql } from "kysely";
import type { BaseCurrency } from "~/lib/currencies";
import { getDb } from "../platform/db.server";
import { enqueue } from "../platform/jobs.server";

export type ProfileUpdate = {
  username: string;
  first_name: string | null;
  last_name: string | null;
  markets?: string[];
  experience?: string;
  show_amounts?: boolean;
  share_trades?: boolean;
  time_zone?: string;
  base_currency?: BaseCurrency;
  onboarded?: boolean;
};

/**
 * Saves profile fields; returns "username-taken" when the unique constraint says so. A new base
 * currency of a trader with a grade queues its re-make in the same transaction (the
 * `currency-regrade` job, DECISIONS 181) and answers "regrading".
 */
export async function updateProfile(
  userId: number,
  update: ProfileUpdate,
): Promise<"ok" | "regrading" | "username-taken"> {
  const db = await getDb();
  const { onboarded, ...fields } = update;
  try {
    return await db.transaction().execute(async (trx) => {
      const before = fields.base_currency
        ? await trx
            .selectFrom("users")
            .select(["base_currency", "current_evaluation_id"])
            .where("id", "=", userId)
            .forUpdate()
            .executeTakeFirst()
        : undefined;
      await trx
        .updateTable("users")
        .set({
          ...fields,
          updated_at: sql`now()`,
          ...(onboarded ? { onboarded_at: sql`coalesce(onboarded_at, now())` } : {}),
        })
        .where("id", "=", userId)
        .execute();
      if (!before || !fields.base_currency || before.base_currency === fields.base_currency) return "ok";
      if (before.current_evaluation_id === null) return "ok";
      await enqueue(trx, "currency-regrade", { userId, currency: fields.base_currency });
      return "regrading";
    });
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
      "base_currency",
      "email",
      "avatar_url",
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}
