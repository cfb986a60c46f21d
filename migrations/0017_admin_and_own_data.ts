import { sql, type Kysely } from "kysely";

// Operators in the product (/admin): a role on the user, granted with `npm run admin -- grant`.
// Moderation outcomes on reports. And the free tries of deleted accounts, kept only as a keyed
// hash of the e-mail (HMAC with the server's key), so deleting an account never buys new tries.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("is_admin", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  // hidden | restored | dismissed, set with reviewed_at when an operator decides.
  await db.schema
    .alterTable("reports")
    .addColumn("resolution", "text", (c) => c.check(sql`resolution in ('hidden', 'restored', 'dismissed')`))
    .execute();
  await db.schema
    .createIndex("reports_open")
    .on("reports")
    .columns(["post_id"])
    .where(sql.ref("reviewed_at"), "is", null)
    .execute();
  await db.schema
    .createTable("retired_tries")
    .addColumn("email_hmac", "text", (c) => c.primaryKey())
    .addColumn("tries_used", "integer", (c) => c.notNull())
    .addColumn("retired_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("retired_tries").execute();
  await db.schema.dropIndex("reports_open").execute();
  await db.schema.alterTable("reports").dropColumn("resolution").execute();
  await db.schema.alterTable("users").dropColumn("is_admin").execute();
}
