import { describe, expect, it } from "vitest";
import { articles } from "~/content/blog";
import { sections } from "~/content/white-paper";
import { isCacheablePath, SITEMAP_PATHS } from "./public-pages.server";

describe("the public pages", () => {
  it("lists each page once in the sitemap, every article and section included", () => {
    expect(new Set(SITEMAP_PATHS).size).toBe(SITEMAP_PATHS.length);
    for (const a of articles) expect(SITEMAP_PATHS).toContain(`/blogs/${a.id}`);
    for (const s of sections) expect(SITEMAP_PATHS).toContain(`/white-paper/${s.slug}`);
    expect(SITEMAP_PATHS).toContain("/");
  });

  it("caches the pages that are the same for every visitor, and nothing else", () => {
    for (const path of ["/", "/landing", "/blogs", `/blogs/${articles[0]!.id}`, "/white-paper", "/terms"])
      expect(isCacheablePath(path), path).toBe(true);
    // A form's state or the visitor's plan, a made-up article, a member page: never.
    for (const path of ["/signin", "/signup", "/pricing", "/blogs/nope", "/white-paper/x", "/profile", "/blogs/"])
      expect(isCacheablePath(path), path).toBe(false);
    // Every cached page but the landing's alias is in the sitemap.
    const cachedButNotListed = ["/landing"];
    for (const path of SITEMAP_PATHS) if (isCacheablePath(path)) expect(cachedButNotListed).not.toContain(path);
  });
});
