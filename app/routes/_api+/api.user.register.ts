import type { ActionFunctionArgs } from "@remix-run/node";
import { signUp } from "~/server/accounts/account.server";
import { apiData, apiError, readBody, requireMethod } from "~/server/http/api.server";
import { RegisterBody } from "~/server/http/api-schemas.server";

// POST /api/user/register { email, password, ...extras } → { data: { auth_token } } (201)
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readBody(request, RegisterBody);
  const signup = await signUp(request, body);
  if (!signup.ok && signup.reason === "throttled")
    return apiError(429, signup.message, undefined, { "Retry-After": String(signup.retryAfter) });
  if (!signup.ok) return apiError(409, "This email or username can't be used to create a new account.");
  return apiData({ auth_token: signup.token }, { status: 201, headers: { "Set-Cookie": signup.setCookie } });
}

export const loader = () => apiError(405, "Use POST for this call.");
