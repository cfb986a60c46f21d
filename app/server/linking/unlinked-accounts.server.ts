import { sql } from "kysely";
import { unlinkedDisclosure } from "~/lib/unlinked";
import { getDb } from "../platform/db.server";
import type { GradeRecord } from "../grades/grade-record.server";
import type { Refusal } from "~/lib/refusal";
import { unlinkAccount } from "./imports.server";
import { countLinkChange, type LimitRefusal } from "./link-limits.server";
import { log } from "../platform/log.server";

// Unlinking never erases history: an account that was part of the trader's latest grade leaves a
// summary (its kind and last known return) that the next grade's signed record discloses. Grades
// are per trader, not per account, so the last known return is the TWR of that latest grade.

const NOT_FOUND: Refusal<404> = { ok: false, status: 404, message: "That account was not found." };

/**
 * Unlinks one of the user's accounts (imports.server.ts) and keeps its summary when it was graded.
 * Refused past today's unlink limit.
 */
export async function unlinkAccountKeepingHistory(
  userId: number,
  linkedAccountId: number,
): Promise<{ ok: true } | Refusal<404> | LimitRefusal> {
  const db = await getDb();
  const account = await db
    .selectFrom("linked_accounts")
    .select(["kind", "created_at"])
    .where("id", "=", linkedAccountId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!account) return NOT_FOUND;
  // Counted only for an account of the user's: that is what an unlink is.
  const allowed = await countLinkChange(userId, "unlink");
  if (!allowed.ok) return allowed;
  const grade = await db
    .selectFrom("users")
    .innerJoin("evaluations", "evaluations.id", "users.current_evaluation_id")
    .select([
      "evaluations.created_at",
      sql<number | null>`(evaluations.result #>> '{metrics,twr}')::double precision`.as("twr"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  const removed = await unlinkAccount(userId, linkedAccountId);
  // An account linked after the latest grade was never part of one: nothing to disclose.
  if (removed && grade && new Date(account.created_at) <= new Date(grade.created_at)) {
    await db
      .insertInto("unlinked_accounts")
      .values({ user_id: userId, kind: account.kind, twr: grade.twr === null ? null : Number(grade.twr) })
      .execute();
    log("info", "unlinked a graded account", { userId, kind: account.kind });
  }
  return removed ? { ok: true } : NOT_FOUND;
}

/** The disclosure the signed record of grade `code` carries ("1 account with a −12 % record …"), or null. */
export async function unlinkedDisclosureFor(code: string | null | undefined): Promise<string | null> {
  if (!code) return null;
  const db = await getDb();
  const row = await db.selectFrom("grade_log").select("record").where("code", "=", code).executeTakeFirst();
  if (!row) return null;
  return unlinkedDisclosure((JSON.parse(row.record) as GradeRecord).unlinked);
}
