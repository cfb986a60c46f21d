/** True for 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (how Node reports 127.0.0.1 on a dual-stack socket). */
export function isLoopbackIp(ip: string): boolean {
  return /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/i.test(ip) || ip === "::1";
}

/** True when a URL points at this machine only (localhost, 127.x, [::1]). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host.endsWith(".localhost") || isLoopbackIp(host);
  } catch {
    return false;
  }
}
