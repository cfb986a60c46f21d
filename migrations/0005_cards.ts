import { sql, type Kysely } from "kysely";

// Performance cards, content-addressed: the key is the SHA-256 of everything drawn on the card, so
// the same inputs are rendered once and a changed grade, name, avatar or privacy choice is a new row.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("cards")
    .addColumn("hash", "text", (c) => c.primaryKey())
    .addColumn("format", "text", (c) => c.notNull())
    // Whose card it is: names the downloaded file, and deleting the user deletes their cards.
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("png", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("cards_user").on("cards").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("cards").execute();
}
