import { beforeAll, describe, expect, it } from "vitest";
import { get, postForm, signUp } from "../support/http";

// The admin area's domain module in-process (Star review, moderation of a missing post, the
// role by e-mail), and /dev/mail's links over HTTP.
if (!process.env.DATABASE_URL) process.env.DATA_DIR = "memory://";
const { getDb, migrateToLatest } = await import("~/server/platform/db.server");
const admin = await import("~/server/accounts/admin.server");
const stars = await import("~/server/community/stars.server");

beforeAll(async () => {
  await migrateToLatest();
});

describe("admin.server", () => {
  it("approves and rejects a Star application by user id; no application is false", async () => {
    const db = await getDb();
    const username = `gold${Date.now().toString(36)}`;
    const user = await db
      .insertInto("users")
      .values({ email: `${username}@example.com`, username })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ev = await db
      .insertInto("evaluations")
      .values({
        user_id: user.id,
        engine_version: "test",
        ledger_digest: "x",
        tier: "Gold",
        score: 85,
        percentile: null,
        verification_code: `GR-A${user.id}`,
        result: "{}",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.updateTable("users").set({ current_evaluation_id: ev.id }).where("id", "=", user.id).execute();
    expect(await admin.reviewStar(user.id, "approved")).toBe(false);
    await stars.submitStarApplication(user.id, {
      bio: "Swing trader for eight years, large caps.",
      strategy: "Trend following with a 1% risk per trade and weekly exits.",
      markets: "US stocks",
    });
    expect((await stars.listStarApplications("pending")).find((a) => a.id === user.id)).toMatchObject({
      tier: "Gold",
      markets: "US stocks",
    });
    expect(await admin.reviewStar(user.id, "approved")).toBe(true);
    expect((await stars.listStars()).some((s) => s.id === user.id)).toBe(true);
    expect(await admin.reviewStar(user.id, "rejected")).toBe(true);
    expect((await stars.listStars()).some((s) => s.id === user.id)).toBe(false);
  });

  it("moderating a post that does not exist changes nothing and says so", async () => {
    expect(await admin.moderatePost("987654321012", "hide")).toBe(false);
    expect(await admin.moderatePost("987654321012", "dismiss")).toBe(false);
  });

  it("grants and revokes the role by e-mail, whatever its case", async () => {
    const db = await getDb();
    const email = `op${Date.now().toString(36)}@example.com`;
    const user = await db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow();
    expect(await admin.setAdminByEmail(email.toUpperCase(), true)).toBe(user.id);
    const role = async () =>
      (await db.selectFrom("users").select("is_admin").where("id", "=", user.id).executeTakeFirstOrThrow()).is_admin;
    expect(await role()).toBe(true);
    expect(await admin.setAdminByEmail(email, false)).toBe(user.id);
    expect(await role()).toBe(false);
    expect(await admin.setAdminByEmail("nobody@example.com", true)).toBeNull();
    expect(await admin.setAdminRole(user.id, user.id, false)).toBe("self");
  });
});

describe("/dev/mail", () => {
  it("shows the links in a mail as links", async () => {
    const { email } = await signUp();
    expect((await postForm("/forgot-password", { email })).status).toBe(302);
    const html = await (await get("/dev/mail")).text();
    const at = html.indexOf(`to ${email}`);
    expect(at).toBeGreaterThan(0);
    const mail = html.slice(at, html.indexOf("</li>", at));
    expect(mail).toMatch(
      /<a href="http:\/\/localhost:3000\/reset-password\?token=[A-Za-z0-9_-]+">http:\/\/localhost:3000\/reset-password\?token=[A-Za-z0-9_-]+<\/a>/,
    );
  });
});
