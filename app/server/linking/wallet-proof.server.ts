import crypto from "node:crypto";
import { EtherscanProvider, Network, type Provider } from "ethers";
import {
  buildSignInMessage,
  SIGN_IN_STATEMENT,
  type SignInExpectations,
  type StoredNonce,
  type WalletChain,
} from "~/sources/siwe.server";
import { DEMO_EVM_EXPLORER_URL } from "~/sources/wallet-demo";
import { getDb } from "../platform/db.server";
import { getEnv } from "../platform/env.server";

/**
 * The stored side of wallet proofs: single-use sign-in messages in wallet_nonces, the site's
 * expectations, and the provider that resolves smart-contract wallets (EIP-1271).
 */

// The chain in the Sign-In with Ethereum message: where a contract wallet's isValidSignature is
// asked. The wallet's history is then read on every supported chain (app/sources/evm-chains.ts).
export const SIWE_CHAIN_ID = 1;

/** Domain and URI come from PUBLIC_URL, never from the request's Host header. */
export function signInExpectations(chain: WalletChain): SignInExpectations {
  const url = new URL(getEnv().PUBLIC_URL);
  return { domain: url.host, uri: url.origin, chainId: chain === "evm" ? String(SIWE_CHAIN_ID) : "mainnet" };
}

/**
 * ethers' Etherscan provider on the configured explorer (Etherscan API v2: module=proxy,
 * action=eth_call), so the key that reads histories also resolves contract wallets; in demo mode
 * the explorer simulator answers. ethers hard-codes api.etherscan.io, hence the two URL overrides.
 */
class ExplorerProvider extends EtherscanProvider {
  constructor(
    private readonly base: string,
    chainId: number,
    apiKey: string | undefined,
  ) {
    super(Network.from(chainId), apiKey);
  }
  override getUrl(module: string, params: Record<string, string>): string {
    const url = new URL(this.base);
    url.searchParams.set("chainid", String(this.network.chainId));
    url.searchParams.set("module", module);
    for (const [k, v] of Object.entries(params)) if (v != null) url.searchParams.set(k, v);
    if (this.apiKey) url.searchParams.set("apikey", this.apiKey);
    return url.toString();
  }
  override getPostUrl(): string {
    const url = new URL(this.base);
    url.searchParams.set("chainid", String(this.network.chainId));
    return url.toString();
  }
}

export function contractWalletProvider(): Provider {
  const env = getEnv();
  return new ExplorerProvider(env.EVM_EXPLORER_URL ?? DEMO_EVM_EXPLORER_URL, SIWE_CHAIN_ID, env.EVM_EXPLORER_KEY);
}

/** Issues and stores a single-use sign-in message for this user and address. */
export async function createSignInMessage(
  userId: number,
  chain: WalletChain,
  address: string,
): Promise<{ message: string; nonce: string; expiresAt: Date }> {
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
  await db
    .deleteFrom("wallet_nonces")
    .where("user_id", "=", userId)
    .where("expires_at", "<", new Date(Date.now() - 86_400_000))
    .execute();
  await db
    .insertInto("wallet_nonces")
    .values({ nonce, user_id: userId, chain, address, message, expires_at: expiresAt })
    .execute();
  return { message, nonce, expiresAt };
}

export async function findSignInNonce(nonce: string): Promise<StoredNonce | undefined> {
  const db = await getDb();
  const row = await db.selectFrom("wallet_nonces").selectAll().where("nonce", "=", nonce).executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    chain: row.chain as WalletChain,
    expires_at: new Date(row.expires_at),
    used_at: row.used_at ? new Date(row.used_at) : null,
  };
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
