import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { isSimulated } from "~/server/platform/demo.server";
import { redirect } from "@remix-run/node";
import { getEnv } from "~/server/platform/env.server";
import { log } from "~/server/platform/log.server";
import { readCookie, requireUser } from "~/server/http/session.server";
import { createLinkToken, describeFailure } from "~/server/linking/providers/plaid.server";
import { readForm } from "~/server/http/guards.server";
import { idOrNull } from "~/lib/ids";
import { parseForm } from "~/lib/forms";
import { z } from "zod";

// POST /link/plaid (from /profile/account; works without JavaScript): creates a Link token on the
// server and sends the browser to Link. Demo mode: the local stand-in page. Real credentials: Plaid
// Hosted Link (through the GET hand-off below), which comes back to /link/plaid-complete. A
// linked_account_id asks for update mode.
export const LINK_COOKIE = "grader_plaid_link";

// Anything but an id is a new link, not update mode.
const LinkForm = z.object({ linked_account_id: idOrNull });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(LinkForm, await readForm(request));
  const accountId = (parsed.ok ? parsed.data.linked_account_id : null) ?? undefined;
  const completion = new URL("/link/plaid-complete", getEnv().PUBLIC_URL).toString();
  try {
    const session = await createLinkToken(user.id, { linkedAccountId: accountId, completionRedirectUri: completion });
    if (!session.ok) return redirect("/profile/account?linkError=sessions");
    const { linkToken, hostedLinkUrl } = session;
    if (isSimulated("plaid")) {
      const params = new URLSearchParams({ link_token: linkToken });
      if (accountId) params.set("account", String(accountId));
      return redirect(`/demo/plaid-link?${params}`);
    }
    if (!hostedLinkUrl?.startsWith("https://")) return redirect("/profile/account?linkError=hiccup");
    const secure = getEnv().PUBLIC_URL.startsWith("https:") ? "; Secure" : "";
    const value = encodeURIComponent(`${linkToken}|${accountId ?? ""}|${hostedLinkUrl}`);
    // Our CSP's form-action 'self' also covers the redirects that follow a form post, so the
    // browser goes to Plaid from a GET hand-off page (below) instead of straight from this POST.
    return redirect("/link/plaid?go=1", {
      status: 303,
      headers: { "Set-Cookie": `${LINK_COOKIE}=${value}; Path=/link; HttpOnly; SameSite=Lax; Max-Age=1800${secure}` },
    });
  } catch (error) {
    log("info", "plaid link start failed", { code: describeFailure(error).code });
    return redirect("/profile/account?linkError=hiccup");
  }
}

/** GET /link/plaid?go=1: the hand-off to Plaid Hosted Link (real credentials only). */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const hosted = (readCookie(request, LINK_COOKIE) ?? "").split("|")[2] ?? "";
  if (url.searchParams.get("go") !== "1" || isSimulated("plaid") || !hosted.startsWith("https://"))
    return redirect("/profile/account");
  const href = hosted.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Connecting to Plaid · Grader</title></head><body><main><h1>Connecting to Plaid…</h1><p><a href="${href}">Continue to Plaid</a></p></main></body></html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
