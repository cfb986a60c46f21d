import { type Kysely } from "kysely";

// The trader's IANA time zone (settings), for the Stats tab's weekday and hour-of-day breakdowns.
// UTC by default: the engine's days are UTC days, so nothing changes until a trader picks one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("time_zone").execute();
}
