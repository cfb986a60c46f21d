import { getEnv } from "~/server/platform/env.server";

// Member and API pages are not for search engines; everything public is, with the sitemap.
export function loader() {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const disallow = [
    "/api/",
    "/profile",
    "/u/",
    "/messages",
    "/community",
    "/market",
    "/portal/",
    "/user/",
    "/dev/",
    "/oauth/",
    "/search",
    "/evaluate",
  ];
  const body = ["User-agent: *", ...disallow.map((d) => `Disallow: ${d}`), "", `Sitemap: ${base}/sitemap.xml`, ""].join(
    "\n",
  );
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
