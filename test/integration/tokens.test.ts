import { beforeAll, describe, expect, it } from "vitest";

// In-process against the same kind of database as the server (PGlite in memory, or DATABASE_URL):
// expiry needs a clock we can move, which the HTTP tests cannot do.
process.env.DATA_DIR ??= "memory://";
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { consumeToken, issueToken } = await import("~/server/accounts/tokens.server");
const { changePassword, resetPassword } = await import("~/server/accounts/account.server");
const { hashPassword } = await import("~/server/accounts/password.server");

describe("single-use tokens", () => {
  let userId: number;
  beforeAll(async () => {
    await migrateToLatest();
    const db = await getDb();
    userId = (
      await db
        .insertInto("users")
        .values({ email: `tok-${Date.now()}-${Math.random()}@example.com` })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  });

  it("works once", async () => {
    const db = await getDb();
    const token = await issueToken(db, userId, "reset");
    expect(await consumeToken(db, token, "reset")).toBe(userId);
    expect(await consumeToken(db, token, "reset")).toBeNull();
  });

  it("is stored only as a hash and only for its purpose", async () => {
    const db = await getDb();
    const token = await issueToken(db, userId, "verify");
    const stored = await db.selectFrom("auth_tokens").select("token_hash").where("user_id", "=", userId).execute();
    expect(stored.some((r) => r.token_hash === token)).toBe(false);
    expect(await consumeToken(db, token, "reset")).toBeNull();
    expect(await consumeToken(db, token, "verify")).toBe(userId);
  });

  it("does not work after it expires (reset: 30 minutes)", async () => {
    const db = await getDb();
    const token = await issueToken(db, userId, "reset");
    const row = await db
      .selectFrom("auth_tokens")
      .select(["token_hash", "expires_at", "created_at"])
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .where("purpose", "=", "reset")
      .executeTakeFirstOrThrow();
    const ttl = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime();
    expect(Math.round(ttl / 60_000)).toBe(30);
    await db
      .updateTable("auth_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("token_hash", "=", row.token_hash)
      .execute();
    expect(await consumeToken(db, token, "reset")).toBeNull();
  });

  it("lets exactly one of many concurrent uses win", async () => {
    const db = await getDb();
    const token = await issueToken(db, userId, "reset");
    const results = await Promise.all(Array.from({ length: 10 }, () => consumeToken(db, token, "reset")));
    expect(results.filter((r) => r === userId)).toHaveLength(1);
  });

  it("voids every older reset link once one is used", async () => {
    const db = await getDb();
    const older = await issueToken(db, userId, "reset");
    const newer = await issueToken(db, userId, "reset");
    expect(await resetPassword(newer, "the newest password")).toBe(true);
    expect(await resetPassword(older, "an attacker's password")).toBe(false);
  });

  it("voids every reset link when the password changes", async () => {
    const db = await getDb();
    await db
      .updateTable("users")
      .set({ password_hash: await hashPassword("the current password") })
      .where("id", "=", userId)
      .execute();
    const pending = await issueToken(db, userId, "reset");
    expect(await changePassword(userId, undefined, "the current password", "a changed password")).toBe(true);
    expect(await resetPassword(pending, "an attacker's password")).toBe(false);
  });
});
