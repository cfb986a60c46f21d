import { sql, type Kysely } from "kysely";

// Whether a trader holds contracts (a trade with a multiplier or an expiry, DECISIONS 202) is asked
// before every grade: this partial index holds only those trades, so the answer for everyone else
// is an empty index probe, not a read of every trade.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index trades_contracts on trades (linked_account_id) where multiplier <> 1 or expiry is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists trades_contracts`.execute(db);
}
