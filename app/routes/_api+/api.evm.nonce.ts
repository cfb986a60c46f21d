import { walletNonceAction } from "~/server/linking/wallet-link.server";

// POST /api/evm/nonce — see docs/API.md ("Wallets").
export const action = walletNonceAction("evm");
