/**
 * Only same-site relative paths are followed: "/profile?x=1" yes; "//evil.com", "/\\evil.com",
 * "https://…", "javascript:…" and anything with control characters fall back.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/community"): string {
  if (typeof to !== "string" || !to) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    const url = new URL(to, "http://same.invalid");
    if (url.origin !== "http://same.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
