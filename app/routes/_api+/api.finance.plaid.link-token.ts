import type { ActionFunctionArgs } from "@remix-run/node";
import { createLinkToken, describeFailure } from "~/server/linking/providers/plaid.server";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { LinkTokenBody } from "~/server/http/api-schemas.server";

// POST /api/finance/plaid/link-token → { link_token } for Plaid Link (products: investments).
// Body (optional): { linked_account_id } → a token for Link update mode on that account (re-login).

export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const body = await readBody(request, LinkTokenBody);
  try {
    const session = await createLinkToken(user.id, { linkedAccountId: body.linked_account_id });
    if (!session.ok)
      return apiError(session.status, session.message, undefined, { "Retry-After": String(session.retryAfter) });
    return apiData({ link_token: session.linkToken });
  } catch (error) {
    const f = describeFailure(error);
    return apiError(f.status, f.message);
  }
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
