import { walletLinkAction } from "~/server/linking/wallet-link.server";

// POST /api/solana/wallet — see docs/API.md ("Wallets").
export const action = walletLinkAction("solana");
