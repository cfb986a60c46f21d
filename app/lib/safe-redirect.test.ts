import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

// Every spelling of another origin we know of; each must fall back.
const OFFSITE = [
  "//evil.example/x",
  "///evil.example",
  "/.//evil.example/x",
  "/././/evil.example",
  "/a/..//evil.example",
  "/a/b/../..//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/%2e/%2fevil.example",
  "/%2F%2Fevil.example",
  "/%2f/evil.example",
  "/%252F%252Fevil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/%5Cevil.example",
  "/%5cevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/\u0000/evil.example",
  "/\u007f/evil.example",
  "/\u2028/evil.example",
  " //evil.example",
  "\t//evil.example",
  "https://evil.example",
  "http:/evil.example",
  "HTTPS://evil.example/",
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  "  javascript:alert(1)",
  "data:text/html,hi",
  "evil.example",
  "",
  null,
  undefined,
];

/** The host a browser on https://grader.example would end up on after following `location`. */
function hostAfter(location: string): string {
  return new URL(location, "https://grader.example/signin").host;
}

describe("safeRedirect", () => {
  it("keeps same-site paths with their query and hash", () => {
    expect(safeRedirect("/u/12?tab=stats")).toBe("/u/12?tab=stats");
    expect(safeRedirect("/profile")).toBe("/profile");
    expect(safeRedirect("/posts/3#reply-4")).toBe("/posts/3#reply-4");
    expect(safeRedirect("/u/12?ref=https%3A%2F%2Fx.example")).toBe("/u/12?ref=https%3A%2F%2Fx.example");
    expect(safeRedirect("/search?q=100%25")).toBe("/search?q=100%25");
  });

  it("answers the normalised path, which stays on site", () => {
    expect(safeRedirect("/./evil.example")).toBe("/evil.example");
    expect(safeRedirect("/a/../profile")).toBe("/profile");
    expect(safeRedirect("/a/%2e%2e/profile")).toBe("/profile");
  });

  it("refuses every spelling of another origin", () => {
    for (const bad of OFFSITE) {
      const answer = safeRedirect(bad as string);
      expect(answer, JSON.stringify(bad)).toBe("/community");
    }
    expect(safeRedirect("//evil.com", "/")).toBe("/");
  });

  it("never answers anything a browser would follow off site", () => {
    const parts = ["/", "//", ".", "..", "%2e", "%2f", "%5c", "\\", "\t", "evil.example", "a"];
    // Every three-part combination: no answer may leave grader.example.
    for (const a of parts)
      for (const b of parts)
        for (const c of parts) {
          const answer = safeRedirect(`/${a}${b}${c}`);
          expect(hostAfter(answer), JSON.stringify(`/${a}${b}${c}`)).toBe("grader.example");
          expect(answer.startsWith("/") && !answer.startsWith("//")).toBe(true);
          expect(safeRedirect(answer)).toBe(answer);
        }
  });
});
