import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { safeRedirect } from "~/lib/safe-redirect";
import { THEMES, themeCookie } from "~/lib/theme";
import { formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { readForm } from "~/server/http/guards.server";

// POST /theme (the switch in settings): sets the theme cookie and goes back; no account needed.
const ThemeForm = z.object({ theme: z.enum(THEMES), redirect_to: formText });

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseForm(ThemeForm, await readForm(request));
  if (!parsed.ok) return json({ error: "Choose system, light or dark." }, { status: 400 });
  const { theme, redirect_to } = parsed.data;
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return redirect(safeRedirect(redirect_to, "/user/settings"), {
    headers: { "Set-Cookie": themeCookie(theme, secure) },
  });
}

export function loader() {
  return redirect("/user/settings");
}
