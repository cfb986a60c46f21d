import { walletLinkAction } from "~/server/linking/wallet-link.server";

// POST /api/evm/wallet — see docs/API.md ("Wallets").
export const action = walletLinkAction("evm");
