import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readBody, requireMethod } from "~/server/http/api.server";
import { LoginBody } from "~/server/http/api-schemas.server";
import { signIn } from "~/server/accounts/login.server";

// POST /api/user/login { email, password } → { data: { auth_token } }
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const body = await readBody(request, LoginBody);
  const login = await signIn(request, body.email, body.password);
  if (!login.ok && login.reason === "throttled")
    return apiError(429, login.message, undefined, { "Retry-After": String(login.retryAfter) });
  if (!login.ok) return apiError(401, "Wrong email or password.");
  const headers = new Headers();
  for (const cookie of login.cookies) headers.append("Set-Cookie", cookie);
  return apiData({ auth_token: login.token }, { headers });
}

export const loader = () => apiError(405, "Use POST for this call.");
