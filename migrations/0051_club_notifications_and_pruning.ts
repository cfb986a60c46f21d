import { sql, type Kysely } from "kysely";

// Clubs' notifications (issue 34 point 4, DECISIONS 217): `club_request` tells a club's owner and
// moderators that someone asks to join, `club_joined` tells the person asking that they were let in.
// And an index by age on trade_alert_deliveries, which the daily `trade-alert-prune` job empties of
// rows past their use (DECISIONS 217).
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
  await sql`create index trade_alert_deliveries_created on trade_alert_deliveries (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists trade_alert_deliveries_created`.execute(db);
  await sql`delete from notifications where kind in ('club_request', 'club_joined')`.execute(db);
  await kinds(db, KINDS);
}
