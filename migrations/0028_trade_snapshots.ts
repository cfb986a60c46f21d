import { sql, type Kysely } from "kysely";

// A linked account's trades as the ledger read decodes them (docs/DECISIONS.md 141): one row per
// account, through trades.id `through_id`, with the sum of its digest lines' hashes and its trades
// as one run of bytes (ledger.server.ts, snapshotBody). A cache: the read checks it against the
// account's count of trades and reads only the trades after it; an update or delete of trades
// drops it, so it never holds a row the table does not.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table trade_snapshots (
    linked_account_id integer primary key references linked_accounts (id) on delete cascade,
    through_id bigint not null,
    n integer not null,
    lanes text not null,
    body bytea not null)`.execute(db);
  // Uncompressed: written on a re-grade's path, where pglz cost more than the bytes it saved.
  await sql`alter table trade_snapshots alter column body set storage external`.execute(db);
  // The read counts an account's trades and takes those after its snapshot's through_id: one
  // index answers both without visiting the account's rows.
  await sql`create index trades_account_id on trades (linked_account_id, id)`.execute(db);
  await sql`
    create function trade_snapshots_drop() returns trigger language plpgsql as $$
    begin
      delete from trade_snapshots where linked_account_id in (select linked_account_id from changed);
      return null;
    end $$`.execute(db);
  await sql`create trigger trade_snapshots_on_update after update on trades
    referencing old table as changed for each statement execute function trade_snapshots_drop()`.execute(db);
  await sql`create trigger trade_snapshots_on_delete after delete on trades
    referencing old table as changed for each statement execute function trade_snapshots_drop()`.execute(db);
  await sql`
    create function trade_snapshots_clear() returns trigger language plpgsql as $$
    begin
      delete from trade_snapshots;
      return null;
    end $$`.execute(db);
  await sql`create trigger trade_snapshots_on_truncate after truncate on trades
    for each statement execute function trade_snapshots_clear()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists trade_snapshots_on_truncate on trades`.execute(db);
  await sql`drop trigger if exists trade_snapshots_on_delete on trades`.execute(db);
  await sql`drop trigger if exists trade_snapshots_on_update on trades`.execute(db);
  await sql`drop function if exists trade_snapshots_clear()`.execute(db);
  await sql`drop function if exists trade_snapshots_drop()`.execute(db);
  await sql`drop index if exists trades_account_id`.execute(db);
  await sql`drop table if exists trade_snapshots`.execute(db);
}
