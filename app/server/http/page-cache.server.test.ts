import { afterEach, describe, expect, it } from "vitest";
import { cachedPageBody, clearPageCache, getCachedPage, NONCE_PLACEHOLDER, storeCachedPage } from "./page-cache.server";

afterEach(() => clearPageCache());

describe("page cache", () => {
  it("puts each response's nonce in every placeholder, multi-byte text intact", () => {
    const html = `<p>Grader — 成绩</p><script nonce="${NONCE_PLACEHOLDER}">a()</script><script nonce="${NONCE_PLACEHOLDER}"></script>`;
    const page = storeCachedPage("d/", html, [["content-type", "text/html; charset=utf-8"]]);
    expect(getCachedPage("d/")).toBe(page);
    expect(cachedPageBody(page, "n0nce+A/b==").toString()).toBe(html.replaceAll(NONCE_PLACEHOLDER, "n0nce+A/b=="));
    expect(cachedPageBody(page, "other").toString()).toBe(html.replaceAll(NONCE_PLACEHOLDER, "other"));
  });

  it("sends a page without scripts as stored, and tags pages by key and content", () => {
    const page = storeCachedPage("d/terms", "<p>terms</p>", []);
    expect(cachedPageBody(page, "x").toString()).toBe("<p>terms</p>");
    expect(storeCachedPage("m/terms", "<p>terms</p>", []).etag).not.toBe(page.etag);
    expect(storeCachedPage("d/terms", "<p>terms v2</p>", []).etag).not.toBe(page.etag);
  });
});
