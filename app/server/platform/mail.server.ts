import nodemailer, { type Transporter } from "nodemailer";
import { sql } from "kysely";
import type { DB } from "./db.server";
import { getDb } from "./db.server";
import { isSimulated } from "./demo.server";
import { getEnv } from "./env.server";
import { enqueue } from "./jobs.server";
import { isLoopbackIp, isLoopbackUrl } from "../../lib/loopback";
import { log } from "./log.server";
import { clientIp } from "../http/rate-limit.server";

export type Mail = { to: string; subject: string; text: string };

/**
 * Queues an email in the outbox (inside the caller's transaction when one is given, so a mail
 * is never sent for a write that rolled back). With SMTP_URL set a mail-deliver job, queued in the
 * same transaction, delivers it; without (demo mode) the outbox is the demo mailbox at /dev/mail.
 */
export async function enqueueMail(mail: Mail, trx?: DB): Promise<void> {
  const db = trx ?? (await getDb());
  await db.insertInto("outbox").values({ to_email: mail.to, subject: mail.subject, text: mail.text }).execute();
  // One delivery job waits at a time (a short queue drops the others): it sends all there is.
  if (!isDemoMail()) await enqueue(trx ?? null, "mail-deliver", {});
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

// Tries of one mail; between them a doubling pause from RETRY_FIRST_SECONDS (about an hour in all).
const MAX_ATTEMPTS = 8;
const RETRY_FIRST_SECONDS = 30;
let transporter: Transporter | undefined;

// Bounded SMTP waits (nodemailer's own allow minutes), so a send ends well within its lease.
function transport(): Transporter {
  return (transporter ??= nodemailer.createTransport({
    url: getEnv().SMTP_URL!,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  }));
}

type Claimed = { id: number; to_email: string; subject: string; text: string; attempts: number; lapsed: boolean };

/**
 * Claims the oldest mail that is due, in one statement (its own short transaction): the row gets a
 * lease of MAIL_LEASE_SECONDS and its attempt is counted. SKIP LOCKED and the lease keep two
 * senders off one row; a row whose lease passed without an outcome (its sender died, or lost the
 * database) is claimed again, and says so (`lapsed`). Exported for its test.
 */
export async function claimMail(leaseSeconds = getEnv().MAIL_LEASE_SECONDS): Promise<Claimed | undefined> {
  const db = await getDb();
  const { rows } = await sql<Claimed>`
    with next as (
      select id, claimed_until is not null as lapsed from outbox
      where sent_at is null and attempts < ${MAX_ATTEMPTS}
        and (claimed_until is null or claimed_until < now())
        and (retry_at is null or retry_at <= now())
      order by id limit 1
      for update skip locked)
    update outbox set claimed_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
    from next where outbox.id = next.id
    returning outbox.id, outbox.to_email, outbox.subject, outbox.text, outbox.attempts, next.lapsed`.execute(db);
  return rows[0];
}

/**
 * Sends one claimed mail outside any transaction, then records the outcome in one statement. The
 * Message-ID is the row's, so a mail sent twice (a sender that died after the hand-off) arrives as
 * one message twice, and each such case is logged.
 */
async function send(row: Claimed): Promise<boolean> {
  const env = getEnv();
  const db = await getDb();
  if (row.lapsed)
    log("error", "mail claim lapsed without an outcome; sending again (it may arrive twice)", {
      id: row.id,
      attempt: row.attempts,
    });
  try {
    await transport().sendMail({
      from: env.MAIL_FROM ?? `Grader <${env.SUPPORT_EMAIL}>`,
      to: row.to_email,
      subject: row.subject,
      text: row.text,
      messageId: `<outbox-${row.id}@${new URL(env.PUBLIC_URL).hostname}>`,
    });
  } catch (error) {
    const last = row.attempts >= MAX_ATTEMPTS;
    log("error", last ? "mail not delivered; giving up" : "mail not delivered", {
      id: row.id,
      attempt: row.attempts,
      error: String(error),
    });
    // Only while the claim is still ours: a sender whose lease passed leaves the row to the next.
    await db
      .updateTable("outbox")
      .set({
        claimed_until: null,
        last_error: String(error).slice(0, 500),
        retry_at: sql`now() + make_interval(secs => ${RETRY_FIRST_SECONDS * 2 ** (row.attempts - 1)})`,
      })
      .where("id", "=", row.id)
      .where("attempts", "=", row.attempts)
      .where("sent_at", "is", null)
      .execute();
    return false;
  }
  const marked = await db
    .updateTable("outbox")
    .set({ sent_at: sql`now()`, claimed_until: null, last_error: null })
    .where("id", "=", row.id)
    .where("sent_at", "is", null)
    .returning("attempts")
    .executeTakeFirst();
  if (marked?.attempts !== row.attempts)
    log("error", "mail sent after its claim lapsed; another sender took it (it may arrive twice)", { id: row.id });
  return true;
}

/**
 * Sends due mail, one claim at a time, until none is left or `seconds` have passed; answers how
 * many were sent and whether mail may be left. Any number of processes may run it at once.
 */
export async function deliverOutbox(seconds = 20): Promise<{ sent: number; more: boolean }> {
  if (isDemoMail()) return { sent: 0, more: false };
  const until = Date.now() + seconds * 1000;
  let sent = 0;
  while (Date.now() < until) {
    const row = await claimMail();
    if (!row) return { sent, more: false };
    if (await send(row)) sent++;
  }
  return { sent, more: true };
}

/**
 * The mail-deliver job: queued with each mail and every minute (the retries, and mail a dead sender
 * left). A run stays well within the job's time limit, and queues the next when mail is left.
 */
export async function mailJob(): Promise<void> {
  const { more } = await deliverOutbox(Math.max(1, getEnv().JOB_EXPIRE_SECONDS / 3));
  if (more) await enqueue(null, "mail-deliver", {});
}

/** At start-up: says where mail goes when it is not delivered. */
export function logMailMode(): void {
  if (isLocalDemoMailbox())
    log("info", "demo mail: nothing is sent; the outbox is readable at /dev/mail from this machine");
  else if (isDemoMail())
    log(
      "error",
      "SMTP_URL is not set: mail (verification, password resets) is not delivered, and the demo mailbox is closed on a public URL",
    );
}
