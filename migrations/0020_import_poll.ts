import { sql, type Kysely } from "kysely";

// Imports started by the periodic poll (a Plaid webhook that never came): reason 'poll'.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table imports drop constraint if exists imports_reason_check`.execute(db);
  await sql`alter table imports add constraint imports_reason_check check (reason in ('link', 'evaluation', 'webhook', 'retry', 'poll'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from imports where reason = 'poll'`.execute(db);
  await sql`alter table imports drop constraint if exists imports_reason_check`.execute(db);
  await sql`alter table imports add constraint imports_reason_check check (reason in ('link', 'evaluation', 'webhook', 'retry'))`.execute(
    db,
  );
}
