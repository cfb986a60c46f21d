import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { safeRedirect } from "~/lib/safe-redirect";
import { parseTheme, themeCookie } from "~/lib/theme";
import { readForm } from "~/server/http/guards.server";

// POST /theme (the switch in settings): sets the theme cookie and goes back; no account needed.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const theme = parseTheme(form.get("theme"));
  if (!theme) return json({ error: "Choose system, light or dark." }, { status: 400 });
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return redirect(safeRedirect(form.get("redirect_to"), "/user/settings"), {
    headers: { "Set-Cookie": themeCookie(theme, secure) },
  });
}

export function loader() {
  return redirect("/user/settings");
}
