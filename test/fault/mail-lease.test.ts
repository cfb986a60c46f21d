import { afterAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { signUp } from "../support/http";
import { invariantProblems, openStorage } from "./invariants";
import { isRunning, kill9, logged, scenario, start, waitFor } from "./servers";

// A sender killed with -9 in the middle of an SMTP hand-off, after it claimed the mail: the mail is
// neither lost nor sent twice unnoticed. Its claim lapses (MAIL_LEASE_SECONDS) and the next server's
// scheduled delivery sends it, once, saying so in its log (DECISIONS 171).

const RUN = Date.now().toString(36);
const received: string[] = [];
let held = "";
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    const to = session.envelope.rcptTo.map((r) => r.address).join(",");
    stream.on("data", () => {});
    stream.on("end", () => {
      // The first copy of the trader's mail is never answered: its sender dies waiting.
      if (to.startsWith("lease-") && !held) return void (held = to);
      received.push(to);
      callback();
    });
  },
});
await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));

afterAll(async () => {
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe("a mail sender killed after its claim", () => {
  it("leaves the mail to the next server once the lease has passed, which sends it once", async () => {
    const own = await scenario({
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
      MAIL_LEASE_SECONDS: "5",
    });
    const first = await start(own);
    const { email } = await signUp({ base: first.url, email: `lease-${RUN}@example.com` });
    await waitFor("the hand-off that never ends", async () => (held ? true : undefined));
    await kill9(first);

    const second = await start(own);
    await waitFor(
      "the mail sent again",
      async () => {
        if (!isRunning(second)) throw new Error(second.logs.slice(-30).join("\n"));
        return received.includes(email) ? true : undefined;
      },
      120_000,
    );
    expect(logged(second, "mail claim lapsed without an outcome; sending again (it may arrive twice)")).toHaveLength(1);
    // Stopped first: a PGlite folder is read by one process at a time.
    expect(await second.stop()).toBe(0);
    expect(received.filter((to) => to === email)).toHaveLength(1);
    const { db, close } = await openStorage(own);
    try {
      const row = await db
        .selectFrom("outbox")
        .select(["sent_at", "attempts", "claimed_until"])
        .where("to_email", "=", email)
        .executeTakeFirstOrThrow();
      expect(row.sent_at).not.toBeNull();
      expect(row).toMatchObject({ attempts: 2, claimed_until: null });
    } finally {
      await close();
    }
    expect(await invariantProblems(own, { users: [email] })).toEqual([]);
  });
});
