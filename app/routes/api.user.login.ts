import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { email } from "~/lib/auth-schemas";
import { apiData, apiError, readBody, requireMethod } from "~/server/api.server";
import { clientIp, hitRateLimit } from "~/server/rate-limit.server";
import { createSession } from "~/server/session.server";
import { verifyLogin } from "~/server/users.server";

const Body = z.object({ email, password: z.string().min(1).max(1024) });

// POST /api/user/login { email, password } → { data: { auth_token } }
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const ipLimit = await hitRateLimit(`login:ip:${clientIp(request)}`, 10, 60);
  if (!ipLimit.ok) return apiError(429, "Too many attempts. Please wait a moment and try again.", undefined, { "Retry-After": String(ipLimit.retryAfter) });
  const body = await readBody(request, Body);
  const accountLimit = await hitRateLimit(`login:account:${body.email}`, 100, 3600);
  if (!accountLimit.ok) return apiError(429, "Too many failed attempts for this account. Try again later or reset your password.", undefined, { "Retry-After": String(accountLimit.retryAfter) });
  const userId = await verifyLogin(body.email, body.password);
  if (!userId) return apiError(401, "Wrong email or password.");
  const { token, setCookie } = await createSession(userId, request);
  return apiData({ auth_token: token }, { headers: { "Set-Cookie": setCookie } });
}

export const loader = () => apiError(405, "Use POST for this call.");
