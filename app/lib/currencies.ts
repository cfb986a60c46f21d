// The currencies a trader may grade in, in one place: the settings page's select, the users
// table's check (migration 0038), the zod schemas, the rates source and its simulator read them.
// Plain data, no imports: safe for the engine and the browser.

/**
 * The base currencies: the US dollar (the default), the euro, and every currency the ECB publishes a
 * daily euro reference rate for (the rates source, docs/SOURCES.md "FX rates"). The Bulgarian lev is
 * left out: Bulgaria joined the euro on 1 January 2026 and the ECB no longer quotes it.
 */
export const BASE_CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "CAD",
  "CHF",
  "JPY",
  "AUD",
  "NZD",
  "SEK",
  "NOK",
  "DKK",
  "ISK",
  "PLN",
  "CZK",
  "HUF",
  "RON",
  "TRY",
  "ILS",
  "ZAR",
  "BRL",
  "MXN",
  "CNY",
  "HKD",
  "SGD",
  "KRW",
  "INR",
  "IDR",
  "MYR",
  "PHP",
  "THB",
] as const;
export type BaseCurrency = (typeof BASE_CURRENCIES)[number];

/** The default base currency of a trader, and of a ledger without one. */
export const DEFAULT_BASE_CURRENCY: BaseCurrency = "USD";

/** The currencies the ECB quotes against the euro (every base currency but the euro itself). */
export const ECB_QUOTED_CURRENCIES: readonly BaseCurrency[] = BASE_CURRENCIES.filter((c) => c !== "EUR");

export const CURRENCY_NAMES: Readonly<Record<BaseCurrency, string>> = {
  USD: "US dollar",
  EUR: "Euro",
  GBP: "Pound sterling",
  CAD: "Canadian dollar",
  CHF: "Swiss franc",
  JPY: "Japanese yen",
  AUD: "Australian dollar",
  NZD: "New Zealand dollar",
  SEK: "Swedish krona",
  NOK: "Norwegian krone",
  DKK: "Danish krone",
  ISK: "Icelandic króna",
  PLN: "Polish złoty",
  CZK: "Czech koruna",
  HUF: "Hungarian forint",
  RON: "Romanian leu",
  TRY: "Turkish lira",
  ILS: "Israeli new shekel",
  ZAR: "South African rand",
  BRL: "Brazilian real",
  MXN: "Mexican peso",
  CNY: "Chinese yuan renminbi",
  HKD: "Hong Kong dollar",
  SGD: "Singapore dollar",
  KRW: "South Korean won",
  INR: "Indian rupee",
  IDR: "Indonesian rupiah",
  MYR: "Malaysian ringgit",
  PHP: "Philippine peso",
  THB: "Thai baht",
};

export function isBaseCurrency(value: unknown): value is BaseCurrency {
  return typeof value === "string" && (BASE_CURRENCIES as readonly string[]).includes(value);
}

/** An ISO 4217 code's shape (the ledger contract's): three capital letters. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

/** What a currency is called on a page: "Euro (EUR)"; an unknown code as itself. */
export function currencyLabel(code: string): string {
  return isBaseCurrency(code) ? `${CURRENCY_NAMES[code]} (${code})` : code;
}

/** The currency's name in a sentence ("Your grade is being re-made in euros."). */
export const CURRENCY_IN_SENTENCE: Partial<Readonly<Record<BaseCurrency, string>>> = {
  USD: "US dollars",
  EUR: "euros",
  GBP: "pounds sterling",
  CAD: "Canadian dollars",
  CHF: "Swiss francs",
  JPY: "yen",
  AUD: "Australian dollars",
  NZD: "New Zealand dollars",
};
/** "euros", "Canadian dollars"; a currency without a plural spelled here as "Swedish krona (SEK)". */
export function currencyInSentence(code: BaseCurrency): string {
  return CURRENCY_IN_SENTENCE[code] ?? currencyLabel(code);
}

/** A currency as running text names it ("the dollar's fall against the euro"); others by their code. */
export const CURRENCY_SHORT_NAMES: Record<string, string> = {
  USD: "dollar",
  EUR: "euro",
  GBP: "pound",
  CAD: "Canadian dollar",
  JPY: "yen",
  CHF: "Swiss franc",
  AUD: "Australian dollar",
  NZD: "New Zealand dollar",
  SEK: "Swedish krona",
  NOK: "Norwegian krone",
  DKK: "Danish krone",
  HKD: "Hong Kong dollar",
  SGD: "Singapore dollar",
};
