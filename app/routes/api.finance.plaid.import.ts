import { idSchema } from "~/server/guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { describeFailure, findOwnPlaidAccount, importPlaidAccount } from "~/sources/plaid.server";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/api.server";

// POST /api/finance/plaid/import { linked_account_id } → re-imports one of the caller's Plaid
// accounts now (idempotent: what was imported before is not added again).
const Body = z.object({ linked_account_id: idSchema });

export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const { linked_account_id } = await readBody(request, Body);
  if (!(await findOwnPlaidAccount(user.id, linked_account_id))) return apiError(404, "That linked account was not found.");
  try {
    const result = await importPlaidAccount(linked_account_id);
    return apiData({ trades_added: result.tradesAdded, cash_flows_added: result.cashFlowsAdded });
  } catch (error) {
    const f = describeFailure(error);
    return json({ error: { message: f.message.replace("Failed to add the account!", "The import failed."), code: f.code, relogin_required: f.relogin } }, { status: f.status });
  }
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
