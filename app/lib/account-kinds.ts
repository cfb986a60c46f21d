import { ACCOUNT_KINDS, type LinkedAccountKind } from "./vocabulary";

/**
 * What the pages show of each kind of linked account: the half of the provider registry that the
 * browser may import. The other half, the import step and the simulator, is ACCOUNT_PROVIDERS
 * (app/server/linking/providers/registry.server.ts). A kind without its entry does not compile.
 */
export type AccountKindView = {
  /** How pages name an account's kind in a sentence: "Registered: 0x… (EVM)". */
  name: string;
  /** A broker is listed before wallets: in the header, the connect dialog and the account page. */
  family: "broker" | "wallet";
  /** The connect dialog's option (PRODUCT §2: Broker, MetaMask Wallet, Phantom Wallet). */
  connect: { label: string; note?: string };
  /** The account page's "Add an account" button. */
  add: string;
  /**
   * Where linking starts. A broker's is a form post (the server makes the Link token and
   * redirects, so it works without JavaScript); a wallet's is a page, as the proof needs the
   * wallet's extension.
   */
  link: { path: string; method: "post" | "get" };
  /** Wallet extensions exist on desktop browsers only (app/lib/device-class.ts). */
  desktopOnly: boolean;
  /** Whether an account whose login expired is reconnected through the link path. */
  reconnects: boolean;
};

export const ACCOUNT_KIND_VIEWS: Readonly<Record<LinkedAccountKind, AccountKindView>> = {
  plaid: {
    name: "Broker",
    family: "broker",
    connect: { label: "Broker", note: "through Plaid" },
    add: "Link a broker",
    link: { path: "/link/plaid", method: "post" },
    desktopOnly: false,
    reconnects: true,
  },
  evm: {
    name: "EVM",
    family: "wallet",
    connect: { label: "MetaMask Wallet" },
    add: "Link MetaMask (EVM)",
    link: { path: "/link/evm", method: "get" },
    desktopOnly: true,
    reconnects: false,
  },
  solana: {
    name: "Solana",
    family: "wallet",
    connect: { label: "Phantom Wallet" },
    add: "Link Phantom (Solana)",
    link: { path: "/link/solana", method: "get" },
    desktopOnly: true,
    reconnects: false,
  },
};

/** Kinds in the order pages list them: brokers first, then wallets, each in ACCOUNT_KINDS' order. */
export const ACCOUNT_KINDS_LISTED: readonly LinkedAccountKind[] = [
  ...ACCOUNT_KINDS.filter((k) => ACCOUNT_KIND_VIEWS[k].family === "broker"),
  ...ACCOUNT_KINDS.filter((k) => ACCOUNT_KIND_VIEWS[k].family !== "broker"),
];

export const BROKER_KINDS: readonly LinkedAccountKind[] = ACCOUNT_KINDS.filter(
  (k) => ACCOUNT_KIND_VIEWS[k].family === "broker",
);
export const WALLET_KINDS: readonly LinkedAccountKind[] = ACCOUNT_KINDS.filter(
  (k) => ACCOUNT_KIND_VIEWS[k].family === "wallet",
);
