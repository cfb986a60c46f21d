import type { Refusal } from "~/lib/refusal";
import { checkWalletProof, parseSignInMessage, walletFingerprint, type WalletChain } from "~/sources/siwe.server";
import { getDb } from "../platform/db.server";
import { MESSAGE_406 } from "./imports.server";
import type { LimitRefusal } from "./link-limits.server";
import { linkWallet } from "./linking.server";
import { consumeSignInNonce, contractWalletProvider, findSignInNonce, signInExpectations } from "./wallet-proof.server";

const WALLET_NAME: Record<WalletChain, string> = { evm: "MetaMask", solana: "Phantom" };

/** A wallet, a normalised address, and the signed sign-in message that proves its owner. */
export type WalletProof = { userId: number; chain: WalletChain; address: string; message: string; signature: string };

export type LinkedWallet = {
  ok: true;
  linkedAccountId: number;
  created: boolean;
  importId: number;
  fingerprint: string;
  label: string;
};

/**
 * Links a wallet its owner proved. Proof first (stored message, unused, unexpired, our domain,
 * real signature: a 400), then the 406 rule (a 409 with MESSAGE_406), then today's link limit (a 429),
 * then the link, whose import
 * runs as a job (linking.server.ts). The JSON API's glue is app/web/wallet-api.server.ts.
 */
export async function linkProvenWallet(
  proof: WalletProof,
): Promise<LinkedWallet | Refusal<400> | Refusal<409> | LimitRefusal> {
  const { userId, chain, address } = proof;

  // 1. The proof.
  const fields = parseSignInMessage(chain, proof.message);
  const stored = fields ? await findSignInNonce(fields.nonce) : undefined;
  const check = await checkWalletProof({
    chain,
    userId,
    address,
    message: proof.message,
    signature: proof.signature,
    stored,
    expected: signInExpectations(chain),
    now: new Date(),
    ...(chain === "evm" ? { provider: contractWalletProvider() } : {}),
  });
  if (!check.ok) return { ok: false, status: 400, message: check.message };
  if (!(await consumeSignInNonce(check.fields.nonce, userId)))
    return {
      ok: false,
      status: 400,
      message: "This sign-in message was already used or has expired. Ask for a new one and sign it.",
    };

  // 2. The 406 rule before any provider call (linkAccount enforces it again, atomically).
  const fingerprint = walletFingerprint(chain, address);
  const db = await getDb();
  const holder = await db
    .selectFrom("linked_accounts")
    .select(["id", "user_id"])
    .where("fingerprint", "=", fingerprint)
    .executeTakeFirst();
  if (holder && holder.user_id !== userId) return { ok: false, status: 409, message: MESSAGE_406 };

  // 3. Link, and start the import as a job in the same transaction: the answer comes at once
  // (status "importing"); GET /api/portal/imports shows the progress.
  const label = `${WALLET_NAME[chain]} ${address.slice(0, 6)}…${address.slice(-4)}`;
  const linked = await linkWallet({ userId, kind: chain, fingerprint, label, institutionName: WALLET_NAME[chain] });
  if (!linked.ok) return "status" in linked ? linked : { ok: false, status: 409, message: MESSAGE_406 };
  return {
    ok: true,
    linkedAccountId: linked.id,
    created: linked.created,
    importId: linked.importId,
    fingerprint,
    label,
  };
}
