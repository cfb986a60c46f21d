import type { ActionFunctionArgs } from "@remix-run/node";
import { sendVerificationEmail } from "~/server/account.server";
import { apiData, apiError, readBody, requireMethod } from "~/server/api.server";
import { RegisterBody } from "~/server/api-schemas.server";
import { clientIp, hitRateLimit } from "~/server/rate-limit.server";
import { createSession } from "~/server/session.server";
import { createUser } from "~/server/users.server";

// POST /api/user/register { email, password, ...extras } → { data: { auth_token } } (201)
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const ipLimit = await hitRateLimit(`signup:ip:${clientIp(request)}`, 20, 3600);
  if (!ipLimit.ok)
    return apiError(429, "Too many sign-ups from here. Please try again later.", undefined, {
      "Retry-After": String(ipLimit.retryAfter),
    });
  const body = await readBody(request, RegisterBody);
  const user = await createUser(body);
  if (!user) return apiError(409, "This email or username can't be used to create a new account.");
  await sendVerificationEmail(user.id);
  const { token, setCookie } = await createSession(user.id, request);
  return apiData({ auth_token: token }, { status: 201, headers: { "Set-Cookie": setCookie } });
}

export const loader = () => apiError(405, "Use POST for this call.");
