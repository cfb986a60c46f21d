import { json, type ActionFunctionArgs } from "@remix-run/node";
import {
  checkWalletProof,
  normalizeWalletAddress,
  parseSignInMessage,
  walletFingerprint,
  type WalletChain,
} from "~/sources/siwe.server";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "../http/api.server";
import { WalletLinkBody, WalletNonceBody } from "../http/api-schemas.server";
import { getDb } from "../platform/db.server";
import { isSimulated } from "../platform/demo.server";
import { MESSAGE_406 } from "./imports.server";
import { linkWallet } from "./linking.server";
import {
  consumeSignInNonce,
  contractWalletProvider,
  createSignInMessage,
  findSignInNonce,
  signInExpectations,
} from "./wallet-proof.server";

/**
 * The wallet calls of the JSON API (docs/API.md), shared by EVM and Solana:
 *   POST /api/<chain>/nonce  { wallet_address }                       → { message }
 *   POST /api/<chain>/wallet { wallet_address, message, signature }   → the linked account
 * Proof first (stored message, unused, unexpired, our domain, real signature), then the 406 rule,
 * then today's link limit (429), then the wallet is linked and its import runs as a job
 * (app/server/linking.server.ts).
 */
const WALLET_NAME: Record<WalletChain, string> = { evm: "MetaMask", solana: "Phantom" };
const ADDRESS_HINT: Record<WalletChain, string> = {
  evm: "an Ethereum address: 40 hexadecimal characters, with or without 0x",
  solana: "a Solana address (base58)",
};

export const PROOF_REQUIRED_MESSAGE =
  "A wallet is linked by proving you own it: ask POST /api/{chain}/nonce for a sign-in message, sign it in your wallet, then send wallet_address, message and signature. An address alone is not accepted.";

function addressOr400(chain: WalletChain, input: string): string {
  const address = normalizeWalletAddress(chain, input);
  if (!address)
    throw apiError(400, `wallet_address: not ${ADDRESS_HINT[chain]}.`, {
      wallet_address: `Not ${ADDRESS_HINT[chain]}.`,
    });
  return address;
}

/** The 406 answer: HTTP 409 with the product's message and code 406. */
export function conflict406() {
  return json({ error: { message: MESSAGE_406 }, code: 406 }, { status: 409 });
}

export function walletNonceAction(chain: WalletChain) {
  return async function action({ request }: ActionFunctionArgs) {
    requireMethod(request, "POST");
    const user = await requireApiUser(request);
    const body = await readBody(request, WalletNonceBody);
    const address = addressOr400(chain, body.wallet_address);
    const issued = await createSignInMessage(user.id, chain, address);
    return apiData(
      { message: issued.message, nonce: issued.nonce, expires_at: issued.expiresAt.toISOString() },
      { headers: { "Cache-Control": "no-store" } },
    );
  };
}

export function walletLinkAction(chain: WalletChain) {
  return async function action({ request }: ActionFunctionArgs) {
    requireMethod(request, "POST");
    const user = await requireApiUser(request);
    const body = await readBody(request, WalletLinkBody);
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
    const check = await checkWalletProof({
      chain,
      userId: user.id,
      address,
      message: body.message,
      signature: body.signature,
      stored,
      expected: signInExpectations(chain),
      now: new Date(),
      ...(chain === "evm" ? { provider: contractWalletProvider() } : {}),
    });
    if (!check.ok) return apiError(400, check.message);
    if (!(await consumeSignInNonce(check.fields.nonce, user.id)))
      return apiError(400, "This sign-in message was already used or has expired. Ask for a new one and sign it.");

    // 2. The 406 rule before any provider call (linkAccount enforces it again, atomically).
    const fingerprint = walletFingerprint(chain, address);
    const db = await getDb();
    const holder = await db
      .selectFrom("linked_accounts")
      .select(["id", "user_id"])
      .where("fingerprint", "=", fingerprint)
      .executeTakeFirst();
    if (holder && holder.user_id !== user.id) return conflict406();

    // 3. Link, and start the import as a job in the same transaction: the answer comes at once
    // (status "importing"); GET /api/portal/imports shows the progress.
    const label = `${WALLET_NAME[chain]} ${address.slice(0, 6)}…${address.slice(-4)}`;
    const linked = await linkWallet({
      userId: user.id,
      kind: chain,
      fingerprint,
      label,
      institutionName: WALLET_NAME[chain],
    });
    if (!linked.ok && "status" in linked)
      return apiError(linked.status, linked.message, undefined, { "Retry-After": String(linked.retryAfter) });
    if (!linked.ok) return conflict406();
    return apiData(
      {
        linked_account_id: linked.id,
        kind: chain,
        wallet_address: address,
        fingerprint,
        label,
        created: linked.created,
        demo: isSimulated(chain),
        status: "importing",
        import_id: linked.importId,
      },
      { status: linked.created ? 201 : 200 },
    );
  };
}
