import { hash, verify } from "@node-rs/argon2";

// argon2id (algorithm 2) with OWASP's minimum: 19 MiB memory, 2 iterations, 1 lane.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Passwords are hashed in Unicode NFC, so "é" typed as one code point (most keyboards) or as
 * e + combining accent (some macOS and mobile input) is the same password.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize("NFC"), OPTIONS);
}

async function matches(passwordHash: string, candidate: string): Promise<boolean> {
  try {
    return await verify(passwordHash, candidate);
  } catch {
    return false;
  }
}

/**
 * Whether `password` opens `passwordHash`. Hashes made before NFC normalisation hold the bytes as
 * typed: when the NFC form fails, the password as typed and its NFD form are tried, and a match
 * says `rehash` so the caller stores the NFC hash (the next sign-in takes the fast path).
 */
export async function checkPassword(passwordHash: string, password: string): Promise<{ ok: boolean; rehash: boolean }> {
  const nfc = password.normalize("NFC");
  if (await matches(passwordHash, nfc)) return { ok: true, rehash: false };
  for (const legacy of new Set([password, password.normalize("NFD")])) {
    if (legacy !== nfc && (await matches(passwordHash, legacy))) return { ok: true, rehash: true };
  }
  return { ok: false, rehash: false };
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return (await checkPassword(passwordHash, password)).ok;
}

// Verifying against this when the account does not exist keeps timing the same (no enumeration).
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword("not-a-real-password-for-timing");
  await verifyPassword(await dummy, password);
}
