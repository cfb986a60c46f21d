// CSRF defence for every state-changing request: browsers always send Origin on cross-site
// POSTs, and Sec-Fetch-Site tells us outright. Non-browser clients (curl, the JSON API with a
// bearer token) send neither and are let through; they carry no ambient cookie authority anyway
// unless they copied the cookie themselves.
export const ORIGIN_EXEMPT_PATHS = new Set([
  "/api/stripe/webhook",
  "/api/finance/plaid/webhook",
  // Apple posts its sign-in answer cross-site (response_mode=form_post); state is checked instead.
  "/oauth/apple-callback",
  "/api/user/oauth/apple-callback",
]);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type OriginCheckInput = {
  method: string;
  path: string;
  origin: string | undefined;
  /** Only consulted without Origin: a foreign Referer is as telling (older browsers, some proxies). */
  referer?: string | undefined;
  secFetchSite: string | undefined;
  host: string | undefined;
  protocol: string;
};

export function isForeignOriginRequest(input: OriginCheckInput, trusted: string[]): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return false;
  if (ORIGIN_EXEMPT_PATHS.has(input.path)) return false;
  // Browsers set Sec-Fetch-Site themselves; pages cannot forge it.
  if (input.secFetchSite === "same-origin") return false;
  if (input.secFetchSite === "cross-site") return true;
  const claimed = input.origin ?? input.referer;
  if (claimed === undefined || claimed === "") return false;
  if (claimed === "null") return true;
  const own = input.host ? `${input.protocol}://${input.host}` : undefined;
  if (own && sameOrigin(claimed, own)) return false;
  return !trusted.some((t) => sameOrigin(claimed, t));
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
