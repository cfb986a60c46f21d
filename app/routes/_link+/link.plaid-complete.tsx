import { toId } from "~/server/http/guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { isSimulated } from "~/server/platform/demo.server";
import { redirect } from "@remix-run/node";
import {
  linkAndDescribe,
  publicTokenFromLinkSession,
  reconnectAndDescribe,
} from "~/server/linking/providers/plaid.server";
import { readCookie, requireUser } from "~/server/http/session.server";
import { LINK_COOKIE } from "./link.plaid";

// GET /link/plaid-complete: Plaid Hosted Link's completion_redirect_uri (real credentials only).
// The Link token comes from the HttpOnly cookie set by /link/plaid; /link/token/get gives the
// session's public token, which is exchanged like the JSON API does.
const clear = `${LINK_COOKIE}=; Path=/link; HttpOnly; SameSite=Lax; Max-Age=0`;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (isSimulated("plaid")) return redirect("/profile/account");
  const [linkToken, accountRaw] = (readCookie(request, LINK_COOKIE) ?? "").split("|");
  if (!linkToken) return redirect("/profile/account?linkError=hiccup", { headers: { "Set-Cookie": clear } });
  let target: string;
  const accountId = toId(accountRaw);
  if (accountId !== null) {
    target = await reconnectAndDescribe(user.id, accountId);
  } else {
    const publicToken = await publicTokenFromLinkSession(linkToken).catch(() => null);
    const linked = publicToken ? await linkAndDescribe(user.id, publicToken) : "/profile/account?linkError=hiccup";
    // Past today's link limit the account page says so (a GET from Plaid: no form to answer).
    target = typeof linked === "string" ? linked : "/profile/account?linkError=limit";
  }
  return redirect(target, { headers: { "Set-Cookie": clear } });
}
