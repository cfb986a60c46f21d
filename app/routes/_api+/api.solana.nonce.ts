import { walletNonceAction } from "~/web/wallet-api.server";

// POST /api/solana/nonce — see docs/API.md ("Wallets").
export const action = walletNonceAction("solana");
