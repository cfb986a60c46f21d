import { getDb } from "../../platform/db.server";
import { applyRetiredTries } from "../retired-tries.server";
import { normalizeEmail } from "../users.server";
import type { OAuthProvider } from "./config.server";

/** What a provider told us about the person, after its token or id_token was verified. */
export type ProviderIdentity = {
  provider: OAuthProvider;
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
};

/** An unverified provider email matches an existing account: joining would let anyone claim it. */
export class UnverifiedEmailConflictError extends Error {
  constructor(readonly provider: OAuthProvider) {
    super(`The ${provider} email is not verified and belongs to an existing account.`);
    this.name = "UnverifiedEmailConflictError";
  }
}

export type ProviderSignIn = { userId: number; isNew: boolean };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Finds or creates the user for a provider identity, in one transaction:
 * 1. a known (provider, subject) signs in to its user;
 * 2. otherwise a verified email joins the existing account with that email. If that account's own
 *    email was never verified, whoever set its password never proved they own the address, so the
 *    password and other sessions are dropped (pre-account-takeover defence; the owner can reset);
 * 3. an unverified email that matches an account is refused (UnverifiedEmailConflictError);
 * 4. otherwise a new user without a password, email verified when the provider says so.
 */
export async function signInWithProvider(identity: ProviderIdentity): Promise<ProviderSignIn> {
  const email = normalizeEmail(identity.email);
  if (!EMAIL.test(email) || email.length > 254) throw new Error("The provider gave no usable email address.");
  if (!identity.subject || identity.subject.length > 255) throw new Error("The provider gave no subject.");
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const known = await trx
      .selectFrom("user_identities")
      .select(["user_id", "email"])
      .where("provider", "=", identity.provider)
      .where("subject", "=", identity.subject)
      .executeTakeFirst();
    if (known) {
      if (known.email !== email) {
        await trx
          .updateTable("user_identities")
          .set({ email })
          .where("provider", "=", identity.provider)
          .where("subject", "=", identity.subject)
          .execute();
      }
      return { userId: known.user_id, isNew: false };
    }

    const existing = await trx
      .selectFrom("users")
      .select(["id", "email_verified_at"])
      .where("email", "=", email)
      .forUpdate()
      .executeTakeFirst();
    if (existing) {
      if (!identity.emailVerified) throw new UnverifiedEmailConflictError(identity.provider);
      if (!existing.email_verified_at) {
        await trx
          .updateTable("users")
          .set({ email_verified_at: new Date(), password_hash: null, updated_at: new Date() })
          .where("id", "=", existing.id)
          .execute();
        await trx.deleteFrom("sessions").where("user_id", "=", existing.id).execute();
      }
      await trx
        .insertInto("user_identities")
        .values({ provider: identity.provider, subject: identity.subject, user_id: existing.id, email })
        .execute();
      return { userId: existing.id, isNew: false };
    }

    const name = identity.name ?? ([identity.firstName, identity.lastName].filter(Boolean).join(" ") || null);
    const created = await trx
      .insertInto("users")
      .values({
        email,
        password_hash: null,
        first_name: identity.firstName?.slice(0, 100) || null,
        last_name: identity.lastName?.slice(0, 100) || null,
        name: name?.slice(0, 200) || null,
        email_verified_at: identity.emailVerified ? new Date() : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await applyRetiredTries(trx, created.id, email);
    await trx
      .insertInto("user_identities")
      .values({ provider: identity.provider, subject: identity.subject, user_id: created.id, email })
      .execute();
    return { userId: created.id, isNew: true };
  });
}
