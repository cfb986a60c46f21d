import { sql, type Kysely } from "kysely";

// A graded ledger is kept gzipped (ledger.server.ts): PostgreSQL's own compression of it found
// nothing to save and cost a re-grade ~25 ms at 100,000 trades. Rows stored from now on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table evaluation_ledgers alter column ledger set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table evaluation_ledgers alter column ledger set storage extended`.execute(db);
}
