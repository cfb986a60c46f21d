import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

// In-process against the same kind of database as the server (PGlite in memory, or DATABASE_URL):
// expiry and idleness need a clock we can move, and the statements a look-up sends are counted
// where pg sends them. No cache stands between a request and its session row: each look-up reads
// it, so an expired, idle or revoked session is refused at the next request, on any replica.
process.env.DATA_DIR ??= "memory://";
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const { createSession, getSessionUser } = await import("~/server/http/session.server");
const { changePassword } = await import("~/server/accounts/account.server");
const { hashPassword } = await import("~/server/accounts/password.server");

const statements: string[] = [];
const query = pg.Client.prototype.query;
beforeAll(() => {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements.push(String(typeof args[0] === "string" ? args[0] : (args[0] as { text?: string })?.text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return () => {
    pg.Client.prototype.query = query;
  };
});
afterEach(() => void (statements.length = 0));

async function newSession() {
  await migrateToLatest();
  const db = await getDb();
  const { id } = await db
    .insertInto("users")
    .values({
      email: `ses-${Date.now()}-${Math.random()}@example.com`,
      password_hash: await hashPassword("old password 1"),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const { token } = await createSession(id, new Request("http://localhost/"));
  const request = () => new Request("http://localhost/", { headers: { cookie: `grader_session=${token}` } });
  return { db, id, token, request };
}

const aged = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("sessions", () => {
  it("reads the user in one statement, and writes last_seen_at at most once a minute", async () => {
    const { db, id, request } = await newSession();
    statements.length = 0;
    expect((await getSessionUser(request()))?.id).toBe(id);
    expect((await getSessionUser(request()))?.id).toBe(id);
    expect(statements.filter((s) => /sessions/.test(s))).toHaveLength(2);
    expect(statements.some((s) => /^update/i.test(s.trim()))).toBe(false);
    // Seen two minutes ago: this look-up moves it, the next does not.
    await db
      .updateTable("sessions")
      .set({ last_seen_at: aged(2) })
      .where("user_id", "=", id)
      .execute();
    statements.length = 0;
    await getSessionUser(request());
    await getSessionUser(request());
    expect(statements.filter((s) => /^update/i.test(s.trim()))).toHaveLength(1);
    expect(statements.filter((s) => /sessions/.test(s))).toHaveLength(3);
  });

  it("refuses an expired session", async () => {
    const { db, id, request } = await newSession();
    expect(await getSessionUser(request())).not.toBeNull();
    await db
      .updateTable("sessions")
      .set({ expires_at: aged(1) })
      .where("user_id", "=", id)
      .execute();
    expect(await getSessionUser(request())).toBeNull();
  });

  it("refuses a session idle for longer than SESSION_IDLE_MINUTES", async () => {
    const { db, id, request } = await newSession();
    const { getEnv } = await import("~/server/platform/env.server");
    await db
      .updateTable("sessions")
      .set({ last_seen_at: aged(getEnv().SESSION_IDLE_MINUTES + 1) })
      .where("user_id", "=", id)
      .execute();
    expect(await getSessionUser(request())).toBeNull();
  });

  it("refuses a revoked session at the next look-up (a password change signs the other sessions out)", async () => {
    const { id, token, request } = await newSession();
    const other = await createSession(id, new Request("http://localhost/"));
    const otherRequest = () =>
      new Request("http://localhost/", { headers: { cookie: `grader_session=${other.token}` } });
    expect((await getSessionUser(otherRequest()))?.id).toBe(id);
    expect(await changePassword(id, token, "old password 1", "new password 2")).toBe(true);
    expect(await getSessionUser(otherRequest())).toBeNull();
    expect((await getSessionUser(request()))?.id).toBe(id);
  });
});
