import { articles } from "~/content/blog";
import { sections } from "~/content/white-paper";
import { getEnv } from "~/server/platform/env.server";

// The public pages and every article and white-paper section, with absolute URLs from PUBLIC_URL.
export const PUBLIC_PAGES = [
  "/",
  "/blogs",
  "/white-paper",
  "/glossary",
  "/pricing",
  "/airdrop",
  "/stars",
  "/m/guide",
  "/contact",
  "/privacy",
  "/terms",
  "/signup",
  "/signin",
];

export function loader() {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const paths = [
    ...PUBLIC_PAGES,
    ...articles.map((a) => `/blogs/${a.id}`),
    ...sections.map((s) => `/white-paper/${s.slug}`),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${base}${p}</loc></url>`).join("\n")}
</urlset>
`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
