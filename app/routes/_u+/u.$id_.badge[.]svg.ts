import type { LoaderFunctionArgs } from "@remix-run/node";
import { BADGE_CACHE_CONTROL, badgeFor, badgeSvg } from "~/server/grades/badge.server";
import { parseId } from "~/server/http/guards.server";

// GET /u/{id}/badge.svg: the trader's current grade as an SVG badge, for any site (public).
export async function loader({ params }: LoaderFunctionArgs) {
  const badge = await badgeFor(parseId(params.id));
  if (!badge)
    return new Response("No grade", {
      status: 404,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "public, max-age=60",
        "Cross-Origin-Resource-Policy": "cross-origin",
      },
    });
  return new Response(badgeSvg(badge), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": BADGE_CACHE_CONTROL,
      "Cross-Origin-Resource-Policy": "cross-origin",
      // Opened directly, the SVG runs nothing and loads nothing.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
