import { sql, type Kysely } from "kysely";

// Evaluations (kept forever, never overwritten), the free-tries allowance and the daily counter.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("evaluations")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("engine_version", "text", (c) => c.notNull())
    .addColumn("ledger_digest", "text", (c) => c.notNull())
    .addColumn("tier", "text")
    .addColumn("score", "double precision")
    .addColumn("percentile", "double precision")
    // Short public code printed on the card; leads to the verification page.
    .addColumn("verification_code", "text", (c) => c.notNull().unique())
    .addColumn("result", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("evaluations_user_latest").on("evaluations").columns(["user_id", "id desc"]).execute();

  // Tries: FREE_TRIES from configuration plus extra_tries granted by passes; used counts up.
  await db.schema
    .alterTable("users")
    .addColumn("tries_used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("extra_tries", "integer", (c) => c.notNull().defaultTo(0))
    // One evaluation per user at a time: set while one runs (stale after 5 minutes).
    .addColumn("evaluating_since", "timestamptz")
    // The user's current grade, kept in step with the latest evaluation (cheap reads for headers).
    .addColumn("current_evaluation_id", "integer", (c) => c.references("evaluations.id").onDelete("set null"))
    .execute();

  await db.schema
    .createTable("evaluation_days")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("evaluation_days_pk", ["user_id", "day"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("evaluation_days").execute();
  await db.schema
    .alterTable("users")
    .dropColumn("current_evaluation_id")
    .dropColumn("evaluating_since")
    .dropColumn("extra_tries")
    .dropColumn("tries_used")
    .execute();
  await db.schema.dropTable("evaluations").execute();
}
