import { sql, type Kysely } from "kysely";

// Clubs' notifications (issue 34 point 4, DECISIONS 217): `club_request` tells a club's owner and
// moderators that someone asks to join, `club_joined` tells the person asking that they were let in.
// Only the notifications' kind check changes.
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
  "grade_recomputed",
  "season_win",
  "trade_alert",
];

async function kinds(db: Kysely<any>, list: string[]) {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${sql.join(list.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await kinds(db, [...KINDS, "club_request", "club_joined"]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where kind in ('club_request', 'club_joined')`.execute(db);
  await kinds(db, KINDS);
}
