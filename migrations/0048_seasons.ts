import { sql, type Kysely } from "kysely";

// Leaderboard seasons (issue 34 point 6, docs/GRADING.md "Seasons"): a season is a
// UTC calendar month ("YYYY-MM"). `seasons` has a row per season the closing job knows of; the
// first is the month this migration ran in (closing catches up from the earliest row, so a deploy
// never pays out for months before seasons existed). Closing sets closed_at once (a conditional
// UPDATE) and writes the winners in the same transaction; a winner's row is unique by season and
// trader and by season and rank, and the points carry the ledger's idempotency key, so a second
// close changes nothing. A season win is a notification kind of its own.
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
];

async function kinds(db: Kysely<any>, list: string[]) {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${sql.join(list.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("seasons")
    .addColumn("month", "text", (c) => c.primaryKey().check(sql`month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`))
    .addColumn("closed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("season_winners")
    .addColumn("month", "text", (c) => c.notNull().references("seasons.month"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("rank", "integer", (c) => c.notNull().check(sql`rank >= 1`))
    .addColumn("score", "double precision", (c) => c.notNull())
    .addColumn("active_days", "integer", (c) => c.notNull())
    .addColumn("season_return", "double precision", (c) => c.notNull())
    .addColumn("tier", "text")
    .addColumn("points", "integer", (c) => c.notNull().check(sql`points > 0`))
    .addPrimaryKeyConstraint("season_winners_pkey", ["month", "user_id"])
    .addUniqueConstraint("season_winners_rank", ["month", "rank"])
    .execute();
  // The standings read each trader's latest verified grade of a month: those grades by time.
  await sql`create index evaluations_season on evaluations (created_at) where not demo and not self_reported and score is not null`.execute(
    db,
  );
  await sql`insert into seasons (month) values (to_char(now() at time zone 'UTC', 'YYYY-MM'))`.execute(db);
  await kinds(db, [...KINDS, "season_win"]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where kind = 'season_win'`.execute(db);
  await kinds(db, KINDS);
  await sql`drop index if exists evaluations_season`.execute(db);
  await db.schema.dropTable("season_winners").execute();
  await db.schema.dropTable("seasons").execute();
}
