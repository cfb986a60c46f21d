import { describe, expect, it } from "vitest";
import { deviceClassFromUserAgent, deviceClassFromWidth, isMobileWidth, walletsAllowed } from "./device-class";

describe("device class", () => {
  it("follows PRODUCT §5's widths", () => {
    expect(deviceClassFromWidth(320)).toBe("watch");
    expect(deviceClassFromWidth(321)).toBe("mobile");
    expect(deviceClassFromWidth(768)).toBe("mobile");
    expect(deviceClassFromWidth(769)).toBe("pad");
    expect(deviceClassFromWidth(1024)).toBe("pad");
    expect(deviceClassFromWidth(1025)).toBe("pc");
  });
  it("uses the mobile layout below 768 px", () => {
    expect(isMobileWidth(767)).toBe(true);
    expect(isMobileWidth(768)).toBe(false);
  });
  it("guesses from the user agent", () => {
    expect(deviceClassFromUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")).toBe(
      "mobile",
    );
    expect(deviceClassFromUserAgent("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)")).toBe("pad");
    expect(deviceClassFromUserAgent("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36")).toBe("mobile");
    expect(deviceClassFromUserAgent("Mozilla/5.0 (X11; Linux x86_64) Chrome/120")).toBe("pc");
    expect(deviceClassFromUserAgent(undefined)).toBe("pc");
  });
  it("allows wallets only on desktops", () => {
    expect(walletsAllowed("pc")).toBe(true);
    expect(walletsAllowed("pad")).toBe(false);
    expect(walletsAllowed("mobile")).toBe(false);
  });
});
