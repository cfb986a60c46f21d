import { walletLinkAction } from "~/web/wallet-api.server";

// POST /api/evm/wallet — see docs/API.md ("Wallets").
export const action = walletLinkAction("evm");
