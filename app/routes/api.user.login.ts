import { attemptLogin } from "~/server/login.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readBody, requireMethod } from "~/server/api.server";
import { LoginBody } from "~/server/api-schemas.server";
import { clientIp, hitRateLimit } from "~/server/rate-limit.server";
import { createSession } from "~/server/session.server";

// POST /api/user/login { email, password } → { data: { auth_token } }
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const ipLimit = await hitRateLimit(`login:ip:${clientIp(request)}`, 10, 60);
  if (!ipLimit.ok)
    return apiError(429, "Too many attempts. Please wait a moment and try again.", undefined, {
      "Retry-After": String(ipLimit.retryAfter),
    });
  const body = await readBody(request, LoginBody);
  const login = await attemptLogin(request, body.email, body.password);
  if (!login.ok && login.reason === "throttled")
    return apiError(
      429,
      "Too many failed attempts for this account. Try again later or reset your password.",
      undefined,
      { "Retry-After": String(login.retryAfter) },
    );
  if (!login.ok) return apiError(401, "Wrong email or password.");
  const { token, setCookie } = await createSession(login.userId, request);
  const headers = new Headers();
  headers.append("Set-Cookie", setCookie);
  headers.append("Set-Cookie", login.deviceCookie);
  return apiData({ auth_token: token }, { headers });
}

export const loader = () => apiError(405, "Use POST for this call.");
