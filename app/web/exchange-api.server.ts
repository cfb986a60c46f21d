import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { ExchangeLinkBody } from "~/server/http/api-schemas.server";
import { isSimulated } from "~/server/platform/demo.server";
import { linkExchangeKey } from "~/server/linking/providers/exchange.server";
import { isLinkableExchange } from "~/lib/exchanges";

/**
 * POST /api/exchange/wallet { exchange, api_key, secret, passphrase? } → the linked account, like
 * the wallet links (docs/API.md "Exchanges"). This file reads and answers; the key's check, the
 * 406 rule and the link are linkExchangeKey's. The key is never echoed.
 */
export async function exchangeLinkAction({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const body = await readBody(request, ExchangeLinkBody);
  const linked = await linkExchangeKey({
    userId: user.id,
    exchange: body.exchange,
    credentials: {
      apiKey: body.api_key,
      secret: body.secret,
      ...(body.passphrase ? { passphrase: body.passphrase } : {}),
    },
  });
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
      kind: body.exchange,
      exchange: body.exchange,
      label: linked.label,
      created: linked.created,
      demo: isLinkableExchange(body.exchange) && isSimulated(body.exchange),
      status: "importing" as const,
      import_id: linked.importId,
    },
    { status: linked.created ? 201 : 200 },
  );
}
