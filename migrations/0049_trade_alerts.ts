import { sql, type Kysely } from "kysely";

// Live trade alerts (issue 34 point 3, DECISIONS 215). A trader opts in with a row in
// trade_alert_settings (enabled, a delay, whether sizes are hidden; `since` is when they last turned
// it on: trades before that day are never alerted). Followers subscribe per trader. Each trade an
// import stores that is worth an alert gets one trade_alerts row, unique by the trade's account and
// external id, so a re-import never alerts twice; its fan-out is a job per alert, then a job per
// batch of recipients, and trade_alert_deliveries (unique by alert and recipient) keeps a retried
// batch from telling anyone twice. A trade alert is a notification kind of its own.
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
  "season_win",
];

async function kinds(db: Kysely<any>, list: string[]) {
  await sql`alter table notifications drop constraint if exists notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${sql.join(list.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

// The scheduled sync of wallets and exchange accounts of traders who share their trades live.
const REASONS = ["link", "evaluation", "webhook", "retry", "poll"];

async function reasons(db: Kysely<any>, list: string[]) {
  await sql`alter table imports drop constraint if exists imports_reason_check`.execute(db);
  await sql`alter table imports add constraint imports_reason_check check (reason in (${sql.join(list.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("trade_alert_settings")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("delay", "text", (c) =>
      c
        .notNull()
        .defaultTo("15m")
        .check(sql`delay in ('none', '15m', 'eod')`),
    )
    .addColumn("hide_sizes", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("since", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("trade_alert_subscriptions")
    .addColumn("trader_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("subscriber_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("trade_alert_subscriptions_pkey", ["trader_id", "subscriber_id"])
    .addCheckConstraint("trade_alert_subscriptions_not_self", sql`trader_id <> subscriber_id`)
    .execute();
  await sql`create index trade_alert_subscriptions_subscriber on trade_alert_subscriptions (subscriber_id)`.execute(db);
  await db.schema
    .createTable("trade_alerts")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("trader_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("external_id", "text", (c) => c.notNull())
    // No foreign key: the alert outlives a trade stored again, so its uniqueness still holds.
    .addColumn("trade_id", "bigint")
    .addColumn("symbol", "text", (c) => c.notNull())
    .addColumn("side", "text", (c) => c.notNull().check(sql`side in ('buy', 'sell')`))
    .addColumn("traded_at", "timestamptz", (c) => c.notNull())
    .addColumn("deliver_at", "timestamptz", (c) => c.notNull())
    // Set when it fans out (once): the trader's verified tier then, and the trade's share of the portfolio.
    .addColumn("tier", "text")
    .addColumn("share", "double precision")
    .addColumn("fanned_out_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("trade_alerts_trade", ["linked_account_id", "external_id"])
    .execute();
  await sql`create index trade_alerts_trader on trade_alerts (trader_id, created_at desc)`.execute(db);
  await db.schema
    .createTable("trade_alert_deliveries")
    .addColumn("alert_id", "bigint", (c) => c.notNull().references("trade_alerts.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("trade_alert_deliveries_pkey", ["alert_id", "user_id"])
    .execute();
  await kinds(db, [...KINDS, "trade_alert"]);
  await reasons(db, [...REASONS, "sync"]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where kind = 'trade_alert'`.execute(db);
  await kinds(db, KINDS);
  await sql`update imports set reason = 'poll' where reason = 'sync'`.execute(db);
  await reasons(db, REASONS);
  await db.schema.dropTable("trade_alert_deliveries").execute();
  await db.schema.dropTable("trade_alerts").execute();
  await db.schema.dropTable("trade_alert_subscriptions").execute();
  await db.schema.dropTable("trade_alert_settings").execute();
}
