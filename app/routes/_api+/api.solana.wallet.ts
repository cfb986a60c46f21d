import { walletLinkAction } from "~/web/wallet-api.server";

// POST /api/solana/wallet — see docs/API.md ("Wallets").
export const action = walletLinkAction("solana");
