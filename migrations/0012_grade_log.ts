import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";

// The public grade log: every new evaluation appends one signed record that carries the hash of
// the one before. The head row is the lock appenders take (SELECT … FOR UPDATE), so two servers
// never fork the chain, and holds the secret that turns user ids into pseudonyms. Log rows have
// no foreign key: deleting an account deletes its evaluations, never its public records.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("grade_log")
    .addColumn("seq", "bigint", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("prev_hash", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull().unique())
    // The canonical JSON text exactly as signed (text, not jsonb, which would reorder it).
    .addColumn("record", "text", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .addColumn("kid", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("grade_log_head")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("pseudonym_key", "text", (c) => c.notNull())
    .execute();
  await db
    .insertInto("grade_log_head")
    .values({ id: 1, seq: 0, hash: "0".repeat(64), pseudonym_key: crypto.randomBytes(32).toString("base64url") })
    .execute();

  // Every key that ever signed a record (published for as long as the log holds its records). A
  // generated key (no GRADE_SIGNING_KEY) keeps its private half here, sealed with ENCRYPTION_KEY.
  await db.schema
    .createTable("grade_signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("public_jwk", "text", (c) => c.notNull())
    .addColumn("private_sealed", "text")
    .addColumn("not_before", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // Set when another key takes over: records signed up to then stay verifiable.
    .addColumn("retired_at", "timestamptz")
    .execute();

  // An account unlinked after a grade: its kind and last known return, disclosed by the next grade.
  await db.schema
    .createTable("unlinked_accounts")
    .addColumn("id", "integer", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("twr", "double precision")
    .addColumn("unlinked_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("unlinked_accounts_user")
    .on("unlinked_accounts")
    .columns(["user_id", "unlinked_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("unlinked_accounts").execute();
  await db.schema.dropTable("grade_signing_keys").execute();
  await db.schema.dropTable("grade_log_head").execute();
  await db.schema.dropTable("grade_log").execute();
}
