import bs58 from "bs58";
import { getAddress, type Provider } from "ethers";
import { SiweMessage } from "siwe";
import nacl from "tweetnacl";

/**
 * Wallet ownership proofs (pure: no storage; app/server/wallet-proof.server.ts issues and stores
 * the messages): a one-time sign-in message, EIP-4361 "Sign-In with Ethereum" for EVM wallets,
 * written, parsed and verified by the `siwe` library (which also checks smart-contract wallets,
 * EIP-1271, through a provider), and its Solana counterpart ("Sign In With Solana": the same text
 * with "Solana account", which no maintained library parses; ed25519 through tweetnacl). The server
 * only ever verifies a signature against the message it stored itself; a bare address proves nothing.
 */
export type WalletChain = "evm" | "solana";

export const SIGN_IN_STATEMENT =
  "Link this wallet to your Grader account. Signing proves you own it; it costs nothing and authorises no transaction.";

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

export function buildSignInMessage(
  chain: WalletChain,
  f: Omit<SignInFields, "version"> & { version?: string },
): string {
  if (chain === "evm") {
    return new SiweMessage({
      domain: f.domain,
      address: f.address,
      statement: f.statement ?? undefined,
      uri: f.uri,
      version: f.version ?? "1",
      chainId: Number(f.chainId),
      nonce: f.nonce,
      issuedAt: f.issuedAt,
      expirationTime: f.expirationTime ?? undefined,
    }).prepareMessage();
  }
  const lines = [`${f.domain} wants you to sign in with your ${CHAIN_WORD[chain]} account:`, f.address, ""];
  if (f.statement) lines.push(f.statement, "");
  lines.push(
    `URI: ${f.uri}`,
    `Version: ${f.version ?? "1"}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
  );
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`);
  return lines.join("\n");
}

/** Parses an EIP-4361 (siwe's ABNF parser) / SIWS message; null when it is not one. */
export function parseSignInMessage(chain: WalletChain, message: string): SignInFields | null {
  if (typeof message !== "string" || message.length > 4000) return null;
  if (chain === "evm") {
    let m: SiweMessage;
    try {
      m = new SiweMessage(message);
    } catch {
      return null;
    }
    if (!m.issuedAt) return null;
    return {
      domain: m.domain,
      address: m.address,
      statement: m.statement ?? null,
      uri: m.uri,
      version: m.version,
      chainId: String(m.chainId),
      nonce: m.nonce,
      issuedAt: m.issuedAt,
      expirationTime: m.expirationTime ?? null,
    };
  }
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
 * An EVM address in its checksummed form. PRODUCT §5: the browser sends it without the 0x prefix, so
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

/**
 * An EVM proof through siwe: an EIP-191 signature by the address, or, when it does not recover to
 * the address, the address's EIP-1271 `isValidSignature` answer through `provider` (a Safe, a
 * Coinbase Smart Wallet). siwe also checks domain, nonce and expiry at `now` once more.
 */
async function verifyEvmSignature(
  message: string,
  signature: string,
  expected: { domain: string; nonce: string; now: Date },
  provider?: Provider,
): Promise<boolean> {
  const sig = signature.trim();
  if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(sig) || sig.length > 2 + 2 * 4096) return false;
  // Only a contract wallet signs with other than 65 bytes; without a provider to ask, it fails.
  if (sig.length !== 132 && !provider) return false;
  try {
    const result = await new SiweMessage(message).verify(
      { signature: sig, domain: expected.domain, nonce: expected.nonce, time: expected.now.toISOString() },
      // siwe's types name ethers v5's Provider; at run time it only builds a Contract on it (v6 works).
      { provider: provider as never, suppressExceptions: true },
    );
    return result.success;
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

// ---- the site's expectations -------------------------------------------------------------------

export type SignInExpectations = { domain: string; uri: string; chainId: string };

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
 * A proof check: the message is ours (domain, URI, chain), for this address, the
 * exact text we stored for this user's nonce, unused, unexpired, and signed by the address.
 * The caller then consumes the nonce atomically (a concurrent replay loses there).
 */
export async function checkWalletProof(input: {
  chain: WalletChain;
  userId: number;
  address: string;
  message: string;
  signature: string;
  stored: StoredNonce | undefined;
  expected: SignInExpectations;
  now: Date;
  /** Resolves smart-contract wallets (EIP-1271) on the message's chain; without one only EOAs prove. */
  provider?: Provider;
}): Promise<ProofCheck> {
  const { chain, expected } = input;
  const fields = parseSignInMessage(chain, input.message);
  if (!fields)
    return {
      ok: false,
      message: "The message is not a sign-in message from this site. Ask for a new one and sign it.",
    };
  if (fields.domain !== expected.domain || fields.uri !== expected.uri) {
    return {
      ok: false,
      message: `The signed message is for another site (${fields.domain}), not ${expected.domain}. Nothing was linked.`,
    };
  }
  if (fields.chainId !== expected.chainId)
    return {
      ok: false,
      message: `The signed message is for chain ${fields.chainId}; this site uses ${expected.chainId}.`,
    };
  if (fields.address !== input.address)
    return { ok: false, message: "The signed message is for another wallet address." };
  const stored = input.stored;
  if (!stored || stored.user_id !== input.userId || stored.chain !== chain || stored.address !== input.address) {
    return { ok: false, message: "This sign-in message was not issued to you. Ask for a new one and sign it." };
  }
  if (stored.message !== input.message)
    return {
      ok: false,
      message: "The signed message differs from the one this site issued. Ask for a new one and sign it.",
    };
  if (stored.used_at)
    return { ok: false, message: "This sign-in message was already used. Ask for a new one and sign it." };
  const expiry = fields.expirationTime ? Date.parse(fields.expirationTime) : NaN;
  if (stored.expires_at.getTime() <= input.now.getTime() || !(expiry > input.now.getTime())) {
    return { ok: false, message: "This sign-in message has expired. Ask for a new one and sign it." };
  }
  const signed =
    chain === "evm"
      ? await verifyEvmSignature(
          input.message,
          input.signature,
          { domain: expected.domain, nonce: fields.nonce, now: input.now },
          input.provider,
        )
      : verifySolanaSignature(input.message, input.signature, input.address);
  if (!signed) {
    return {
      ok: false,
      message: "The signature does not match this wallet. Sign the message with the wallet you are linking.",
    };
  }
  return { ok: true, fields };
}
