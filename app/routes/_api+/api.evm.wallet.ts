import { walletLinkAction } from "~/server/wallet-link.server";

// POST /api/evm/wallet — see docs/API.md ("Wallets").
export const action = walletLinkAction("evm");
