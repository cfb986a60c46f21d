import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { describeFailure, linkPlaidItem } from "~/server/linking/providers/plaid.server";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { MESSAGE_406 } from "~/server/linking/imports.server";
import { ExchangeTokenBody } from "~/server/http/api-schemas.server";

// POST /api/finance/plaid/exchange-public-token { public_token } → links the item's investment
// accounts (status "importing") and starts their imports as jobs; progress is at
// GET /api/portal/imports. 406 rule: 409 { code: 406, message } and nothing linked. Past today's
// link limit: 429 with Retry-After, and Plaid is not asked.

export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const { public_token } = await readBody(request, ExchangeTokenBody);
  try {
    const result = await linkPlaidItem(user.id, public_token);
    if (!result.ok && "status" in result)
      return apiError(result.status, result.message, undefined, { "Retry-After": String(result.retryAfter) });
    if (!result.ok)
      return json({ code: 406, message: MESSAGE_406, error: { message: MESSAGE_406, code: 406 } }, { status: 409 });
    return apiData({ message: "Added the account successfully!", accounts: result.accounts }, { status: 201 });
  } catch (error) {
    const f = describeFailure(error);
    return json({ error: { message: f.message, code: f.code, relogin_required: f.relogin } }, { status: f.status });
  }
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
