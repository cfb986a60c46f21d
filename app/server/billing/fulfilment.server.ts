import { sql } from "kysely";
import { getDb, type DB } from "../platform/db.server";
import type { CheckoutStatus } from "../platform/db/schema";
import { log } from "../platform/log.server";
import { passById, type Pass } from "./passes";

/** What fulfilment needs to know about a Checkout session (from the webhook event or a retrieve). */
export type CheckoutSnapshot = {
  id: string;
  status: string | null;
  paymentStatus: string;
  amountTotal: number | null;
  currency: string | null;
};

export type FulfilmentResult =
  | { ok: true; granted: boolean; pass: Pass; userId: number }
  | { ok: false; reason: "unknown_session" | "not_paid" | "amount_mismatch" };

/**
 * Grants the pass of a paid Checkout session exactly once, whoever calls first (the webhook or the
 * return page) and however many times: under a row lock on our session record, the grant row's
 * primary key (checkout_session_id) decides, and the user's allowance changes in the same
 * transaction. A repeat returns { ok: true, granted: false }.
 */
export async function fulfilCheckoutSession(session: CheckoutSnapshot, outer?: DB): Promise<FulfilmentResult> {
  if (session.paymentStatus !== "paid") return { ok: false, reason: "not_paid" };
  const run = async <T>(fn: (trx: DB) => Promise<T>) => (outer ? fn(outer) : (await getDb()).transaction().execute(fn));
  return run(async (trx) => {
    const ours = await trx
      .selectFrom("checkout_sessions")
      .selectAll()
      .where("id", "=", session.id)
      .forUpdate()
      .executeTakeFirst();
    if (!ours) {
      log("error", "checkout session not ours", { session: session.id });
      return { ok: false as const, reason: "unknown_session" as const };
    }
    const pass = passById(ours.pass_id);
    if (!pass) return { ok: false as const, reason: "unknown_session" as const };
    if (session.amountTotal !== null && session.amountTotal !== ours.amount_cents) {
      log("error", "checkout amount mismatch", {
        session: session.id,
        expected: ours.amount_cents,
        got: session.amountTotal,
      });
      return { ok: false as const, reason: "amount_mismatch" as const };
    }
    const grant = await trx
      .insertInto("pass_grants")
      .values({
        checkout_session_id: ours.id,
        user_id: ours.user_id,
        pass_id: pass.id,
        evaluations: pass.evaluations,
        unlimited_days: pass.unlimitedDays,
      })
      .onConflict((oc) => oc.column("checkout_session_id").doNothing())
      .returning("checkout_session_id")
      .executeTakeFirst();
    if (grant) {
      await trx
        .updateTable("users")
        .set({
          extra_tries: sql`extra_tries + ${pass.evaluations}`,
          ...(pass.unlimitedDays > 0
            ? {
                unlimited_until: sql`greatest(coalesce(unlimited_until, now()), now()) + make_interval(days => ${pass.unlimitedDays})`,
              }
            : {}),
        })
        .where("id", "=", ours.user_id)
        .execute();
      log("info", "pass granted", { session: ours.id, user: ours.user_id, pass: pass.id });
    }
    await trx
      .updateTable("checkout_sessions")
      .set({ status: "paid", updated_at: sql`now()` })
      .where("id", "=", ours.id)
      .execute();
    return { ok: true as const, granted: Boolean(grant), pass, userId: ours.user_id };
  });
}

/** Records a non-paid outcome; never downgrades a session that was already paid. */
export async function markCheckoutStatus(sessionId: string, status: Exclude<CheckoutStatus, "paid">, trx?: DB) {
  const db = trx ?? (await getDb());
  await db
    .updateTable("checkout_sessions")
    .set({ status, updated_at: sql`now()` })
    .where("id", "=", sessionId)
    .where("status", "!=", "paid")
    .execute();
}

export async function allowanceOf(userId: number) {
  const db = await getDb();
  return db
    .selectFrom("users")
    .select(["unlimited_until", "extra_tries", "tries_used"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}
