import { sql, type Kysely } from "kysely";

// Web Push (issue 34 point 5, DECISIONS 191): each browser's subscription (its endpoint is unique:
// a browser that signs in as someone else moves to them), the kinds each user wants pushed, and
// the VAPID key pair generated once for the cluster when the environment gives none (its private
// half sealed with ENCRYPTION_KEY, like the grade log's key).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_sent_at", "timestamptz")
    .execute();
  await sql`create index push_subscriptions_user on push_subscriptions (user_id)`.execute(db);
  await db.schema
    .alterTable("notification_settings")
    .addColumn("push", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
  await db.schema
    .createTable("vapid_keys")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("private_sealed", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("vapid_keys").execute();
  await db.schema.alterTable("notification_settings").dropColumn("push").execute();
  await db.schema.dropTable("push_subscriptions").execute();
}
