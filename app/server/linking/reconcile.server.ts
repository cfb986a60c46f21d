import type { Ledger } from "~/grading";
import { parsePlaidHoldings, plaidHoldingPositions } from "~/sources/plaid.server";
import { getDb } from "../platform/db.server";
import { positionDisagreements, positionsOf, type PositionDisagreement } from "./reconcile";

export const PLAID_HOLDINGS_PAYLOAD = "plaid:/investments/holdings/get";

/**
 * The user's Plaid accounts reconciled with what Plaid last reported held (the holdings each import
 * ends with): every symbol whose position the graded ledger computes otherwise. A difference means
 * history is missing (bought before the 24 months Plaid offers, a transfer Plaid did not report) or
 * mapped wrongly; the grade shows it rather than hiding it.
 */
export async function holdingsDisagreements(
  userId: number,
  ledger: Pick<Ledger, "trades" | "events">,
): Promise<PositionDisagreement[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("provider_payloads as p")
    .innerJoin("linked_accounts as la", "la.id", "p.linked_account_id")
    .select(["p.linked_account_id", "p.payload"])
    .where("la.user_id", "=", userId)
    .where("la.kind", "=", "plaid")
    .where("p.kind", "=", PLAID_HOLDINGS_PAYLOAD)
    .where((eb) =>
      eb(
        "p.id",
        "=",
        eb
          .selectFrom("provider_payloads as q")
          .select((q) => q.fn.max("q.id").as("id"))
          .whereRef("q.linked_account_id", "=", "p.linked_account_id")
          .where("q.kind", "=", PLAID_HOLDINGS_PAYLOAD),
      ),
    )
    .orderBy("p.linked_account_id")
    .execute();
  const out: PositionDisagreement[] = [];
  for (const r of rows) {
    const holdings = parsePlaidHoldings(typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload);
    if (!holdings) continue;
    out.push(
      ...positionDisagreements(positionsOf(ledger, String(r.linked_account_id)), plaidHoldingPositions(holdings)),
    );
  }
  return out;
}
