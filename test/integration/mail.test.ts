import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { postForm, signUp } from "../support/http";
import { startServer, type RunningServer } from "../support/server";

type Received = { to: string; raw: string };

// A real SMTP server on loopback; the app delivers its outbox to it through nodemailer.
describe("mail delivery over SMTP", () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let app: RunningServer;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (c: Buffer) => (raw += c.toString()));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw });
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    const port = (smtp.server.address() as { port: number }).port;
    // Its own in-memory database: a shared outbox would put other tests' mail ahead of ours.
    app = await startServer({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: "Grader <no-reply@grader.test>",
      DATABASE_URL: "",
      DATA_DIR: "memory://",
    });
  });
  afterAll(async () => {
    await app?.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it("delivers the verification and reset mails, and hides the demo mailbox", async () => {
    const { email } = await signUp({ base: app.url });
    await postForm("/forgot-password", { email }, { base: app.url });
    const deadline = Date.now() + 15_000;
    while (received.filter((m) => m.to === email).length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const mine = received.filter((m) => m.to === email);
    expect(mine).toHaveLength(2);
    expect(mine.some((m) => m.raw.includes("Subject: Confirm your email for Grader"))).toBe(true);
    expect(mine.some((m) => m.raw.includes("Subject: Reset your Grader password"))).toBe(true);
    expect(mine[0]!.raw).toContain("From: Grader <no-reply@grader.test>");
    expect((await fetch(app.url + "/dev/mail")).status).toBe(404);
  });
});

describe("the demo mailbox", () => {
  let app: RunningServer;
  beforeAll(async () => {
    // No SMTP, but deployed: the mailbox would hand everyone's reset links to anyone.
    app = await startServer({
      SMTP_URL: "",
      PUBLIC_URL: "https://grader.example",
      DATABASE_URL: "",
      DATA_DIR: "memory://",
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("is closed when the app's public URL is not this machine", async () => {
    const { email } = await signUp({ base: app.url });
    await postForm("/forgot-password", { email }, { base: app.url });
    const res = await fetch(app.url + "/dev/mail");
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("reset-password?token=");
  });
});
