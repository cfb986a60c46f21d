import type { Kysely } from "kysely";

// Automatic grades (the re-grade after an import) counted per user and UTC day beside the
// evaluations a trader asks for, so AUTO_GRADES_PER_DAY bounds them with one conditional upsert
// in the grade's transaction (issue 36, item 6; DECISIONS 154).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("evaluation_days")
    .addColumn("automatic", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("evaluation_days").dropColumn("automatic").execute();
}
