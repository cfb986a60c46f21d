import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";
import { log } from "./log.server";

// AES-256-GCM for provider secrets at rest. The key comes from ENCRYPTION_KEY (32 bytes, base64
// or hex); without it (demo mode) one is generated once and kept in DATA_DIR/encryption.key.
let cachedKey: Buffer | undefined;

function loadKey(): Buffer {
  if (cachedKey) return cachedKey;
  const env = getEnv();
  if (env.ENCRYPTION_KEY) {
    const raw = env.ENCRYPTION_KEY;
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
    if (key.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes (64 hex characters or 44 base64 characters)");
    return (cachedKey = key);
  }
  if (env.DATA_DIR === "memory://") {
    // One per process, on globalThis: server.ts (where the job workers run) and the Remix bundle
    // are separate module graphs that must decrypt each other's tokens.
    const g = globalThis as unknown as { __grader_memory_key?: Buffer };
    return (cachedKey = g.__grader_memory_key ??= crypto.randomBytes(32));
  }
  const file = path.resolve(env.DATA_DIR, "encryption.key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    log("info", "generated a demo encryption key", { file });
  }
  return (cachedKey = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64"));
}

/** "v1.<iv>.<tag>.<ciphertext>" (base64url parts). */
export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", loadKey(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not an encrypted secret");
  const decipher = crypto.createDecipheriv("aes-256-gcm", loadKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
