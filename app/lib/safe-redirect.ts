// Characters no return path needs and browsers or proxies treat specially: controls (C0, DEL, C1;
// URL parsers drop tabs and newlines, so "/\t/x" reads as "//x"), backslashes (read as "/"), and
// line and paragraph separators.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\\\u2028\u2029]/;
const BASE = "http://same.invalid";
const MAX_LENGTH = 2048;

// A same-origin path: one leading "/", never "//" (another host, scheme-relative).
function isLocalPath(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !UNSAFE_CHARS.test(path);
}

// What a browser would follow: the URL's own normalisation ("/./", "..", "%2e") applied.
function normalise(path: string): string | null {
  try {
    const url = new URL(path, BASE);
    if (url.origin !== BASE) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

// Percent-decoded until it stops changing (bounded): "%252F" is "%2F" once a proxy decodes it.
function fullyDecoded(path: string): string | null {
  let current = path;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current; // a stray "%" decodes no further, here or anywhere
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/**
 * Only same-site relative paths are followed: "/profile?x=1" yes; anything that names another origin
 * in any spelling ("//x", "/.//x", "/\\x", "%2F%2Fx", "/%2e/", tabs, "/a/..//x", "https://…",
 * "javascript:…") falls back. The value returned is the normalised one, and it is the one checked:
 * checking the raw string and returning a normalised URL let "/.//evil" become "//evil". The decoded
 * spelling is checked too, so a proxy or client that decodes once more cannot find a host in it.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/community"): string {
  if (typeof to !== "string" || !to || to.length > MAX_LENGTH || !isLocalPath(to)) return fallback;
  const target = normalise(to);
  if (target === null || !isLocalPath(target)) return fallback;
  const decoded = fullyDecoded(target);
  if (decoded === null || !isLocalPath(decoded)) return fallback;
  const decodedTarget = normalise(decoded);
  if (decodedTarget === null || !isLocalPath(decodedTarget)) return fallback;
  // Normalising again must change nothing: the browser resolves the Location we send the same way.
  if (normalise(target) !== target) return fallback;
  return target;
}
