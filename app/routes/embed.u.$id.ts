import type { LoaderFunctionArgs } from "@remix-run/node";
import { BADGE_CACHE_CONTROL, badgeFor, embedHtml } from "~/server/grades/badge.server";
import { parseId } from "~/server/http/guards.server";

// GET /embed/u/{id}: a small card of the trader's current grade that any site may frame.
export async function loader({ params }: LoaderFunctionArgs) {
  const badge = await badgeFor(parseId(params.id));
  const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *";
  if (!badge)
    return new Response("No grade", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Content-Security-Policy": csp },
    });
  return new Response(embedHtml(badge), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": BADGE_CACHE_CONTROL,
      "Content-Security-Policy": csp,
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
