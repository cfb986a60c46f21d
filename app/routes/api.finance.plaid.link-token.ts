import { idSchema } from "~/server/guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { createLinkToken, describeFailure } from "~/sources/plaid.server";
import { apiData, apiError, requireApiUser, requireMethod } from "~/server/api.server";

// POST /api/finance/plaid/link-token → { link_token } for Plaid Link (products: investments).
// Body (optional): { linked_account_id } → a token for Link update mode on that account (re-login).
const Body = z.object({ linked_account_id: idSchema.optional() });

export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  let raw: unknown = {};
  const text = await request.text();
  if (text.trim()) {
    try {
      raw = JSON.parse(text);
    } catch {
      return apiError(400, "The request body is not valid JSON.");
    }
  }
  const body = Body.safeParse(raw);
  if (!body.success) return apiError(400, "linked_account_id: must be a positive integer", { linked_account_id: "must be a positive integer" });
  try {
    const { linkToken } = await createLinkToken(user.id, { linkedAccountId: body.data.linked_account_id });
    return apiData({ link_token: linkToken });
  } catch (error) {
    const f = describeFailure(error);
    return apiError(f.status, f.message);
  }
}

export function loader() {
  return apiError(405, "Use POST for this call.", undefined, { Allow: "POST" });
}
