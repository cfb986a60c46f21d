import { describe, expect, it } from "vitest";
import { cspNonce } from "./csp-nonce.server";

describe("cspNonce", () => {
  it("gives 16 random bytes in base64, never the same twice across refills of its pool", () => {
    const nonces = Array.from({ length: 1000 }, () => cspNonce());
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(nonces.every((n) => /^[A-Za-z0-9+/]{22}==$/.test(n))).toBe(true);
    expect(new Set(nonces).size).toBe(1000);
  });
});
