import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./crypto.server";
import { parseEnv, setEnv } from "./env.server";

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

describe("key rotation", () => {
  const OLD = "11".repeat(32);
  const NEW = "22".repeat(32);
  const useKeys = (current: string, previous = "") => {
    // getEnv() is parsed once per process; a fresh object per case.
    setEnv(
      parseEnv({
        ...process.env,
        ENCRYPTION_KEY: current,
        ENCRYPTION_KEY_PREVIOUS: previous,
      }),
    );
  };
  afterEach(() => setEnv(undefined));

  it("reads a secret sealed with the previous key after rotation, and seals new ones with the new key", () => {
    useKeys(OLD);
    const sealedOld = encryptSecret("access-old");
    useKeys(NEW, OLD);
    expect(decryptSecret(sealedOld)).toBe("access-old");
    const sealedNew = encryptSecret("access-new");
    // Without the old key the new one alone reads only the new secret.
    useKeys(NEW);
    expect(decryptSecret(sealedNew)).toBe("access-new");
    expect(() => decryptSecret(sealedOld)).toThrow();
  });

  it("names the variable and how to make a key when one is malformed", () => {
    useKeys("not-a-key");
    expect(() => encryptSecret("x")).toThrow(/ENCRYPTION_KEY must be 32 bytes.*openssl rand -hex 32/);
    useKeys(NEW, "short");
    expect(() => encryptSecret("x")).toThrow(/ENCRYPTION_KEY_PREVIOUS/);
  });
});
