import { getDb } from "../platform/db.server";
import type { JobData } from "../platform/jobs.server";
import { log } from "../platform/log.server";
import { renderGradeCards } from "./cards.server";
import { remakeGrade } from "./evaluation.server";

/**
 * The `currency-regrade` job (DECISIONS 181): a trader chose another base currency in settings,
 * and their current grade is re-made from the stored history (no re-import, no try, not one of the
 * day's automatic grades), logged as any grade, and they are told. A job queued for a currency the
 * trader has since changed again does nothing: the job of the latest change re-makes it. An
 * evaluation running now (the lease held) grades in the new currency itself: nothing left to do.
 */
export async function currencyRegradeJob(data: JobData["currency-regrade"]): Promise<void> {
  const db = await getDb();
  const user = await db.selectFrom("users").select(["base_currency"]).where("id", "=", data.userId).executeTakeFirst();
  if (!user || user.base_currency !== data.currency) return;
  const outcome = await remakeGrade(data.userId, new Date(), { kind: "base-currency", currency: data.currency });
  log("info", "currency re-grade", { userId: data.userId, currency: data.currency, outcome });
  if (outcome === "remade") await renderGradeCards(data.userId);
}
