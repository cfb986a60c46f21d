import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/api.server";
import { getDb } from "~/server/db.server";
import { linkAccount, markImportFailed, saveImport, SPEC_406_MESSAGE, unlinkAccount } from "~/server/imports.server";
import { log } from "~/server/log.server";
import { fetchEvmHistory, isEvmDemo, type WalletHistory } from "./evm.server";
import {
  checkWalletProof,
  consumeSignInNonce,
  createSignInMessage,
  findSignInNonce,
  normalizeWalletAddress,
  parseSignInMessage,
  signInExpectations,
  walletFingerprint,
  type WalletChain,
} from "./siwe.server";
import { fetchSolanaHistory, isSolanaDemo } from "./solana.server";
import { WalletProviderError } from "./wallet-errors";

/**
 * The wallet calls of the JSON API (docs/API.md), shared by EVM and Solana:
 *   POST /api/<chain>/nonce  { wallet_address }                       → { message }
 *   POST /api/<chain>/wallet { wallet_address, message, signature }   → the linked account
 * Proof first (stored message, unused, unexpired, our domain, real signature), then the 406 rule,
 * then the history is read; only a complete history is linked and saved. A provider failure links
 * nothing (or, for a wallet linked before, leaves its ledger as it was and records the error).
 */
const WALLET_NAME: Record<WalletChain, string> = { evm: "MetaMask", solana: "Phantom" };
const ADDRESS_HINT: Record<WalletChain, string> = {
  evm: "an Ethereum address: 40 hexadecimal characters, with or without 0x",
  solana: "a Solana address (base58)",
};

const NonceBody = z.object({ wallet_address: z.string({ required_error: "Required." }).min(1, "Required.").max(100) });
const WalletBody = z.object({
  wallet_address: z.string({ required_error: "Required." }).min(1, "Required.").max(100),
  message: z.string().max(4000).optional(),
  signature: z.string().max(400).optional(),
});

export const PROOF_REQUIRED_MESSAGE =
  "A wallet is linked by proving you own it: ask POST /api/{chain}/nonce for a sign-in message, sign it in your wallet, then send wallet_address, message and signature. An address alone is not accepted.";

function addressOr400(chain: WalletChain, input: string): string {
  const address = normalizeWalletAddress(chain, input);
  if (!address) throw apiError(400, `wallet_address: not ${ADDRESS_HINT[chain]}.`, { wallet_address: `Not ${ADDRESS_HINT[chain]}.` });
  return address;
}

/** The 406 answer: HTTP 409 with SPEC's message and code 406. */
export function conflict406() {
  return json({ error: { message: SPEC_406_MESSAGE }, code: 406 }, { status: 409 });
}

function historyReader(chain: WalletChain): (address: string) => Promise<WalletHistory> {
  return chain === "evm" ? fetchEvmHistory : fetchSolanaHistory;
}

export function isWalletDemo(chain: WalletChain): boolean {
  return chain === "evm" ? isEvmDemo() : isSolanaDemo();
}

export function walletNonceAction(chain: WalletChain) {
  return async function action({ request }: ActionFunctionArgs) {
    requireMethod(request, "POST");
    const user = await requireApiUser(request);
    const body = await readBody(request, NonceBody);
    const address = addressOr400(chain, body.wallet_address);
    const issued = await createSignInMessage(user.id, chain, address);
    return apiData({ message: issued.message, nonce: issued.nonce, expires_at: issued.expiresAt.toISOString() }, { headers: { "Cache-Control": "no-store" } });
  };
}

export function walletLinkAction(chain: WalletChain) {
  return async function action({ request }: ActionFunctionArgs) {
    requireMethod(request, "POST");
    const user = await requireApiUser(request);
    const body = await readBody(request, WalletBody);
    const address = addressOr400(chain, body.wallet_address);
    if (!body.message || !body.signature) {
      return apiError(400, PROOF_REQUIRED_MESSAGE.replace("{chain}", chain), {
        ...(body.message ? {} : { message: "Required: the sign-in message you signed." }),
        ...(body.signature ? {} : { signature: "Required: the wallet's signature of the message." }),
      });
    }

    // 1. The proof.
    const fields = parseSignInMessage(chain, body.message);
    const stored = fields ? await findSignInNonce(fields.nonce) : undefined;
    const check = checkWalletProof({ chain, userId: user.id, address, message: body.message, signature: body.signature, stored, expected: signInExpectations(chain), now: new Date() });
    if (!check.ok) return apiError(400, check.message);
    if (!(await consumeSignInNonce(check.fields.nonce, user.id))) return apiError(400, "This sign-in message was already used or has expired. Ask for a new one and sign it.");

    // 2. The 406 rule before any provider call (linkAccount enforces it again, atomically).
    const fingerprint = walletFingerprint(chain, address);
    const db = await getDb();
    const holder = await db.selectFrom("linked_accounts").select(["id", "user_id"]).where("fingerprint", "=", fingerprint).executeTakeFirst();
    if (holder && holder.user_id !== user.id) return conflict406();

    // 3. The history, complete, before anything is written.
    let history: WalletHistory;
    try {
      history = await historyReader(chain)(address);
    } catch (error) {
      const message = error instanceof WalletProviderError ? error.message : "The wallet's history could not be read.";
      log("error", "wallet history failed", { chain, error: String((error as Error)?.message ?? error) });
      if (holder) await markImportFailed(holder.id, message);
      return apiError(502, `${message} ${holder ? "Your wallet's earlier history is unchanged." : "Nothing was linked."} Please try again shortly.`);
    }

    // 4. Link and save: the account and its history together, or neither.
    const label = `${WALLET_NAME[chain]} ${address.slice(0, 6)}…${address.slice(-4)}`;
    const linked = await linkAccount({ userId: user.id, kind: chain, fingerprint, label, institutionName: WALLET_NAME[chain] });
    if (!linked.ok) return conflict406();
    let result;
    try {
      result = await saveImport(linked.id, history.batch);
    } catch (error) {
      log("error", "wallet import failed", { chain, error: String(error) });
      if (linked.created) await unlinkAccount(user.id, linked.id);
      else await markImportFailed(linked.id, "The import could not be saved.");
      return apiError(500, "The wallet's history could not be saved. Nothing was changed; please try again.");
    }
    const buys = history.batch.trades.filter((t) => t.side === "buy").length;
    return apiData(
      {
        linked_account_id: linked.id,
        kind: chain,
        wallet_address: address,
        fingerprint,
        label,
        created: linked.created,
        demo: isWalletDemo(chain),
        trades_found: history.batch.trades.length,
        buys,
        sells: history.batch.trades.length - buys,
        trades_added: result.tradesAdded,
        swaps_skipped: history.swapsSkipped,
        warnings: history.warnings.slice(0, 20),
      },
      { status: linked.created ? 201 : 200 },
    );
  };
}
