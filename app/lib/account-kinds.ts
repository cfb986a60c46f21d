import { EXCHANGE_VIEWS } from "./exchanges";
import { ACCOUNT_KINDS, type LinkedAccountKind } from "./vocabulary";

/**
 * What the pages show of each kind of linked account: the half of the provider registry that the
 * browser may import. The other half, the import step and the simulator, is ACCOUNT_PROVIDERS
 * (app/server/linking/providers/registry.server.ts). A kind without its entry does not compile.
 */
export type AccountKindView = {
  /** How pages name an account's kind in a sentence: "Registered: 0x… (EVM)". */
  name: string;
  /**
   * Brokers are listed first, then exchanges, then wallets, then an uploaded statement: in the
   * header, the connect dialog and the account page. Every exchange shares one link page and one connect option.
   */
  family: "broker" | "exchange" | "wallet" | "statement";
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

/** The one link page of every exchange: its form names the exchange. */
export const EXCHANGE_LINK_PATH = "/link/exchange";

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
  binance: exchangeView("binance"),
  ibkr: {
    name: "Interactive Brokers",
    family: "broker",
    connect: { label: "Interactive Brokers", note: "Flex Web Service" },
    add: "Link Interactive Brokers",
    link: { path: "/link/ibkr", method: "get" },
    desktopOnly: false,
    // A token that stops working is replaced by linking a new one on /link/ibkr (same account).
    reconnects: false,
  },
  kraken: exchangeView("kraken"),
  coinbase: exchangeView("coinbase"),
  okx: exchangeView("okx"),
  bybit: exchangeView("bybit"),
  // A file the trader uploads: its grade is self-reported (DECISIONS 198), so it is listed last.
  statement: {
    name: "Statement",
    family: "statement",
    connect: { label: "Upload a statement", note: "self-reported" },
    add: "Upload a statement",
    link: { path: "/link/statement", method: "get" },
    desktopOnly: false,
    reconnects: false,
  },
};

/** An exchange linked with a read-only API key: one page (/link/exchange) for all of them. */
function exchangeView(id: keyof typeof EXCHANGE_VIEWS): AccountKindView {
  return {
    name: EXCHANGE_VIEWS[id].name,
    family: "exchange",
    connect: { label: "Link an exchange", note: "read-only API key" },
    add: "Link an exchange",
    link: { path: EXCHANGE_LINK_PATH, method: "get" },
    desktopOnly: false,
    // A key that stops working is replaced by linking a new one on the link page (same account).
    reconnects: false,
  };
}

/** Kinds in the order pages list them: brokers, exchanges, wallets, then statements, each in ACCOUNT_KINDS' order. */
export const ACCOUNT_KINDS_LISTED: readonly LinkedAccountKind[] = (
  ["broker", "exchange", "wallet", "statement"] as const
).flatMap((family) => ACCOUNT_KINDS.filter((k) => ACCOUNT_KIND_VIEWS[k].family === family));

/** One entry per link page, in the pages' order: the connect dialog's and the account page's options. */
export const LINK_OPTIONS: readonly LinkedAccountKind[] = ACCOUNT_KINDS_LISTED.filter(
  (k, i) =>
    ACCOUNT_KINDS_LISTED.findIndex(
      (other) => ACCOUNT_KIND_VIEWS[other].link.path === ACCOUNT_KIND_VIEWS[k].link.path,
    ) === i,
);

export const BROKER_KINDS: readonly LinkedAccountKind[] = ACCOUNT_KINDS.filter(
  (k) => ACCOUNT_KIND_VIEWS[k].family === "broker",
);
export const EXCHANGE_KINDS: readonly LinkedAccountKind[] = ACCOUNT_KINDS.filter(
  (k) => ACCOUNT_KIND_VIEWS[k].family === "exchange",
);
export const WALLET_KINDS: readonly LinkedAccountKind[] = ACCOUNT_KINDS.filter(
  (k) => ACCOUNT_KIND_VIEWS[k].family === "wallet",
);

/** Kinds whose history the trader uploads rather than a provider gives: their grade is self-reported. */
export const SELF_REPORTED_KINDS: readonly LinkedAccountKind[] = ACCOUNT_KINDS.filter(
  (k) => ACCOUNT_KIND_VIEWS[k].family === "statement",
);
