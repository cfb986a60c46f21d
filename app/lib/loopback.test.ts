import { describe, expect, it } from "vitest";
import { isLoopbackIp, isLoopbackUrl } from "./loopback";

describe("loopback", () => {
  it("knows this machine's addresses and nothing else", () => {
    for (const ip of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackIp(ip), ip).toBe(true);
    for (const ip of [
      "10.0.0.1",
      "172.17.0.1",
      "192.168.1.5",
      "::ffff:10.0.0.1",
      "1.127.0.0",
      "unknown",
      "",
      "fe80::1",
    ])
      expect(isLoopbackIp(ip), ip).toBe(false);
  });
  it("knows local URLs", () => {
    for (const url of ["http://localhost:3000", "http://127.0.0.1:8080/x", "http://[::1]:3000", "http://app.localhost"])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ["https://grader.example", "http://localhost.evil.com", "http://10.0.0.2", "not a url"])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});
