import { sql, type Kysely } from "kysely";

// Provider identities (Google, Apple): one row per (provider, subject), pointing at a user.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("user_identities")
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("user_identities_pkey", ["provider", "subject"])
    .execute();
  await db.schema.createIndex("user_identities_user_id").on("user_identities").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("user_identities").execute();
}
