export type DeviceClass = "watch" | "mobile" | "pad" | "pc";

// PRODUCT §5: watch ≤ 320, mobile ≤ 768, pad ≤ 1024, else pc.
export function deviceClassFromWidth(width: number): DeviceClass {
  if (width <= 320) return "watch";
  if (width <= 768) return "mobile";
  if (width <= 1024) return "pad";
  return "pc";
}

// PRODUCT §2: a viewport narrower than 768 px is the mobile layout.
export const MOBILE_BREAKPOINT = 768;
export function isMobileWidth(width: number): boolean {
  return width < MOBILE_BREAKPOINT;
}

/** Wallet options are desktop only (PRODUCT §2, §5). */
export function walletsAllowed(device: DeviceClass): boolean {
  return device === "pc";
}

// The server's first guess, corrected in the browser by the real width.
const MOBILE_UA = /Mobi|Android.+Mobile|iPhone|iPod|Windows Phone|BlackBerry|Opera Mini/i;
const PAD_UA = /iPad|Tablet|Android(?!.*Mobile)|Silk|Kindle/i;
export function deviceClassFromUserAgent(ua: string | null | undefined): DeviceClass {
  if (!ua) return "pc";
  if (/Watch/i.test(ua)) return "watch";
  if (MOBILE_UA.test(ua)) return "mobile";
  if (PAD_UA.test(ua)) return "pad";
  return "pc";
}

export function isMobileDevice(device: DeviceClass): boolean {
  return device === "watch" || device === "mobile";
}
