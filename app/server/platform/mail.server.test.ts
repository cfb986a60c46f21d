import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";

// Mail delivery in process against a real SMTP server on loopback, on an in-memory PGlite (or
// DATABASE_URL's PostgreSQL, where senders really run side by side on the pool's connections).
// Each mail is claimed with a lease and sent outside any transaction (DECISIONS 171).

type Received = { to: string; messageId: string };
const received: Received[] = [];
// Recipients the server refuses, and how long it takes over each message (so senders overlap).
const refused = new Set<string>();
let delayMs = 0;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onRcptTo(address, _session, callback) {
    callback(refused.has(address.address) ? new Error("550 mailbox unavailable") : undefined);
  },
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (c: Buffer) => (raw += c.toString()));
    stream.on("end", () => {
      setTimeout(() => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? "",
        });
        callback();
      }, delayMs);
    });
  },
});
await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
process.env.DATA_DIR = "memory://";
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;

const { closeDb, getDb, migrateToLatest } = await import("./db.server");
const { claimMail, deliverOutbox } = await import("./mail.server");

type Db = Awaited<ReturnType<typeof getDb>>;
let db: Db;
const tag = Date.now().toString(36);
let seq = 0;

/** Outbox rows written as enqueueMail writes them (without the job, which these tests stand in for). */
async function queue(n: number, name = "m"): Promise<string[]> {
  const to = Array.from({ length: n }, () => `${name}${tag}${seq++}@example.com`);
  await db
    .insertInto("outbox")
    .values(to.map((t) => ({ to_email: t, subject: "Hello", text: "Body" })))
    .execute();
  return to;
}

const row = (to: string) => db.selectFrom("outbox").selectAll().where("to_email", "=", to).executeTakeFirstOrThrow();
const copies = (to: string) => received.filter((m) => m.to === to);

beforeAll(async () => {
  await migrateToLatest();
  db = await getDb();
  // Mail left by other tests on a shared database goes first, so each test counts only its own.
  await deliverOutbox(60);
}, 120_000);

beforeEach(() => {
  refused.clear();
  delayMs = 0;
});

afterAll(async () => {
  await closeDb();
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe("mail delivery", () => {
  it("sends each mail once when three senders race for the outbox, with the row's Message-ID", async () => {
    const to = await queue(12, "race");
    delayMs = 30;
    const results = await Promise.all([deliverOutbox(), deliverOutbox(), deliverOutbox()]);
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBeGreaterThanOrEqual(12);
    for (const t of to) {
      expect(copies(t), t).toHaveLength(1);
      const r = await row(t);
      expect(r.sent_at).not.toBeNull();
      expect(r.attempts).toBe(1);
      expect(r.claimed_until).toBeNull();
      expect(copies(t)[0]!.messageId).toBe(`<outbox-${r.id}@localhost>`);
    }
  });

  it("leaves a mail claimed by a sender that died to another sender once the lease has passed", async () => {
    const [to] = await queue(1, "lease");
    // A sender claims it (a one-second lease) and dies before sending.
    const claimed = await claimMail(1);
    expect(claimed).toMatchObject({ to_email: to, attempts: 1, lapsed: false });
    // While the lease holds, no one sends it.
    await deliverOutbox();
    expect(copies(to!)).toHaveLength(0);
    expect((await row(to!)).sent_at).toBeNull();
    // After it, the next sender does, and counts the lapsed claim as an attempt.
    await new Promise((r) => setTimeout(r, 1_200));
    await deliverOutbox();
    expect(copies(to!)).toHaveLength(1);
    const after = await row(to!);
    expect(after.sent_at).not.toBeNull();
    expect(after.attempts).toBe(2);
    expect(after.claimed_until).toBeNull();
  });

  it("marks a refused mail failed outside the claim, and tries it again only after its pause", async () => {
    const [to] = await queue(1, "refused");
    refused.add(to!);
    await deliverOutbox();
    const failed = await row(to!);
    expect(failed.sent_at).toBeNull();
    expect(failed.attempts).toBe(1);
    expect(failed.claimed_until).toBeNull();
    expect(failed.last_error).toMatch(/550/);
    expect(failed.retry_at!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // The server would take it now, but its pause has not passed.
    refused.clear();
    await deliverOutbox();
    expect(copies(to!)).toHaveLength(0);
    // Once it has, it goes.
    await db
      .updateTable("outbox")
      .set({ retry_at: new Date(Date.now() - 1000) })
      .where("to_email", "=", to!)
      .execute();
    await deliverOutbox();
    expect(copies(to!)).toHaveLength(1);
    expect(await row(to!)).toMatchObject({ attempts: 2, last_error: null });
  });
});
