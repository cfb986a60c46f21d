import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./crypto.server";

process.env.DATA_DIR = "memory://";

describe("encryptSecret", () => {
  it("round-trips and never repeats a ciphertext", () => {
    const a = encryptSecret("access-sandbox-123");
    const b = encryptSecret("access-sandbox-123");
    expect(a).not.toBe(b);
    expect(a).not.toContain("access-sandbox");
    expect(decryptSecret(a)).toBe("access-sandbox-123");
  });
  it("refuses a tampered ciphertext", () => {
    const sealed = encryptSecret("secret");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other!").toString("base64url");
    expect(() => decryptSecret(parts.join("."))).toThrow();
  });
});
