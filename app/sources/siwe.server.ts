import crypto from "node:crypto";
import bs58 from "bs58";
import { getAddress, verifyMessage } from "ethers";
import nacl from "tweetnacl";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";

/**
 * Wallet ownership proofs: a one-time sign-in message, EIP-4361 "Sign-In with Ethereum" for EVM
 * wallets and its Solana counterpart ("Sign In With Solana", the same text with "Solana account"),
 * stored in wallet_nonces and signed in the user's wallet. The server only ever verifies a
 * signature against the message it stored itself; a bare address proves nothing.
 */
export type WalletChain = "evm" | "solana";

export const SIGN_IN_STATEMENT = "Link this wallet to your Grader account. Signing proves you own it; it costs nothing and authorises no transaction.";

export type SignInFields = {
  domain: string;
  address: string;
  statement: string | null;
  uri: string;
  version: string;
  chainId: string;
  nonce: string;
  issuedAt: string;
  expirationTime: string | null;
};

const CHAIN_WORD: Record<WalletChain, string> = { evm: "Ethereum", solana: "Solana" };

export function buildSignInMessage(chain: WalletChain, f: Omit<SignInFields, "version"> & { version?: string }): string {
  const lines = [`${f.domain} wants you to sign in with your ${CHAIN_WORD[chain]} account:`, f.address, ""];
  if (f.statement) lines.push(f.statement, "");
  lines.push(`URI: ${f.uri}`, `Version: ${f.version ?? "1"}`, `Chain ID: ${f.chainId}`, `Nonce: ${f.nonce}`, `Issued At: ${f.issuedAt}`);
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`);
  return lines.join("\n");
}

/** Parses an EIP-4361 / SIWS message (the fields this site writes); null when it is not one. */
export function parseSignInMessage(chain: WalletChain, message: string): SignInFields | null {
  if (typeof message !== "string" || message.length > 4000) return null;
  const lines = message.split("\n");
  const head = new RegExp(`^(\\S+) wants you to sign in with your ${CHAIN_WORD[chain]} account:$`).exec(lines[0] ?? "");
  if (!head || !lines[1]) return null;
  const fields: Record<string, string> = {};
  let statement: string | null = null;
  let i = 2;
  if (lines[i] !== "") return null;
  i++;
  if (lines[i] !== undefined && !lines[i]!.startsWith("URI: ")) {
    statement = lines[i]!;
    i++;
    if (lines[i] !== "") return null;
    i++;
  }
  for (; i < lines.length; i++) {
    const m = /^([A-Za-z ]+): (.*)$/.exec(lines[i]!);
    if (!m) return null;
    fields[m[1]!] = m[2]!;
  }
  const required = ["URI", "Version", "Chain ID", "Nonce", "Issued At"];
  if (required.some((k) => !fields[k])) return null;
  return {
    domain: head[1]!,
    address: lines[1]!,
    statement,
    uri: fields["URI"]!,
    version: fields["Version"]!,
    chainId: fields["Chain ID"]!,
    nonce: fields["Nonce"]!,
    issuedAt: fields["Issued At"]!,
    expirationTime: fields["Expiration Time"] ?? null,
  };
}

// ---- addresses ---------------------------------------------------------------------------------

/**
 * An EVM address in its checksummed form. SPEC §5: the browser sends it without the 0x prefix, so
 * both "0xAbC…" and "AbC…" are accepted. Mixed case must carry a valid checksum. Null if invalid.
 */
export function normalizeEvmAddress(input: string): string | null {
  const raw = input.trim();
  const hex = /^0[xX]/.test(raw) ? raw.slice(2) : raw;
  if (!/^[0-9a-fA-F]{40}$/.test(hex)) return null;
  try {
    return getAddress(`0x${hex}`);
  } catch {
    return null;
  }
}

/** A Solana address (base58 of a 32-byte ed25519 public key), or null. */
export function normalizeSolanaAddress(input: string): string | null {
  const raw = input.trim();
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(raw)) return null;
  try {
    return bs58.decode(raw).length === 32 ? raw : null;
  } catch {
    return null;
  }
}

export function normalizeWalletAddress(chain: WalletChain, input: string): string | null {
  return chain === "evm" ? normalizeEvmAddress(input) : normalizeSolanaAddress(input);
}

export function walletFingerprint(chain: WalletChain, address: string): string {
  return `${chain}:${address}`;
}

// ---- signatures --------------------------------------------------------------------------------

/** personal_sign (EIP-191) signature by `address` of `message`. */
export function verifyEvmSignature(message: string, signature: string, address: string): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature.trim())) return false;
  try {
    return verifyMessage(message, signature.trim()) === getAddress(address);
  } catch {
    return false;
  }
}

/** ed25519 signature (base58, 64 bytes) by the public key `address` of the UTF-8 `message`. */
export function verifySolanaSignature(message: string, signature: string, address: string): boolean {
  try {
    const sig = bs58.decode(signature.trim());
    const key = bs58.decode(address);
    if (sig.length !== 64 || key.length !== 32) return false;
    return nacl.sign.detached.verify(new TextEncoder().encode(message), sig, key);
  } catch {
    return false;
  }
}

export function verifyWalletSignature(chain: WalletChain, message: string, signature: string, address: string): boolean {
  return chain === "evm" ? verifyEvmSignature(message, signature, address) : verifySolanaSignature(message, signature, address);
}

// ---- the site's expectations -------------------------------------------------------------------

export type SignInExpectations = { domain: string; uri: string; chainId: string };

/** Domain and URI come from PUBLIC_URL, never from the request's Host header. */
export function signInExpectations(chain: WalletChain): SignInExpectations {
  const env = getEnv();
  const url = new URL(env.PUBLIC_URL);
  return { domain: url.host, uri: url.origin, chainId: chain === "evm" ? String(env.EVM_CHAIN_ID) : "mainnet" };
}

export type StoredNonce = {
  nonce: string;
  user_id: number;
  chain: WalletChain;
  address: string;
  message: string;
  expires_at: Date;
  used_at: Date | null;
};

export type ProofCheck = { ok: true; fields: SignInFields } | { ok: false; message: string };

/**
 * The pure part of a proof check: the message is ours (domain, URI, chain), for this address, the
 * exact text we stored for this user's nonce, unused, unexpired, and signed by the address.
 * The caller then consumes the nonce atomically (a concurrent replay loses there).
 */
export function checkWalletProof(input: {
  chain: WalletChain;
  userId: number;
  address: string;
  message: string;
  signature: string;
  stored: StoredNonce | undefined;
  expected: SignInExpectations;
  now: Date;
}): ProofCheck {
  const { chain, expected } = input;
  const fields = parseSignInMessage(chain, input.message);
  if (!fields) return { ok: false, message: "The message is not a sign-in message from this site. Ask for a new one and sign it." };
  if (fields.domain !== expected.domain || fields.uri !== expected.uri) {
    return { ok: false, message: `The signed message is for another site (${fields.domain}), not ${expected.domain}. Nothing was linked.` };
  }
  if (fields.chainId !== expected.chainId) return { ok: false, message: `The signed message is for chain ${fields.chainId}; this site uses ${expected.chainId}.` };
  if (fields.address !== input.address) return { ok: false, message: "The signed message is for another wallet address." };
  const stored = input.stored;
  if (!stored || stored.user_id !== input.userId || stored.chain !== chain || stored.address !== input.address) {
    return { ok: false, message: "This sign-in message was not issued to you. Ask for a new one and sign it." };
  }
  if (stored.message !== input.message) return { ok: false, message: "The signed message differs from the one this site issued. Ask for a new one and sign it." };
  if (stored.used_at) return { ok: false, message: "This sign-in message was already used. Ask for a new one and sign it." };
  const expiry = fields.expirationTime ? Date.parse(fields.expirationTime) : NaN;
  if (stored.expires_at.getTime() <= input.now.getTime() || !(expiry > input.now.getTime())) {
    return { ok: false, message: "This sign-in message has expired. Ask for a new one and sign it." };
  }
  if (!verifyWalletSignature(chain, input.message, input.signature, input.address)) {
    return { ok: false, message: "The signature does not match this wallet. Sign the message with the wallet you are linking." };
  }
  return { ok: true, fields };
}

// ---- storage -----------------------------------------------------------------------------------

/** Issues and stores a single-use sign-in message for this user and address. */
export async function createSignInMessage(userId: number, chain: WalletChain, address: string): Promise<{ message: string; nonce: string; expiresAt: Date }> {
  const env = getEnv();
  const expected = signInExpectations(chain);
  const nonce = crypto.randomBytes(16).toString("hex");
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + env.WALLET_NONCE_TTL_SECONDS * 1000);
  const message = buildSignInMessage(chain, {
    domain: expected.domain,
    address,
    statement: SIGN_IN_STATEMENT,
    uri: expected.uri,
    chainId: expected.chainId,
    nonce,
    issuedAt: issuedAt.toISOString(),
    expirationTime: expiresAt.toISOString(),
  });
  const db = await getDb();
  // Old, long-expired messages of this user go first; the table stays small.
  await db.deleteFrom("wallet_nonces").where("user_id", "=", userId).where("expires_at", "<", new Date(Date.now() - 86_400_000)).execute();
  await db.insertInto("wallet_nonces").values({ nonce, user_id: userId, chain, address, message, expires_at: expiresAt }).execute();
  return { message, nonce, expiresAt };
}

export async function findSignInNonce(nonce: string): Promise<StoredNonce | undefined> {
  const db = await getDb();
  const row = await db.selectFrom("wallet_nonces").selectAll().where("nonce", "=", nonce).executeTakeFirst();
  if (!row) return undefined;
  return { ...row, chain: row.chain as WalletChain, expires_at: new Date(row.expires_at), used_at: row.used_at ? new Date(row.used_at) : null };
}

/** Marks the nonce used; false when it was used (or expired) meanwhile. One conditional UPDATE. */
export async function consumeSignInNonce(nonce: string, userId: number): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .updateTable("wallet_nonces")
    .set({ used_at: new Date() })
    .where("nonce", "=", nonce)
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .returning("nonce")
    .executeTakeFirst();
  return Boolean(row);
}
