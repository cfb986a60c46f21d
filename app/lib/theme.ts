// The colour theme: "system" follows prefers-color-scheme; "light" and "dark" pin one. Kept in a
// cookie so it applies before any JavaScript runs and also for visitors who are signed out.
import { parse as parseCookies } from "cookie";

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "grader_theme";

export function parseTheme(value: unknown): Theme | null {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value) ? (value as Theme) : null;
}

/** The theme named by a request's Cookie header; "system" when none or unknown. */
export function themeFromCookieHeader(header: string | null): Theme {
  return (header && parseTheme(parseCookies(header)[THEME_COOKIE])) || "system";
}

/** Set-Cookie for a chosen theme: a year, whole site, readable by no script that needs it. */
export function themeCookie(theme: Theme, secure: boolean): string {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

/** The browser chrome's colour (meta theme-color): each theme's page background (app.css --bg). */
export const THEME_COLORS = { dark: "#0b1020", light: "#f5f7fc" } as const;
