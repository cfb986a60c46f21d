import { getEnv } from "~/server/platform/env.server";
import { SITEMAP_PATHS } from "~/server/http/public-pages.server";

// The public pages and every article and white-paper section (one list, shared with the page
// cache), with absolute URLs from PUBLIC_URL.
export function loader() {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${SITEMAP_PATHS.map((p) => `  <url><loc>${base}${p}</loc></url>`).join("\n")}
</urlset>
`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
