import { sql, type Kysely } from "kysely";

// Notifications (docs/DECISIONS.md 97): one row per thing a user is told about. While unread, a
// second event of the same kind on the same subject (another message in a conversation, another
// like of a post) updates that row (count + 1) instead of adding one: the partial unique index is
// the conflict target of notify()'s upsert. Per-user choices live in notification_settings.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("notifications")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('message', 'message_request', 'follow', 'like', 'reply', 'mention', 'grade_change', 'import_done', 'grade_done')`,
        ),
    )
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("data", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("read_at", "timestamptz")
    .addColumn("emailed_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("notifications_user_recent")
    .on("notifications")
    .columns(["user_id", "created_at desc", "id desc"])
    .execute();
  // The upsert's target, and the unread count's index (same predicate).
  await sql`create unique index notifications_unread_subject on notifications (user_id, kind, subject) where read_at is null`.execute(
    db,
  );
  await db.schema
    .createTable("notification_settings")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("muted", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("digest", "text", (c) =>
      c
        .notNull()
        .defaultTo("off")
        .check(sql`digest in ('off', 'daily', 'weekly')`),
    )
    .addColumn("last_digest_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("notification_settings").execute();
  await db.schema.dropTable("notifications").execute();
}
