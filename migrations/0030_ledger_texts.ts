import { sql, type Kysely } from "kysely";

// The canonical ledger text of a trade snapshot's trades (ledger.server.ts, storedLedger;
// docs/DECISIONS.md 142), written once by a grade and then shared: the snapshot points at it, so
// the next grade writes only the trades after it, and every evaluation whose ledger holds it keeps
// its own text around it (evaluation_ledgers.ledger, the text's `exact`, ledger_tail: gzip members
// of one stream) instead of a copy of 100,000 trades. Gzipped, with the trades' own numbers and,
// when rounding changes one, with the digest's. The user's: deleting them deletes it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table ledger_texts (
    id bigserial primary key,
    user_id integer not null references users (id) on delete cascade,
    engine_version text not null,
    exact bytea not null,
    rounded bytea)`.execute(db);
  // Already gzipped: PostgreSQL's compression would find nothing to save.
  await sql`alter table ledger_texts
    alter column exact set storage external,
    alter column rounded set storage external`.execute(db);
  await sql`create index ledger_texts_user on ledger_texts (user_id)`.execute(db);
  await sql`alter table trade_snapshots
    add column ledger_text_id bigint references ledger_texts (id) on delete set null`.execute(db);
  await sql`create index trade_snapshots_ledger_text on trade_snapshots (ledger_text_id)`.execute(db);
  await sql`alter table evaluation_ledgers
    add column ledger_text_id bigint references ledger_texts (id) on delete cascade,
    add column ledger_tail bytea`.execute(db);
  await sql`create index evaluation_ledgers_ledger_text on evaluation_ledgers (ledger_text_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table evaluation_ledgers drop column ledger_tail, drop column ledger_text_id`.execute(db);
  await sql`alter table trade_snapshots drop column ledger_text_id`.execute(db);
  await sql`drop table if exists ledger_texts`.execute(db);
}
