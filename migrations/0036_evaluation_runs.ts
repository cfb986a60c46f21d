import { sql, type Kysely } from "kysely";

// An evaluation a trader asked for, run as a job (issue 35, point 3; DECISIONS 174): the request
// answers at once with this row, a status page follows it, the job fills in the outcome. At most
// one open run per trader (the partial unique index), so a second request is refused (409) by the
// database, whatever the number of replicas.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("evaluation_runs")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`state in ('queued', 'running', 'done')`),
    )
    .addColumn("outcome", "jsonb")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  await sql`create unique index evaluation_runs_one_open on evaluation_runs (user_id) where state <> 'done'`.execute(
    db,
  );
  await db.schema.createIndex("evaluation_runs_user").on("evaluation_runs").columns(["user_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("evaluation_runs").execute();
}
