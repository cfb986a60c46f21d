import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

// Pages that are the same for every anonymous visitor are rendered once per device variant and
// kept in memory. The per-request CSP nonce is rendered as a placeholder and substituted on every
// response, so caching never reuses a nonce between visitors.
export const NONCE_PLACEHOLDER = "grader0nonce0placeholder";

export type CachedPage = {
  /** The page's bytes split at each nonce placeholder, encoded once (not per response). */
  parts: Buffer[];
  etag: string;
  headers: [string, string][];
};

const pages = new LRUCache<string, CachedPage>({ max: 200 });

export function getCachedPage(key: string): CachedPage | undefined {
  return pages.get(key);
}

export function storeCachedPage(key: string, html: string, headers: [string, string][]): CachedPage {
  const page: CachedPage = {
    parts: html.split(NONCE_PLACEHOLDER).map((part) => Buffer.from(part)),
    etag: `"${createHash("sha256").update(key).update(html).digest("base64url").slice(0, 27)}"`,
    headers,
  };
  pages.set(key, page);
  return page;
}

/** The stored page's bytes with this response's nonce in each placeholder's place. */
export function cachedPageBody(page: CachedPage, nonce: string): Buffer {
  if (page.parts.length === 1) return page.parts[0]!;
  const nonceBytes = Buffer.from(nonce);
  const chunks: Buffer[] = [page.parts[0]!];
  for (let i = 1; i < page.parts.length; i++) chunks.push(nonceBytes, page.parts[i]!);
  return Buffer.concat(chunks);
}

export function clearPageCache() {
  pages.clear();
}
