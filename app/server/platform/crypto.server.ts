import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getDb } from "./db.server";
import { getEnv, type Env } from "./env.server";
import { log } from "./log.server";

// AES-256-GCM for provider secrets at rest. The key comes from ENCRYPTION_KEY (32 bytes, base64
// or hex; required with DATABASE_URL); without it (PGlite demo) one is generated once and kept in
// DATA_DIR/encryption.key. Rotation: the new key in ENCRYPTION_KEY, the old ones in
// ENCRYPTION_KEY_PREVIOUS; new secrets use the new key, and a secret sealed with an old key is
// still read (GCM's tag tells which key fits), see docs/OPERATIONS.md.
let cached: { env: Env; keys: Buffer[] } | undefined;
let memoryKey: Buffer | undefined;

export function parseKey(raw: string, name = "ENCRYPTION_KEY"): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32)
    throw new Error(
      `${name} must be 32 bytes (64 hex characters or 44 base64 characters); make one with \`openssl rand -hex 32\``,
    );
  return key;
}

function demoKey(env: Env): Buffer {
  // One per process: the routes and the job workers decrypt each other's tokens.
  if (env.DATA_DIR === "memory://") return (memoryKey ??= crypto.randomBytes(32));
  const file = path.resolve(env.DATA_DIR, "encryption.key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    log("info", "generated a demo encryption key", { file });
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
}

/** The current key first, then the previous ones. */
function loadKeys(): Buffer[] {
  const env = getEnv();
  if (cached?.env === env) return cached.keys;
  const current = env.ENCRYPTION_KEY ? parseKey(env.ENCRYPTION_KEY) : demoKey(env);
  const previous = env.ENCRYPTION_KEY_PREVIOUS.split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((raw) => parseKey(raw, "ENCRYPTION_KEY_PREVIOUS"));
  cached = { env, keys: [current, ...previous] };
  return cached.keys;
}

/** "v1.<iv>.<tag>.<ciphertext>" (base64url parts). */
export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", loadKeys()[0], iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(
    ".",
  );
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not an encrypted secret");
  let failure: unknown;
  for (const key of loadKeys()) {
    try {
      const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** A key for one purpose (HMAC), derived from the current encryption key: shared by every replica. */
export function derivedKey(purpose: string): Buffer {
  return crypto.createHmac("sha256", loadKeys()[0]).update(`grader:${purpose}`).digest();
}

/**
 * HMAC-SHA256 of `value` under a key derived from each encryption key (current first): a
 * pseudonym that only this server can recompute. Every key is tried when matching, so a
 * rotation does not forget earlier hashes.
 */
export function keyedHashes(purpose: string, value: string): string[] {
  return loadKeys().map((key) =>
    crypto
      .createHmac("sha256", crypto.createHmac("sha256", key).update(`grader:${purpose}`).digest())
      .update(value)
      .digest("hex"),
  );
}

/**
 * Whether the keys open the secrets every grade and push needs: the grade log's signing key and the
 * Web Push key pair, each sealed once for the whole deployment. Started with another key, every
 * grade would fail, retried and unexplained; so start-up refuses instead, naming the variables.
 * A provider token sealed with a dropped key is not checked: only its account needs relinking.
 */
export async function sealedSecretsProblem(): Promise<string | null> {
  const db = await getDb();
  const [signing, vapid] = await Promise.all([
    db
      .selectFrom("grade_signing_keys")
      .select("private_sealed")
      .where("private_sealed", "is not", null)
      .where("retired_at", "is", null)
      .orderBy("not_before", "desc")
      .executeTakeFirst(),
    db.selectFrom("vapid_keys").select("private_sealed").executeTakeFirst(),
  ]);
  const sealed: [string, string | null | undefined][] = [
    ["the grade log's signing key", signing?.private_sealed],
    ["the Web Push key", vapid?.private_sealed],
  ];
  const closed = sealed.filter(([, s]) => {
    if (!s) return false;
    try {
      decryptSecret(s);
      return false;
    } catch {
      return true;
    }
  });
  if (!closed.length) return null;
  return (
    `ENCRYPTION_KEY does not open the secrets this database holds (${closed.map(([what]) => what).join(", ")}): ` +
    "start with the key it was set up with, or name that key in ENCRYPTION_KEY_PREVIOUS during a rotation (docs/OPERATIONS.md)"
  );
}
