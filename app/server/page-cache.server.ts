import { createHash } from "node:crypto";

// Pages that are the same for every anonymous visitor are rendered once per device variant and
// kept in memory. The per-request CSP nonce is rendered as a placeholder and substituted on every
// response, so caching never reuses a nonce between visitors.
export const NONCE_PLACEHOLDER = "grader0nonce0placeholder";

const CACHEABLE = [
  /^\/$/,
  /^\/landing$/,
  /^\/blogs$/,
  /^\/blogs\/[A-Za-z0-9_-]{1,40}$/,
  /^\/white-paper$/,
  /^\/white-paper\/[a-z-]{1,40}$/,
  /^\/(privacy|terms|contact|m\/guide)$/,
];

export function isCacheablePath(path: string): boolean {
  return CACHEABLE.some((re) => re.test(path));
}

export type CachedPage = {
  parts: string[];
  etag: string;
  headers: [string, string][];
};

const MAX_ENTRIES = 200;
const pages = new Map<string, CachedPage>();

export function getCachedPage(key: string): CachedPage | undefined {
  return pages.get(key);
}

export function storeCachedPage(key: string, html: string, headers: [string, string][]): CachedPage {
  const page: CachedPage = {
    parts: html.split(NONCE_PLACEHOLDER),
    etag: `"${createHash("sha256").update(key).update(html).digest("base64url").slice(0, 27)}"`,
    headers,
  };
  if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
  pages.set(key, page);
  return page;
}

export function clearPageCache() {
  pages.clear();
}
