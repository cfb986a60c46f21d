import { sql, type Kysely } from "kysely";

// The live channel's events (DECISIONS 187): one row per event per user, numbered per user by
// live_seqs (its row lock orders a user's events by commit), kept for a retention window so a
// stream that reconnects with Last-Event-ID is sent exactly what it missed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("live_seqs")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("seq", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("live_events")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("data", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("live_events_pk", ["user_id", "seq"])
    .execute();
  await sql`create index live_events_created on live_events (created_at)`.execute(db);
  // An import's progress is written by many steps (each provider's, failures, the grade): a trigger
  // raises its live event in the transaction of each write, as raiseLive would (same counter, same
  // NOTIFY), so none of them can forget to.
  await sql`
    create function live_import_progress() returns trigger language plpgsql as $$
    declare n bigint;
    begin
      if tg_op = 'UPDATE' and (old.state, old.fetched, old.total) is not distinct from (new.state, new.fetched, new.total) then
        return null;
      end if;
      insert into live_seqs (user_id, seq) values (new.user_id, 1)
        on conflict (user_id) do update set seq = live_seqs.seq + 1 returning seq into n;
      insert into live_events (user_id, seq, kind, data) values (new.user_id, n, 'import',
        jsonb_build_object('import_id', new.id, 'state', new.state, 'fetched', new.fetched, 'total', new.total));
      perform pg_notify('grader_live', new.user_id::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger imports_live after insert or update of state, fetched, total on imports
    for each row execute function live_import_progress()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger imports_live on imports`.execute(db);
  await sql`drop function live_import_progress()`.execute(db);
  await db.schema.dropTable("live_events").execute();
  await db.schema.dropTable("live_seqs").execute();
}
