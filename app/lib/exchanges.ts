/**
 * The exchanges a trader can link with a read-only API key (issue 31), as the pages and the JSON API
 * name them: safe for the browser. Each linkable one is also an account kind (ACCOUNT_KINDS) with
 * its adapter entry in app/sources/exchanges (EXCHANGES) and its simulator in test/mocks.
 */
export const EXCHANGE_IDS = ["binance", "coinbase", "kraken", "bybit", "okx"] as const;
export type ExchangeId = (typeof EXCHANGE_IDS)[number];

/** The exchanges whose entry exists today: the others are refused with a plain message. */
export const LINKABLE_EXCHANGES = [
  "binance",
  "kraken",
  "coinbase",
  "okx",
  "bybit",
] as const satisfies readonly ExchangeId[];
export type LinkableExchange = (typeof LINKABLE_EXCHANGES)[number];

export type ExchangeView = {
  name: string;
  /** OKX alone has a passphrase, set when its key is created (ccxt `password`). */
  passphrase: boolean;
  /** Where a read-only key is made, said when a key that can trade or withdraw is refused. */
  readOnlyKeyHelp: string;
};

export const EXCHANGE_VIEWS: Readonly<Record<ExchangeId, ExchangeView>> = {
  binance: {
    name: "Binance",
    passphrase: false,
    readOnlyKeyHelp:
      "on Binance, open Account → API Management, create a key (or edit this one) and leave only “Enable Reading” ticked.",
  },
  coinbase: {
    name: "Coinbase",
    passphrase: false,
    readOnlyKeyHelp:
      "on Coinbase Developer Platform (portal.cdp.coinbase.com), API keys, create a Secret API key with only the View permission.",
  },
  kraken: {
    name: "Kraken",
    passphrase: false,
    readOnlyKeyHelp:
      "on Kraken, Settings → API, create a key with only “Query Funds”, “Query Open Orders & Trades”, “Query Closed Orders & Trades” and “Query Ledger Entries” ticked.",
  },
  bybit: { name: "Bybit", passphrase: false, readOnlyKeyHelp: "on Bybit, API Management, create a Read-Only key." },
  okx: { name: "OKX", passphrase: true, readOnlyKeyHelp: "on OKX, API, create a key with the Read permission only." },
};

export function isLinkableExchange(id: string): id is LinkableExchange {
  return (LINKABLE_EXCHANGES as readonly string[]).includes(id);
}

/** "Binance and Kraken": the exchanges that link today, for the refusal of one that does not yet. */
export function linkableExchangeNames(): string {
  const names = LINKABLE_EXCHANGES.map((id) => EXCHANGE_VIEWS[id].name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0]!;
}
