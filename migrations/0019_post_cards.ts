import { type Kysely } from "kysely";

// The card image a post carries: the stored card (cards.hash) drawn when the post attached the
// author's grade, so the post keeps showing that card after the grade changes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("posts").addColumn("card_hash", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("posts").dropColumn("card_hash").execute();
}
