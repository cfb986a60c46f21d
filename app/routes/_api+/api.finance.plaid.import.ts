import type { ActionFunctionArgs } from "@remix-run/node";
import { findOwnPlaidAccount } from "~/server/linking/providers/plaid.server";
import { startImports } from "~/server/linking/steps.server";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { ImportBody } from "~/server/http/api-schemas.server";

// POST /api/finance/plaid/import { linked_account_id } → starts a re-import of one of the caller's
// Plaid accounts as a job (202; idempotent: what was imported before is not added again). Its
// progress is at GET /api/portal/imports.

export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const { linked_account_id } = await readBody(request, ImportBody);
  if (!(await findOwnPlaidAccount(user.id, linked_account_id)))
    return apiError(404, "That linked account was not found.");
  const [importId] = await startImports(user.id, [linked_account_id], "retry");
  return apiData({ import_id: importId, state: "queued" }, { status: 202 });
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
