import crypto, { type KeyObject } from "node:crypto";
import { canonicalJson } from "~/grading";

// Signing and checking grade-log entries with node:crypto's Ed25519. Pure (no database): the
// server, `npm run verify-grade` and `npm run verify-log` share it, so "valid" means one thing.

export const GENESIS_HASH = "0".repeat(64);

/** One key of /.well-known/grader-keys.json: an OKP/Ed25519 JWK, valid for records graded in [nbf, exp]. */
export type PublishedKey = {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  kid: string;
  alg: "EdDSA";
  use: "sig";
  nbf: number;
  exp?: number;
};
export type KeySet = { keys: PublishedKey[] };

/** A log entry as the API and record.json carry it. */
export type LogEntry = {
  seq: number;
  hash: string;
  prev_hash: string;
  kid: string;
  signature: string;
  record: Record<string, unknown> & { seq?: unknown; prev_hash?: unknown; graded_at?: unknown };
};

export type Check = { ok: true } | { ok: false; reason: string };

/** An Ed25519 private key from a PKCS8 PEM or its DER in base64. */
export function parseSigningKey(raw: string): KeyObject {
  const text = raw.trim();
  const key = text.startsWith("-----BEGIN")
    ? crypto.createPrivateKey({ key: text, format: "pem" })
    : crypto.createPrivateKey({ key: Buffer.from(text, "base64"), format: "der", type: "pkcs8" });
  if (key.asymmetricKeyType !== "ed25519")
    throw new Error(`GRADE_SIGNING_KEY must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  return key;
}

export function publicJwk(privateKey: KeyObject): { kty: "OKP"; crv: "Ed25519"; x: string } {
  const jwk = crypto.createPublicKey(privateKey).export({ format: "jwk" });
  return { kty: "OKP", crv: "Ed25519", x: String(jwk.x) };
}

/** A key's id: the start of the SHA-256 of its public half (stable across restarts and replicas). */
export function kidOf(x: string): string {
  return `ed25519-${crypto.createHash("sha256").update(x).digest("base64url").slice(0, 16)}`;
}

export function signText(text: string, privateKey: KeyObject): string {
  return crypto.sign(null, Buffer.from(text, "utf8"), privateKey).toString("base64url");
}

/** The canonical JSON text a signature covers: the record alone, never its signature. */
export function recordText(record: unknown): string {
  return canonicalJson(record);
}

/** An entry's hash covers its record and signature; the next record carries it as prev_hash. */
export function entryHash(text: string, signature: string): string {
  return crypto.createHash("sha256").update(`${text}\n${signature}`).digest("hex");
}

/** Checks one entry on its own: key known and valid at grading time, signature, hash, position. */
export function checkEntry(entry: LogEntry, keys: KeySet): Check {
  if (!entry || typeof entry !== "object" || !entry.record || typeof entry.record !== "object")
    return { ok: false, reason: "not a grade record" };
  const key = keys.keys.find((k) => k.kid === entry.kid);
  if (!key) return { ok: false, reason: `unknown key ${entry.kid}` };
  const text = recordText(entry.record);
  let valid = false;
  try {
    const publicKey = crypto.createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x }, format: "jwk" });
    valid = crypto.verify(
      null,
      Buffer.from(text, "utf8"),
      publicKey,
      Buffer.from(String(entry.signature), "base64url"),
    );
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: "the signature does not match the record" };
  const graded = Date.parse(String(entry.record.graded_at)) / 1000;
  if (!Number.isFinite(graded) || graded < key.nbf - 60 || (key.exp !== undefined && graded > key.exp + 60))
    return { ok: false, reason: `graded outside key ${key.kid}'s validity` };
  if (entry.record.seq !== Number(entry.seq)) return { ok: false, reason: "the record's seq differs from the entry's" };
  if (entry.record.prev_hash !== entry.prev_hash)
    return { ok: false, reason: "the record's prev_hash differs from the entry's" };
  if (entryHash(text, entry.signature) !== entry.hash)
    return { ok: false, reason: "the entry's hash does not match its record and signature" };
  return { ok: true };
}

/**
 * Walks entries in order from `start` (the hash before the first one: GENESIS_HASH from seq 1).
 * A changed, deleted or inserted entry breaks a signature, a hash or the seq/prev_hash links.
 */
export function checkChain(
  entries: Iterable<LogEntry>,
  keys: KeySet,
  start = { seq: 0, hash: GENESIS_HASH },
): { ok: boolean; checked: number; head: { seq: number; hash: string }; failure?: { seq: number; reason: string } } {
  let head = start;
  let checked = 0;
  for (const entry of entries) {
    const seq = Number(entry.seq);
    if (seq !== head.seq + 1)
      return {
        ok: false,
        checked,
        head,
        failure: { seq, reason: `expected seq ${head.seq + 1}: an entry is missing or out of order` },
      };
    if (entry.prev_hash !== head.hash)
      return { ok: false, checked, head, failure: { seq, reason: "prev_hash is not the previous entry's hash" } };
    const check = checkEntry(entry, keys);
    if (!check.ok) return { ok: false, checked, head, failure: { seq, reason: check.reason } };
    head = { seq, hash: entry.hash };
    checked++;
  }
  return { ok: true, checked, head };
}
