import { sql, type Kysely } from "kysely";

// A notification when an import ends failed (it was only on the account page).
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
];

async function kinds(db: Kysely<any>, list: string[]) {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${sql.join(list.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await kinds(db, [...KINDS, "import_failed"]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where kind = 'import_failed'`.execute(db);
  await kinds(db, KINDS);
}
