import { sql, type Kysely } from "kysely";

// Paid passes (Stripe Checkout sessions, processed webhook events, grants), the $GRADER points
// ledger and stakes, wallet registration for a future claim, referrals and Star applications.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    // Daily evaluation limit lifted until this time (a pass with unlimited days).
    .addColumn("unlimited_until", "timestamptz")
    // Points balance, kept in the same transaction as each ledger entry; never negative.
    .addColumn("points_balance", "bigint", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`points_balance >= 0`),
    )
    // Who invited this user (?ref=<username> on /signup).
    .addColumn("referred_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();

  // One row per Checkout session we created: who pays for which pass, and where it stands.
  await db.schema
    .createTable("checkout_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("pass_id", "text", (c) => c.notNull())
    .addColumn("price_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("ui_mode", "text", (c) => c.notNull())
    // open | paid | processing | failed | expired
    .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("checkout_sessions_user")
    .on("checkout_sessions")
    .columns(["user_id", "created_at"])
    .execute();

  // Each Stripe event id once: a replayed or retried delivery finds its id here and does nothing.
  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // A pass granted once per Checkout session (the primary key makes fulfilment idempotent).
  await db.schema
    .createTable("pass_grants")
    .addColumn("checkout_session_id", "text", (c) => c.primaryKey().references("checkout_sessions.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("pass_id", "text", (c) => c.notNull())
    .addColumn("evaluations", "integer", (c) => c.notNull())
    .addColumn("unlimited_days", "integer", (c) => c.notNull())
    .addColumn("granted_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Append-only points ledger: every change of a balance is one row; the key makes each once-only.
  await db.schema
    .createTable("points_ledger")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("points_ledger_user").on("points_ledger").columns(["user_id", "id"]).execute();

  await db.schema
    .createTable("stakes")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("lock_days", "integer", (c) => c.notNull().check(sql`lock_days in (30, 90, 180)`))
    .addColumn("multiplier", "double precision", (c) => c.notNull())
    .addColumn("started_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("unlocks_at", "timestamptz", (c) => c.notNull())
    .addColumn("unstaked_at", "timestamptz")
    // The form's one-time key: a double submit finds its stake here and stakes once.
    .addColumn("request_key", "text", (c) => c.notNull().unique())
    .execute();
  await db.schema.createIndex("stakes_user").on("stakes").columns(["user_id", "id"]).execute();

  // One registered (proved) wallet per user for a future on-chain claim.
  await db.schema
    .createTable("wallet_registrations")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("chain", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull().unique())
    .addColumn("registered_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("star_applications")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("bio", "text", (c) => c.notNull())
    .addColumn("strategy", "text", (c) => c.notNull())
    .addColumn("markets", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'approved', 'rejected')`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("reviewed_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "star_applications",
    "wallet_registrations",
    "stakes",
    "points_ledger",
    "pass_grants",
    "stripe_events",
    "checkout_sessions",
  ]) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema
    .alterTable("users")
    .dropColumn("referred_by")
    .dropColumn("points_balance")
    .dropColumn("unlimited_until")
    .execute();
}
