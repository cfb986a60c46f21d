import type { DB } from "./db.server";
import { getDb } from "./db.server";

export type Mail = { to: string; subject: string; text: string };

/**
 * Queues an email in the outbox (inside the caller's transaction when one is given, so a mail
 * is never sent for a write that rolled back). Without SMTP configured the outbox is the demo
 * mailbox, readable at /dev/mail.
 */
export async function enqueueMail(mail: Mail, trx?: DB): Promise<void> {
  const db = trx ?? (await getDb());
  await db.insertInto("outbox").values({ to_email: mail.to, subject: mail.subject, text: mail.text }).execute();
}

export async function listDemoMail(limit = 50) {
  const db = await getDb();
  return db.selectFrom("outbox").selectAll().orderBy("id", "desc").limit(limit).execute();
}
