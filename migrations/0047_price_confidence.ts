import { sql, type Kysely } from "kysely";

// Every price that values a position says how far its source vouches for it (issue 29 point 2,
// DECISIONS 208): a cached daily price keeps the provider's confidence, 0–1. DefiLlama's /chart
// answer carries one per coin; Yahoo's closes and the ECB's rates carry none (null: the reader
// knows them to be exchange closes and reference rates).
//
// The coins cached before this migration have no confidence, and a cached range is never asked
// again: left as they were, every coin close would stay untrusted for good (the engine never lets
// a mark without a confidence raise a value), and a crypto record would be held at cost while the
// market rose. So the coins' cache is emptied (rows and ranges): the next request asks DefiLlama
// again and stores its confidence with each price. Stocks, total-return levels and FX rates keep
// theirs (their confidence is known without asking).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("price_history").addColumn("confidence", "double precision").execute();
  await sql`delete from price_history where instrument like 'coin:%'`.execute(db);
  await sql`delete from price_ranges where instrument like 'coin:%'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("price_history").dropColumn("confidence").execute();
}
