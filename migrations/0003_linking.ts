import { sql, type Kysely } from "kysely";

// Linked accounts (brokers through Plaid, EVM and Solana wallets), what they import, and the
// evaluations made from it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("linked_accounts")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('plaid', 'evm', 'solana')`))
    // Plaid: "plaid:<institution_id>:<account_id>"; wallets: "evm:<checksummed>" / "solana:<base58>".
    // Unique across users: linking one another user holds is the 406 case.
    .addColumn("fingerprint", "text", (c) => c.notNull().unique())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("institution_name", "text")
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("active")
        .check(sql`status in ('active', 'relogin_required', 'error')`),
    )
    // AES-256-GCM ciphertext of the provider token (Plaid access token); never sent to a browser.
    .addColumn("access_token_enc", "text")
    .addColumn("item_id", "text")
    .addColumn("last_imported_at", "timestamptz")
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("linked_accounts_user").on("linked_accounts").column("user_id").execute();
  await db.schema.createIndex("linked_accounts_item").on("linked_accounts").column("item_id").execute();

  // Imported history, normalised to the engine's ledger. external_id makes re-imports idempotent.
  await db.schema
    .createTable("trades")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("external_id", "text", (c) => c.notNull())
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("symbol", "text", (c) => c.notNull())
    .addColumn("asset_class", "text", (c) =>
      c.notNull().check(sql`asset_class in ('stock', 'etf', 'crypto', 'option')`),
    )
    .addColumn("side", "text", (c) => c.notNull().check(sql`side in ('buy', 'sell')`))
    .addColumn("quantity", "double precision", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("price", "double precision", (c) => c.notNull().check(sql`price >= 0`))
    .addColumn("fee", "double precision", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`fee >= 0`),
    )
    .addUniqueConstraint("trades_external", ["linked_account_id", "external_id"])
    .execute();

  await db.schema
    .createTable("cash_flows")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("external_id", "text", (c) => c.notNull())
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("amount", "double precision", (c) => c.notNull())
    .addUniqueConstraint("cash_flows_external", ["linked_account_id", "external_id"])
    .execute();

  // Marks (e.g. Plaid holdings' institution prices at import time).
  await db.schema
    .createTable("price_marks")
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("symbol", "text", (c) => c.notNull())
    .addColumn("time", "timestamptz", (c) => c.notNull())
    .addColumn("price", "double precision", (c) => c.notNull().check(sql`price >= 0`))
    .addPrimaryKeyConstraint("price_marks_pk", ["linked_account_id", "symbol", "time"])
    .execute();

  // Raw provider answers, kept for audit.
  await db.schema
    .createTable("provider_payloads")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("linked_account_id", "integer", (c) => c.notNull().references("linked_accounts.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("fetched_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Single-use sign-in messages for wallet proofs (SIWE / SIWS).
  await db.schema
    .createTable("wallet_nonces")
    .addColumn("nonce", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("chain", "text", (c) => c.notNull().check(sql`chain in ('evm', 'solana')`))
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["wallet_nonces", "provider_payloads", "price_marks", "cash_flows", "trades", "linked_accounts"]) {
    await db.schema.dropTable(t).execute();
  }
}
