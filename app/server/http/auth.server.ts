import { json, redirect } from "@remix-run/node";
import { formError, type FormReply } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { getSessionUser } from "./session.server";

/**
 * For pages only visitors need (landing, sign-in, sign-up): a logged-in visitor goes to
 * /community, or first to the stored redirect address (`next`) when there is one; the rest of
 * the query string is kept (PRODUCT §2).
 */
export async function redirectIfSignedIn(request: Request) {
  const user = await getSessionUser(request);
  if (!user) return;
  const url = new URL(request.url);
  const target = safeRedirect(url.searchParams.get("next"));
  const params = new URLSearchParams(url.search);
  params.delete("next");
  const qs = params.toString();
  throw redirect(qs ? `${target}${target.includes("?") ? "&" : "?"}${qs}` : target);
}

/** 429 with Retry-After, a form reply (`FormReply`) whose message is said above the form. */
export function tooManyRequests(
  retryAfter: number,
  message = "Too many attempts. Please wait a moment and try again.",
) {
  return json<FormReply>(formError(message), { status: 429, headers: { "Retry-After": String(retryAfter) } });
}
