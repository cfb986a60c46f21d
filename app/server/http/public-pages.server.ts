import { articles } from "~/content/blog";
import { sections } from "~/content/white-paper";

// The public pages, listed once: the sitemap lists them and the page cache keeps those that are
// the same for every anonymous visitor. A page that shows anything of the visitor's own (a form's
// state, a price for their plan) is listed but never cached.
const PAGES: { path: string; sitemap: boolean; cached: boolean }[] = [
  { path: "/", sitemap: true, cached: true },
  // The landing under its own name, for links that name it; the sitemap has it as "/".
  { path: "/landing", sitemap: false, cached: true },
  { path: "/blogs", sitemap: true, cached: true },
  { path: "/white-paper", sitemap: true, cached: true },
  { path: "/glossary", sitemap: true, cached: false },
  { path: "/pricing", sitemap: true, cached: false },
  { path: "/airdrop", sitemap: true, cached: false },
  { path: "/stars", sitemap: true, cached: false },
  { path: "/m/guide", sitemap: true, cached: true },
  { path: "/contact", sitemap: true, cached: true },
  { path: "/privacy", sitemap: true, cached: true },
  { path: "/terms", sitemap: true, cached: true },
  { path: "/signup", sitemap: true, cached: false },
  { path: "/signin", sitemap: true, cached: false },
];

// Every article and white-paper section: in the sitemap and cached.
const ITEMS = [...articles.map((a) => `/blogs/${a.id}`), ...sections.map((s) => `/white-paper/${s.slug}`)];

/** The sitemap's paths, in order: the pages, then every article and section. */
export const SITEMAP_PATHS: readonly string[] = [...PAGES.filter((p) => p.sitemap).map((p) => p.path), ...ITEMS];

const CACHED = new Set([...PAGES.filter((p) => p.cached).map((p) => p.path), ...ITEMS]);

/** Whether an anonymous visitor's page at this path is kept by the page cache. */
export function isCacheablePath(path: string): boolean {
  return CACHED.has(path);
}
