import { describe, expect, it } from "vitest";
import { parseTheme, themeCookie, themeFromCookieHeader } from "./theme";

describe("theme", () => {
  it("reads the cookie, defaulting to system", () => {
    expect(themeFromCookieHeader(null)).toBe("system");
    expect(themeFromCookieHeader("a=1; grader_theme=light; b=2")).toBe("light");
    expect(themeFromCookieHeader("grader_theme=neon")).toBe("system");
  });
  it("accepts only the three themes and writes a long-lived cookie", () => {
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme("DARK")).toBeNull();
    expect(themeCookie("dark", true)).toBe(
      "grader_theme=dark; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure",
    );
  });
});
