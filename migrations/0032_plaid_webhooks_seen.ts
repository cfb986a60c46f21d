import { sql, type Kysely } from "kysely";

// Plaid webhooks already accepted, by the SHA-256 of their JWT's signed part: a webhook may be
// sent again within the 5 minutes its iat allows, to any process, so they agree here
// (docs/DECISIONS.md 148). Rows older than 10 minutes are deleted as new ones arrive.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("plaid_webhooks_seen")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("plaid_webhooks_seen_at").on("plaid_webhooks_seen").column("seen_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("plaid_webhooks_seen").execute();
}
