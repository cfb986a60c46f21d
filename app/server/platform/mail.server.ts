import nodemailer, { type Transporter } from "nodemailer";
import { sql } from "kysely";
import type { DB } from "./db.server";
import { getDb } from "./db.server";
import { isSimulated } from "./demo.server";
import { getEnv } from "./env.server";
import { isLoopbackIp, isLoopbackUrl } from "../../lib/loopback";
import { log } from "./log.server";
import { clientIp } from "../http/rate-limit.server";

export type Mail = { to: string; subject: string; text: string };

/**
 * Queues an email in the outbox (inside the caller's transaction when one is given, so a mail
 * is never sent for a write that rolled back). With SMTP_URL set the mail worker delivers it;
 * without (demo mode) the outbox is the demo mailbox at /dev/mail.
 */
export async function enqueueMail(mail: Mail, trx?: DB): Promise<void> {
  const db = trx ?? (await getDb());
  await db.insertInto("outbox").values({ to_email: mail.to, subject: mail.subject, text: mail.text }).execute();
  kickMailWorker();
}

export async function listDemoMail(limit = 50) {
  const db = await getDb();
  return db.selectFrom("outbox").selectAll().orderBy("id", "desc").limit(limit).execute();
}

export function isDemoMail() {
  return isSimulated("smtp");
}

/**
 * The demo mailbox holds everyone's reset and verification links, so it opens only for a local
 * demo: no SMTP, the app's public URL is this machine, and so is the visitor (DECISIONS 55).
 */
export function isLocalDemoMailbox(): boolean {
  return isDemoMail() && isLoopbackUrl(getEnv().PUBLIC_URL);
}

export function mayReadDemoMail(request: Request): boolean {
  return isLocalDemoMailbox() && isLoopbackIp(clientIp(request));
}

// ---- Delivery (SMTP) -------------------------------------------------------------------------

const MAX_ATTEMPTS = 8;
const worker: { transport?: Transporter; timer?: NodeJS.Timeout; running?: boolean; kick?: NodeJS.Timeout } = {};

function transport(): Transporter {
  const env = getEnv();
  return (worker.transport ??= nodemailer.createTransport(env.SMTP_URL!));
}

/**
 * Sends up to `batch` unsent mails. Rows are claimed with FOR UPDATE SKIP LOCKED inside a
 * transaction, so several server processes never send the same mail twice.
 */
export async function deliverOutbox(batch = 20): Promise<number> {
  if (isDemoMail()) return 0;
  const env = getEnv();
  const db = await getDb();
  const from = env.MAIL_FROM ?? `Grader <${env.SUPPORT_EMAIL}>`;
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("outbox")
      .selectAll()
      .where("sent_at", "is", null)
      .where("attempts", "<", MAX_ATTEMPTS)
      .orderBy("id")
      .limit(batch)
      .forUpdate()
      .skipLocked()
      .execute();
    let sent = 0;
    for (const row of rows) {
      try {
        await transport().sendMail({ from, to: row.to_email, subject: row.subject, text: row.text });
        await trx
          .updateTable("outbox")
          .set({ sent_at: sql`now()`, attempts: sql`attempts + 1`, last_error: null })
          .where("id", "=", row.id)
          .execute();
        sent++;
      } catch (error) {
        log("error", "mail not delivered", { id: row.id, error: String(error) });
        await trx
          .updateTable("outbox")
          .set({ attempts: sql`attempts + 1`, last_error: String(error).slice(0, 500) })
          .where("id", "=", row.id)
          .execute();
      }
    }
    return sent;
  });
}

async function runWorker() {
  if (worker.running) return;
  worker.running = true;
  try {
    while ((await deliverOutbox()) > 0) {
      /* drain */
    }
  } catch (error) {
    log("error", "mail worker failed", { error: String(error) });
  } finally {
    worker.running = false;
  }
}

/** Starts periodic delivery (every 5 s) when SMTP is configured; returns a stop function. */
export function startMailWorker(): () => void {
  if (isLocalDemoMailbox())
    log("info", "demo mail: nothing is sent; the outbox is readable at /dev/mail from this machine");
  else if (isDemoMail())
    log(
      "error",
      "SMTP_URL is not set: mail (verification, password resets) is not delivered, and the demo mailbox is closed on a public URL",
    );
  if (isDemoMail()) return () => {};
  worker.timer = setInterval(() => void runWorker(), 5000);
  worker.timer.unref();
  void runWorker();
  return () => clearInterval(worker.timer);
}

/** Delivers soon after a mail is queued (after the enqueuing transaction has had time to commit). */
function kickMailWorker() {
  if (isDemoMail() || worker.kick) return;
  worker.kick = setTimeout(() => {
    worker.kick = undefined;
    void runWorker();
  }, 200);
  worker.kick.unref();
}
