import { sql } from "kysely";
import { keyedHashes } from "../platform/crypto.server";
import type { DB } from "../platform/db.server";

// The free tries of deleted accounts, kept only as a keyed hash of the e-mail (DECISIONS 106).
// Callers pass the e-mail normalised (users.server's normalizeEmail).

const hashes = (email: string) => keyedHashes("retired-tries", email);

/** At deletion, inside its transaction: remembers the tries the account used. */
export async function retireTries(exec: DB, email: string, used: number): Promise<void> {
  if (used <= 0) return;
  await exec
    .insertInto("retired_tries")
    .values({ email_hmac: hashes(email)[0]!, tries_used: used })
    .onConflict((oc) =>
      oc.column("email_hmac").doUpdateSet({
        tries_used: sql`greatest(retired_tries.tries_used, excluded.tries_used)`,
        retired_at: sql`now()`,
      }),
    )
    .execute();
}

/**
 * At sign-up, in the transaction that creates the user: a new account for an e-mail whose earlier
 * account was deleted starts with the free tries that account had used.
 */
export async function applyRetiredTries(exec: DB, userId: number, email: string): Promise<void> {
  const row = await exec
    .selectFrom("retired_tries")
    .select((eb) => eb.fn.max("tries_used").as("used"))
    .where("email_hmac", "in", hashes(email))
    .executeTakeFirst();
  if (row?.used)
    await exec
      .updateTable("users")
      .set({ tries_used: sql`greatest(tries_used, ${row.used})` })
      .where("id", "=", userId)
      .execute();
}
