import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirect("/u/12?tab=stats")).toBe("/u/12?tab=stats");
    expect(safeRedirect("/profile")).toBe("/profile");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "//evil.com",
      "/\\evil.com",
      "https://evil.com",
      "javascript:alert(1)",
      "evil.com",
      "/\tevil",
      "",
      null,
      undefined,
    ]) {
      expect(safeRedirect(bad as string)).toBe("/community");
    }
    expect(safeRedirect("//evil.com", "/")).toBe("/");
  });
});
