import { sql, type Kysely } from "kysely";

// A fill's confidence (issue 29 point 2, DECISIONS 214, 219): how far the price source vouches for
// a wallet fill's price as a market price, 0–1 (DefiLlama's for the token at the fill's time; 0
// when it quotes no price then). Null: a market fill (a broker's, an exchange's order book) or a
// row imported before this migration. Existing rows keep null: their grades stay as they were.
//
// Only a fill below the engine's TRUSTED_CONFIDENCE (0.8) changes a grade, and it makes the ledger
// take the row-by-row path, asked before every grade: this partial index holds only those rows, so
// the answer for everyone else is an empty index probe (as trades_contracts, migration 0045).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("trades").addColumn("confidence", "double precision").execute();
  await sql`create index trades_thin on trades (linked_account_id) where confidence < 0.8`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists trades_thin`.execute(db);
  await db.schema.alterTable("trades").dropColumn("confidence").execute();
}
