import { json, type ActionFunctionArgs } from "@remix-run/node";
import type { Refusal } from "~/lib/refusal";
import { normalizeWalletAddress, type WalletChain } from "~/sources/siwe.server";
import { apiData, apiError, readBody, requireApiUser, requireMethod } from "~/server/http/api.server";
import { WalletLinkBody, WalletNonceBody } from "~/server/http/api-schemas.server";
import { isSimulated } from "~/server/platform/demo.server";
import { linkProvenWallet } from "~/server/linking/wallet-link.server";
import { createSignInMessage } from "~/server/linking/wallet-proof.server";

/**
 * The wallet calls of the JSON API (docs/API.md), shared by EVM and Solana:
 *   POST /api/<chain>/nonce  { wallet_address }                       → { message }
 *   POST /api/<chain>/wallet { wallet_address, message, signature }   → the linked account
 * This file reads and answers; the proof, the 406 rule and the link are linkProvenWallet's.
 */
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
function conflict406(refusal: Refusal<409>) {
  return json({ error: { message: refusal.message }, code: 406 }, { status: 409 });
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
    const linked = await linkProvenWallet({
      userId: user.id,
      chain,
      address,
      message: body.message,
      signature: body.signature,
    });
    if (!linked.ok) {
      if (linked.status === 409) return conflict406(linked);
      if (linked.status === 429)
        return apiError(429, linked.message, undefined, { "Retry-After": String(linked.retryAfter) });
      return apiError(linked.status, linked.message);
    }
    return apiData(
      {
        linked_account_id: linked.linkedAccountId,
        kind: chain,
        wallet_address: address,
        fingerprint: linked.fingerprint,
        label: linked.label,
        created: linked.created,
        demo: isSimulated(chain),
        status: "importing",
        import_id: linked.importId,
      },
      { status: linked.created ? 201 : 200 },
    );
  };
}
