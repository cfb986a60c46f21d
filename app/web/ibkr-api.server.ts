import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { IbkrLinkBody } from "~/server/http/api-schemas.server";
import { linkIbkr } from "~/server/linking/providers/ibkr.server";
import { isSimulated } from "~/server/platform/demo.server";

/**
 * POST /api/ibkr/wallet { token, query_id } → the linked account, like the exchange link (docs/API.md
 * "Interactive Brokers"). This file reads and answers; the statement, the 406 rule and the link
 * are linkIbkr's. The token is never echoed.
 */
export async function ibkrLinkAction({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const body = await readBody(request, IbkrLinkBody);
  const linked = await linkIbkr({ userId: user.id, credentials: { token: body.token, queryId: body.query_id } });
  if (!linked.ok) {
    // The 406 rule answers like the wallets': HTTP 409 with the product's message and code 406.
    if (linked.status === 409) return json({ error: { message: linked.message }, code: 406 }, { status: 409 });
    if (linked.status === 429)
      return apiError(429, linked.message, undefined, { "Retry-After": String(linked.retryAfter) });
    return apiError(linked.status, linked.message);
  }
  return apiData(
    {
      linked_account_id: linked.linkedAccountId,
      kind: "ibkr" as const,
      label: linked.label,
      created: linked.created,
      demo: isSimulated("ibkr"),
      status: "importing" as const,
      import_id: linked.importId,
    },
    { status: linked.created ? 201 : 200 },
  );
}
