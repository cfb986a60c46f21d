import { sql, type Kysely } from "kysely";

// Grades re-made under a new engine version (DECISIONS 168): the re-made grade names the one it
// replaced, so it is told apart from a grade that used a try or an automatic grade, and the
// trader is told in a notification of its own kind (they may turn it off).
const KINDS = [
  "message",
  "message_request",
  "follow",
  "like",
  "reply",
  "mention",
  "grade_change",
  "import_done",
  "grade_done",
  "import_failed",
];

async function kinds(db: Kysely<any>, list: string[]) {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${sql.join(list.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  // No foreign key: a trader's grades are deleted together, and the number is a note, not a link.
  await db.schema.alterTable("evaluations").addColumn("remade_from", "integer").execute();
  await kinds(db, [...KINDS, "grade_recomputed"]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where kind = 'grade_recomputed'`.execute(db);
  await kinds(db, KINDS);
  await db.schema.alterTable("evaluations").dropColumn("remade_from").execute();
}
