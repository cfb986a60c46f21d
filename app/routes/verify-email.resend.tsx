import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { safeRedirect } from "~/lib/safe-redirect";
import { sendVerificationEmail } from "~/server/account.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { requireUser } from "~/server/session.server";
import { readForm } from "~/server/guards.server";

// The banner's "Resend" button. With JavaScript it is a fetcher (JSON answer); without, a plain
// form post that comes back to the page it was sent from.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const back = safeRedirect(form.get("redirectTo"), "/community");
  const limit = await hitRateLimit(`verify-resend:${user.id}`, 3, 3600);
  if (limit.ok) await sendVerificationEmail(user.id);
  const status = limit.ok ? "sent" : "limited";
  // A fetcher's request carries ?_data=…; a plain form post (no JavaScript) does not.
  if (new URL(request.url).searchParams.has("_data")) return json({ status });
  const sep = back.includes("?") ? "&" : "?";
  return redirect(`${back}${sep}verification=${status}`);
}

export const loader = () => redirect("/community");
