import { sql, type Kysely } from "kysely";

// The exact ledger each evaluation graded (engine format v2, with its events and benchmark), so a
// grade can be reproduced with `npm run grade` (GET /api/portal/ledger). From here on
// evaluations.ledger_digest is the engine's ledgerDigest of that ledger; the digest of the
// imported rows that tells "nothing new" moves to history_digest.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("evaluations").addColumn("history_digest", "text").execute();
  await sql`update evaluations set history_digest = ledger_digest`.execute(db);
  await db.schema
    .createTable("evaluation_ledgers")
    .addColumn("evaluation_id", "integer", (c) => c.primaryKey().references("evaluations.id").onDelete("cascade"))
    // gzip of the ledger's JSON: a 100k-trade ledger is ~15 MB of JSON, ~2 MB compressed.
    .addColumn("ledger", "bytea", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("evaluation_ledgers").execute();
  await db.schema.alterTable("evaluations").dropColumn("history_digest").execute();
}
