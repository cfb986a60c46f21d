import { sql } from "kysely";
import type { BaseCurrency } from "~/lib/currencies";
import { hitLimit } from "../http/rate-limit.server";
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

export const BASE_CURRENCY_LIMIT_MESSAGE =
  "You've hit today's limit for changing your base currency—try again tomorrow!";

// Thrown inside the transaction to roll the whole save back; never leaves updateProfile.
class OverCurrencyLimit extends Error {
  constructor(readonly retryAfter: number) {
    super("base currency limit");
  }
}

/**
 * Saves profile fields; returns "username-taken" when the unique constraint says so. A new base
 * currency of a trader with a grade queues its re-make in the same transaction (the
 * `currency-regrade` job, DECISIONS 181) and answers "regrading". Each re-make is a grade in the
 * public log made outside the daily limit, so such changes are counted per day (RATE_LIMITS
 * "base-currency"); over it nothing is saved and the answer says when to try again.
 */
export async function updateProfile(
  userId: number,
  update: ProfileUpdate,
): Promise<"ok" | "regrading" | "username-taken" | { limited: true; retryAfter: number; message: string }> {
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
      const counted = await hitLimit("base-currency", userId);
      if (!counted.ok) throw new OverCurrencyLimit(counted.retryAfter);
      await enqueue(trx, "currency-regrade", { userId, currency: fields.base_currency });
      return "regrading";
    });
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return "username-taken";
    if (error instanceof OverCurrencyLimit)
      return { limited: true, retryAfter: error.retryAfter, message: BASE_CURRENCY_LIMIT_MESSAGE };
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
