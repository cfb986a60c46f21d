import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { email, password } from "~/lib/auth-schemas";
import { username } from "~/lib/profile-schemas";
import { sendVerificationEmail } from "~/server/account.server";
import { apiData, apiError, readBody, requireMethod } from "~/server/api.server";
import { clientIp, hitRateLimit } from "~/server/rate-limit.server";
import { createSession } from "~/server/session.server";
import { createUser } from "~/server/users.server";

const name = z.string().trim().min(1).max(60).optional();
// Known extras are validated and stored; unknown ones are ignored (zod strips them).
const Body = z.object({ email, password, username: username.optional(), first_name: name, last_name: name });

// POST /api/user/register { email, password, ...extras } → { data: { auth_token } } (201)
export async function action({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const ipLimit = await hitRateLimit(`signup:ip:${clientIp(request)}`, 20, 3600);
  if (!ipLimit.ok) return apiError(429, "Too many sign-ups from here. Please try again later.", undefined, { "Retry-After": String(ipLimit.retryAfter) });
  const body = await readBody(request, Body);
  const user = await createUser(body);
  if (!user) return apiError(409, "This email or username can't be used to create a new account.");
  await sendVerificationEmail(user.id);
  const { token, setCookie } = await createSession(user.id, request);
  return apiData({ auth_token: token }, { status: 201, headers: { "Set-Cookie": setCookie } });
}

export const loader = () => apiError(405, "Use POST for this call.");
