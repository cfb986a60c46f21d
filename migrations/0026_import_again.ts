import { sql, type Kysely } from "kysely";

// New provider data announced while an import of the account runs (a Plaid webhook during the
// link import): the running import may have read past it, so one more import follows it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table imports add column again boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table imports drop column again`.execute(db);
}
