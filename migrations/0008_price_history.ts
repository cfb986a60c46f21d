import { sql, type Kysely } from "kysely";

// Historical daily USD prices (app/server/prices.server.ts): one row per instrument and day, and the
// ranges already asked of the provider (with or without prices in them: weekends, holidays, days
// before a listing), so nothing is asked twice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("price_history")
    // "stock:NVDA" (as traded), "stock-tr:SPY" (total return), "coin:coingecko:bitcoin".
    .addColumn("instrument", "text", (c) => c.notNull())
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("price", "double precision", (c) => c.notNull())
    .addPrimaryKeyConstraint("price_history_pk", ["instrument", "day"])
    .execute();
  await db.schema
    .createTable("price_ranges")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("instrument", "text", (c) => c.notNull())
    .addColumn("from_day", "date", (c) => c.notNull())
    .addColumn("to_day", "date", (c) => c.notNull())
    .addColumn("fetched_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("price_ranges_instrument")
    .on("price_ranges")
    .columns(["instrument", "from_day"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("price_ranges").execute();
  await db.schema.dropTable("price_history").execute();
}
