import { sql, type Kysely } from "kysely";

// Imports run as jobs (app/server/jobs.server.ts): one row per import of one linked account, which
// the account page and GET /api/portal/imports show as progress. The queue's own tables live in
// schema "pgboss" and are created by pg-boss at start.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("imports")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    // Why it runs: a first link, a re-import before an evaluation, a provider webhook, a retry.
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('link', 'evaluation', 'webhook', 'retry')`))
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`state in ('queued', 'waiting_for_provider', 'fetching', 'mapping', 'grading', 'done', 'failed')`),
    )
    .addColumn("fetched", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "integer")
    // [{ reason, count }]: provider items not turned into ledger rows, and why.
    .addColumn("skipped", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("trades_added", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    // Steps tried (each job run, retries included): the page shows it while a provider misbehaves.
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    // Where the next step starts (e.g. Plaid's next page offset); internal, never sent out.
    .addColumn("cursor", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // Whether an automatic re-grade follows (not for a re-import the evaluation itself waits for).
    .addColumn("regrade", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  await db.schema.createIndex("imports_user").on("imports").columns(["user_id", "id"]).execute();
  // At most one running import per account: a second request joins the running one.
  await sql`create unique index imports_one_running on imports (linked_account_id) where state not in ('done', 'failed')`.execute(
    db,
  );

  // A linked account whose first import has not finished yet is "importing".
  await sql`alter table linked_accounts drop constraint linked_accounts_status_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_status_check check (status in ('active', 'importing', 'relogin_required', 'error'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update linked_accounts set status = 'active' where status = 'importing'`.execute(db);
  await sql`alter table linked_accounts drop constraint linked_accounts_status_check`.execute(db);
  await sql`alter table linked_accounts add constraint linked_accounts_status_check check (status in ('active', 'relogin_required', 'error'))`.execute(
    db,
  );
  await db.schema.dropTable("imports").execute();
}
