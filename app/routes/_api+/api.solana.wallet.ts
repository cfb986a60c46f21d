import { walletLinkAction } from "~/server/wallet-link.server";

// POST /api/solana/wallet — see docs/API.md ("Wallets").
export const action = walletLinkAction("solana");
