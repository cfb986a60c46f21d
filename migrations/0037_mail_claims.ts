import { sql, type Kysely } from "kysely";

// Mail is claimed with a lease and sent outside any transaction (DECISIONS 171): claimed_until is
// the lease (a sender that dies leaves the row to another once it passes), retry_at the earliest
// next try after a failure.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("outbox")
    .addColumn("claimed_until", "timestamptz")
    .addColumn("retry_at", "timestamptz")
    .execute();
  await sql`create index outbox_unsent on outbox (id) where sent_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index outbox_unsent`.execute(db);
  await db.schema.alterTable("outbox").dropColumn("claimed_until").dropColumn("retry_at").execute();
}
