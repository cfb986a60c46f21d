import bs58 from "bs58";
import { Wallet } from "ethers";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { DEMO_CONTRACT_WALLET, simulatedEthCall } from "../../test/mocks/evm";
import {
  buildSignInMessage,
  checkWalletProof,
  normalizeEvmAddress,
  normalizeSolanaAddress,
  parseSignInMessage,
  type StoredNonce,
  type WalletChain,
} from "./siwe.server";

const expected = { domain: "grader.example", uri: "https://grader.example", chainId: "1" };
const now = new Date("2026-01-01T12:00:00.000Z");

function issue(chain: WalletChain, address: string, over: Partial<StoredNonce> = {}, domain = expected.domain) {
  const message = buildSignInMessage(chain, {
    domain,
    address,
    statement: "Link this wallet.",
    uri: `https://${domain}`,
    chainId: chain === "evm" ? "1" : "mainnet",
    nonce: "abcdef0123456789",
    issuedAt: "2026-01-01T11:55:00.000Z",
    expirationTime: "2026-01-01T12:05:00.000Z",
  });
  const stored: StoredNonce = {
    nonce: "abcdef0123456789",
    user_id: 7,
    chain,
    address,
    message,
    expires_at: new Date("2026-01-01T12:05:00.000Z"),
    used_at: null,
    ...over,
  };
  return { message, stored };
}

describe("sign-in messages", () => {
  it("round-trips the EIP-4361 fields", () => {
    const { message } = issue("evm", "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf");
    expect(message.split("\n")[0]).toBe("grader.example wants you to sign in with your Ethereum account:");
    expect(parseSignInMessage("evm", message)).toMatchObject({
      domain: "grader.example",
      nonce: "abcdef0123456789",
      chainId: "1",
      version: "1",
      statement: "Link this wallet.",
      expirationTime: "2026-01-01T12:05:00.000Z",
    });
    expect(parseSignInMessage("solana", message)).toBeNull();
    expect(parseSignInMessage("evm", "hello")).toBeNull();
  });

  it("accepts EVM addresses with or without 0x (PRODUCT §5) and rejects bad checksums", () => {
    const a = "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf";
    expect(normalizeEvmAddress(a.slice(2))).toBe(a);
    expect(normalizeEvmAddress(a.toLowerCase())).toBe(a);
    expect(normalizeEvmAddress(a.slice(2).toLowerCase())).toBe(a);
    expect(normalizeEvmAddress("0x7e5F4552091A69125d5DfCb7b8C2659029395Bdf")).toBeNull();
    expect(normalizeEvmAddress("0x1234")).toBeNull();
    expect(normalizeSolanaAddress(bs58.encode(new Uint8Array(32).fill(9)))).not.toBeNull();
    expect(normalizeSolanaAddress("0OIl")).toBeNull();
  });
});

describe("checkWalletProof", () => {
  it("accepts a real EVM signature and refuses everything else", async () => {
    const wallet = Wallet.createRandom();
    const { message, stored } = issue("evm", wallet.address);
    const signature = await wallet.signMessage(message);
    const base = {
      chain: "evm" as const,
      userId: 7,
      address: wallet.address,
      message,
      signature,
      stored,
      expected,
      now,
    };
    expect((await checkWalletProof(base)).ok).toBe(true);
    const fail = async (over: Partial<typeof base>) => {
      const r = await checkWalletProof({ ...base, ...over });
      return r.ok ? "ok" : r.message;
    };
    expect(await fail({ signature: await Wallet.createRandom().signMessage(message) })).toMatch(
      /signature does not match/,
    );
    expect(await fail({ signature: "0x1234" })).toMatch(/signature does not match/);
    expect(await fail({ stored: { ...stored, used_at: now } })).toMatch(/already used/);
    expect(await fail({ now: new Date("2026-01-01T12:05:00.000Z") })).toMatch(/expired/);
    expect(await fail({ stored: { ...stored, expires_at: new Date("2026-01-01T11:59:00.000Z") } })).toMatch(/expired/);
    expect(await fail({ stored: undefined })).toMatch(/not issued to you/);
    expect(await fail({ userId: 8 })).toMatch(/not issued to you/);
    expect(await fail({ expected: { ...expected, domain: "other.example" } })).toMatch(/another site/);
    const foreign = issue("evm", wallet.address, {}, "evil.example");
    expect(await fail({ message: foreign.message, signature: await wallet.signMessage(foreign.message) })).toMatch(
      /another site \(evil\.example\)/,
    );
    expect(await fail({ stored: { ...stored, message: `${message} ` } })).toMatch(/differs/);
  });

  it("accepts a real ed25519 signature over the stored text only", async () => {
    const keys = nacl.sign.keyPair();
    const address = bs58.encode(keys.publicKey);
    const { message, stored } = issue("solana", address);
    const sign = (m: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(m), keys.secretKey));
    const base = {
      chain: "solana" as const,
      userId: 7,
      address,
      message,
      signature: sign(message),
      stored,
      expected: { ...expected, chainId: "mainnet" },
      now,
    };
    expect((await checkWalletProof(base)).ok).toBe(true);
    const other = nacl.sign.keyPair();
    expect(
      (
        await checkWalletProof({
          ...base,
          signature: bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), other.secretKey)),
        })
      ).ok,
    ).toBe(false);
    expect((await checkWalletProof({ ...base, signature: "notbase58!!" })).ok).toBe(false);
  });
});

describe("smart-contract wallets (EIP-1271)", () => {
  it("accepts the owner's signature through the wallet's isValidSignature, and nothing else", async () => {
    const owner = new Wallet(DEMO_CONTRACT_WALLET.ownerKey);
    const { message, stored } = issue("evm", DEMO_CONTRACT_WALLET.address);
    // An ethers contract runner that answers eth_call like the explorer simulator does.
    const calls: string[] = [];
    const provider = {
      provider: null,
      call: async (tx: { to: string; data: string }) => {
        calls.push(tx.to);
        return simulatedEthCall(tx.to, tx.data);
      },
    } as never;
    const base = {
      chain: "evm" as const,
      userId: 7,
      address: DEMO_CONTRACT_WALLET.address,
      message,
      signature: await owner.signMessage(message),
      stored,
      expected,
      now,
      provider,
    };
    expect(await checkWalletProof(base)).toMatchObject({ ok: true });
    expect(calls).toEqual([DEMO_CONTRACT_WALLET.address]);
    const stranger = await Wallet.createRandom().signMessage(message);
    expect(await checkWalletProof({ ...base, signature: stranger })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/signature does not match/),
    });
    // Without a provider a contract wallet cannot prove anything.
    expect(await checkWalletProof({ ...base, provider: undefined })).toMatchObject({ ok: false });
  });
});
