import { walletNonceAction } from "~/web/wallet-api.server";

// POST /api/evm/nonce — see docs/API.md ("Wallets").
export const action = walletNonceAction("evm");
