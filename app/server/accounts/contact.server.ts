import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { enqueueMail } from "../platform/mail.server";

/** Stores the message and queues it to the support address, in one transaction. */
export async function saveContactMessage(input: {
  name: string;
  email: string;
  message: string;
  userId: number | null;
}) {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("contact_messages")
      .values({ name: input.name, email: input.email, message: input.message, user_id: input.userId })
      .execute();
    await enqueueMail(
      {
        to: getEnv().SUPPORT_EMAIL,
        subject: `Contact form: ${input.name.slice(0, 80)}`,
        text: `From: ${input.name} <${input.email}>\n\n${input.message}`,
      },
      trx,
    );
  });
}
