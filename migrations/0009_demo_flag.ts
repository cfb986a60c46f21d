import type { Kysely } from "kysely";

// An evaluation graded from simulated provider histories (demo mode) says so on its card, share
// page and /verify record; real and demo grades never look alike.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("evaluations")
    .addColumn("demo", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("evaluations").dropColumn("demo").execute();
}
