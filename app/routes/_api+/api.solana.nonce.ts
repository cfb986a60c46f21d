import { walletNonceAction } from "~/server/linking/wallet-link.server";

// POST /api/solana/nonce — see docs/API.md ("Wallets").
export const action = walletNonceAction("solana");
