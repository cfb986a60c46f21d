import type { Kysely } from "kysely";

// Ledger events an adapter read besides trades and cash flows (docs/SOURCES.md): income, account
// fees, share-count changes (splits, stock distributions), spin-offs, mergers, and cancels that the
// ledger builder resolves against the trades they cancel. `data` holds the kind's own fields.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ledger_events")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("external_id", "text", (c) => c.notNull())
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("symbol", "text")
    .addColumn("data", "jsonb", (c) => c.notNull())
    .addUniqueConstraint("ledger_events_external", ["linked_account_id", "external_id"])
    .execute();
  // What each grade could not use, by reason: the imports' skipped items and the builder's.
  await db.schema.alterTable("evaluations").addColumn("data_quality", "jsonb").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("evaluations").dropColumn("data_quality").execute();
  await db.schema.dropTable("ledger_events").execute();
}
