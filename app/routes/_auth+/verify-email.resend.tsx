import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect, replace } from "@remix-run/node";
import { safeRedirect } from "~/lib/safe-redirect";
import { sendVerificationEmail } from "~/server/accounts/account.server";
import { hitLimit } from "~/server/http/rate-limit.server";
import { requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";
import { formText, parseForm } from "~/lib/forms";
import { z } from "zod";

const ResendForm = z.object({ redirectTo: formText });

// The banner's "Resend" button: with or without JavaScript, back to the page it was sent from,
// which the answer replaces in the history, saying in ?verification= what happened.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(ResendForm, await readForm(request));
  const back = safeRedirect(parsed.ok ? parsed.data.redirectTo : null, "/community");
  const limit = await hitLimit("verify-resend", user.id);
  if (limit.ok) await sendVerificationEmail(user.id);
  const status = limit.ok ? "sent" : "limited";
  // set, not append: a second resend from the same page says the newer answer.
  const to = new URL(back, "http://x");
  to.searchParams.set("verification", status);
  return replace(to.pathname + to.search + to.hash);
}

export const loader = () => redirect("/community");
