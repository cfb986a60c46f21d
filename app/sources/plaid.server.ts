import crypto from "node:crypto";
import { decodeProtectedHeader, importJWK, jwtVerify, type JWK, type KeyLike } from "jose";
import { LRUCache } from "lru-cache";
import { Configuration, CountryCode, PlaidApi, PlaidEnvironments, Products } from "plaid";
import { z } from "zod";
import type { ImportedCashFlow, ImportedEvent, ImportedMark, ImportedTrade } from "./imported";

/**
 * Broker linking through Plaid (investments product), on the official `plaid` SDK:
 *   createLinkToken → (browser: Plaid Link, or the demo stand-in page) → public_token →
 *   exchangePublicToken: /item/public_token/exchange, /accounts/get; then, one call per import job,
 *   /investments/transactions/get page by page (the full 24 months Plaid offers) and
 *   /investments/holdings/get, mapped to the ledger (mapPlaidInvestments; the table is in
 *   docs/SOURCES.md).
 * Pure apart from its calls to Plaid: the linking module (app/server/linking.server.ts) makes the
 * client from its settings (plaidClient), hands each call the decrypted access token, and stores,
 * encrypts and schedules; nothing here reads the database or the environment. Errors are reported
 * to the client's `log` by call and Plaid error code only, never the axios error, whose config holds
 * the request body and the secret.
 * Without a client id and secret the SDK talks to the msw simulator (test/mocks/plaid.ts).
 */

// Demo-mode credentials the simulator accepts (duplicated here: app code never imports test/).
const DEMO_CLIENT_ID = "demo-grader-client-id";
const DEMO_SECRET = "demo-grader-sandbox-secret";
const DEMO_LINK_COMPLETE_URL = "https://sandbox.plaid.com/demo/link/complete";

const PAGE_SIZE = 500; // Plaid's maximum count per /investments/transactions/get page
const HISTORY_DAYS = 730; // Plaid offers up to 24 months of investment transactions
const REQUEST_TIMEOUT_MS = 20_000;

export type PlaidConfig = {
  /** Either unset: demo mode, the simulator's credentials against the sandbox URL. */
  clientId?: string;
  secret?: string;
  env: "sandbox" | "production";
  /** Where failed calls are reported (the call and Plaid's error code; no token, no request). */
  log?: (message: string, fields: Record<string, string>) => void;
};
export type PlaidClient = { api: PlaidApi; demo: boolean; log: NonNullable<PlaidConfig["log"]> };

export function plaidClient(config: PlaidConfig): PlaidClient {
  const demo = !(config.clientId && config.secret);
  const configuration = new Configuration({
    basePath: demo ? PlaidEnvironments.sandbox : PlaidEnvironments[config.env],
    baseOptions: {
      timeout: REQUEST_TIMEOUT_MS,
      headers: {
        "PLAID-CLIENT-ID": demo ? DEMO_CLIENT_ID : config.clientId!,
        "PLAID-SECRET": demo ? DEMO_SECRET : config.secret!,
      },
    },
  });
  return { api: new PlaidApi(configuration), demo, log: config.log ?? (() => {}) };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Plaid error codes after which only the user can fix the item, through Link update mode. */
const RELOGIN_CODES = new Set([
  "ITEM_LOGIN_REQUIRED",
  "PENDING_EXPIRATION",
  "PENDING_DISCONNECT",
  "ACCESS_NOT_GRANTED",
  "INVALID_CREDENTIALS",
  "INVALID_MFA",
  "INSUFFICIENT_CREDENTIALS",
  "ITEM_LOCKED",
  "USER_SETUP_REQUIRED",
  "MFA_NOT_SUPPORTED",
  "ITEM_NOT_SUPPORTED",
]);

export type PlaidFailureKind = "relogin" | "provider" | "rate_limit" | "timeout" | "invalid" | "no_accounts";

export class PlaidFailure extends Error {
  constructor(
    readonly kind: PlaidFailureKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "PlaidFailure";
  }
}

const PlaidErrorBody = z
  .object({ error_type: z.string(), error_code: z.string(), error_message: z.string().optional() })
  .passthrough();

/** Turns whatever the SDK threw into a PlaidFailure carrying no secret. */
function toFailure(error: unknown, call: string): PlaidFailure {
  if (error instanceof PlaidFailure) return error;
  const e = error as { isAxiosError?: boolean; code?: string; response?: { status?: number; data?: unknown } };
  if (e?.isAxiosError) {
    if (e.code === "ECONNABORTED" || e.code === "ETIMEDOUT")
      return new PlaidFailure("timeout", "TIMEOUT", `Plaid did not answer ${call} in time.`);
    const status = e.response?.status;
    const body = PlaidErrorBody.safeParse(e.response?.data);
    if (body.success) {
      const code = body.data.error_code;
      // Plaid names the limit hit in the code (e.g. INVESTMENT_TRANSACTIONS_LIMIT); the type and the 429 say what it is.
      if (status === 429 || body.data.error_type === "RATE_LIMIT_EXCEEDED")
        return new PlaidFailure("rate_limit", code, `Plaid is limiting our requests (${code}).`);
      if (RELOGIN_CODES.has(code))
        return new PlaidFailure("relogin", code, "Your broker needs you to log in again. Use Reconnect to continue.");
      if (status && status >= 500)
        return new PlaidFailure("provider", code, `Plaid answered ${call} with an error (${code}).`);
      return new PlaidFailure("invalid", code, `Plaid refused ${call} (${code}).`);
    }
    if (status === 429) return new PlaidFailure("rate_limit", "HTTP_429", `Plaid is limiting our requests (HTTP 429).`);
    if (status) return new PlaidFailure("provider", `HTTP_${status}`, `Plaid answered ${call} with HTTP ${status}.`);
    return new PlaidFailure("provider", e.code ?? "NETWORK", `Plaid could not be reached for ${call}.`);
  }
  if (error instanceof SyntaxError)
    return new PlaidFailure("provider", "MALFORMED", `Plaid's answer to ${call} was not valid JSON.`);
  return new PlaidFailure("provider", "UNKNOWN", `Calling Plaid ${call} failed.`);
}

/** Calls the SDK, validates the answer's shape (a truncated or malformed body is a provider failure). */
async function call<S extends z.ZodTypeAny>(
  client: PlaidClient,
  name: string,
  schema: S,
  run: (api: PlaidApi) => Promise<{ data: unknown }>,
): Promise<z.infer<S>> {
  let data: unknown;
  try {
    data = (await run(client.api)).data;
  } catch (error) {
    const failure = toFailure(error, name);
    client.log("plaid call failed", { call: name, kind: failure.kind, code: failure.code });
    throw failure;
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    client.log("plaid answer malformed", { call: name, issue: parsed.error.issues[0]?.path.join(".") ?? "" });
    throw new PlaidFailure("provider", "MALFORMED", `Plaid's answer to ${name} was malformed.`);
  }
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// Response schemas (only what we read; everything else passes through into provider_payloads).

const num = z.number().finite();
const SecuritySchema = z
  .object({
    security_id: z.string(),
    name: z.string().nullable().optional(),
    ticker_symbol: z.string().nullable().optional(),
    cusip: z.string().nullable().optional(),
    isin: z.string().nullable().optional(),
    type: z.string().nullable().optional(),
    is_cash_equivalent: z.boolean().nullable().optional(),
    close_price: num.nullable().optional(),
    iso_currency_code: z.string().nullable().optional(),
    unofficial_currency_code: z.string().nullable().optional(),
    option_contract: z
      .object({
        contract_type: z.string(),
        expiration_date: z.string(),
        strike_price: num,
        underlying_security_ticker: z.string(),
      })
      .nullable()
      .optional(),
  })
  .passthrough();
const TransactionSchema = z
  .object({
    investment_transaction_id: z.string(),
    account_id: z.string(),
    security_id: z.string().nullable().optional(),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    transaction_datetime: z.string().nullable().optional(),
    name: z.string().optional(),
    quantity: num,
    amount: num,
    price: num,
    fees: num.nullable().optional(),
    type: z.string(),
    subtype: z.string(),
    iso_currency_code: z.string().nullable().optional(),
    unofficial_currency_code: z.string().nullable().optional(),
  })
  .passthrough();
const HoldingSchema = z
  .object({
    account_id: z.string(),
    security_id: z.string(),
    institution_price: num,
    institution_price_as_of: z.string().nullable().optional(),
    institution_value: num.nullable().optional(),
    quantity: num,
    iso_currency_code: z.string().nullable().optional(),
    unofficial_currency_code: z.string().nullable().optional(),
  })
  .passthrough();
const AccountSchema = z
  .object({
    account_id: z.string(),
    persistent_account_id: z.string().nullable().optional(),
    name: z.string(),
    official_name: z.string().nullable().optional(),
    mask: z.string().nullable().optional(),
    type: z.string(),
    subtype: z.string().nullable().optional(),
  })
  .passthrough();
const ItemSchema = z
  .object({
    item_id: z.string(),
    institution_id: z.string().nullable().optional(),
    institution_name: z.string().nullable().optional(),
  })
  .passthrough();

const LinkTokenResponse = z.object({ link_token: z.string(), hosted_link_url: z.string().url().optional() });
const ExchangeResponse = z.object({ access_token: z.string(), item_id: z.string() });
const AccountsResponse = z.object({ accounts: z.array(AccountSchema), item: ItemSchema });
const InstitutionResponse = z.object({ institution: z.object({ name: z.string() }) });
const TransactionsResponse = z
  .object({
    investment_transactions: z.array(TransactionSchema),
    securities: z.array(SecuritySchema),
    total_investment_transactions: z.number().int().nonnegative(),
  })
  .passthrough();
const HoldingsResponse = z
  .object({ holdings: z.array(HoldingSchema), securities: z.array(SecuritySchema) })
  .passthrough();
const VerificationKeyResponse = z.object({
  key: z
    .object({
      alg: z.string(),
      kid: z.string(),
      kty: z.string(),
      crv: z.string(),
      x: z.string(),
      y: z.string(),
      expired_at: z.number().nullable().optional(),
    })
    .passthrough(),
});

export type PlaidSecurity = z.infer<typeof SecuritySchema>;
export type PlaidInvestmentTransaction = z.infer<typeof TransactionSchema>;
export type PlaidHolding = z.infer<typeof HoldingSchema>;

// ---------------------------------------------------------------------------------------------
// Mapping to the ledger (docs/SOURCES.md has this as a table).

const EXTERNAL_CASH_IN = new Set(["deposit", "contribution"]);
const EXTERNAL_CASH_OUT = new Set(["withdrawal", "distribution"]);
/** Cash that is the account's return: dividends, interest, capital-gain distributions. */
const INCOME = new Set([
  "dividend",
  "qualified dividend",
  "non-qualified dividend",
  "interest",
  "interest receivable",
  "long-term capital gain",
  "short-term capital gain",
  "unqualified gain",
]);
/** Cash that the account pays out of its return: taxes withheld. */
const TAXES = new Set(["tax", "tax withheld", "non-resident tax"]);
/** Share transfers that change the units held, not the value: split, stock dividend. */
const UNIT_CHANGES = new Set(["split", "stock distribution"]);
/** Shares per contract of a standard US equity option; Plaid does not state it. */
const OPTION_MULTIPLIER = 100;

/**
 * An option's contract multiplier, read from what a fill or a holding cost: cash ÷ (contracts ×
 * price per share). A standard contract gives 100, a mini option 10, an adjusted one after a
 * corporate action (e.g. 150) or an institution that reports shares rather than contracts gives
 * its own; when the figures do not say, the standard 100.
 */
export function optionMultiplier(contracts: number, pricePerShare: number, cash: number): number {
  if (!(contracts > 0 && pricePerShare > 0 && cash > 0)) return OPTION_MULTIPLIER;
  const m = cash / (contracts * pricePerShare);
  const whole = Math.round(m);
  // Off by no more than the rounding of the cash to cents (and a 0.1 % slack for price rounding).
  const off = Math.abs(m - whole) * contracts * pricePerShare;
  return whole >= 1 && whole <= 1000 && off <= 0.01 + 0.001 * cash ? whole : OPTION_MULTIPLIER;
}

function isCashLike(sec: PlaidSecurity | undefined): boolean {
  return !!sec && (sec.is_cash_equivalent === true || sec.type === "cash");
}

export function symbolOf(sec: PlaidSecurity): string {
  if (sec.ticker_symbol) return sec.ticker_symbol.trim().toUpperCase();
  const o = sec.option_contract;
  if (o)
    return `${o.underlying_security_ticker.toUpperCase()} ${o.expiration_date} ${o.contract_type.toLowerCase().startsWith("p") ? "P" : "C"}${o.strike_price}`;
  // No ticker (a trust or fund share class): the broker's name for it, which is what a trader
  // recognises; the identifiers only when there is no name.
  const name = sec.name?.trim();
  if (name) return name;
  if (sec.cusip) return `CUSIP:${sec.cusip}`;
  if (sec.isin) return `ISIN:${sec.isin}`;
  return `PLAID:${sec.security_id}`;
}

export function assetClassOf(sec: PlaidSecurity): ImportedTrade["assetClass"] {
  if (sec.type === "derivative" || sec.option_contract) return "option";
  if (sec.type === "cryptocurrency") return "crypto";
  if (sec.type === "etf" || sec.type === "mutual fund") return "etf";
  return "stock";
}

function timeOf(t: PlaidInvestmentTransaction): Date {
  if (t.transaction_datetime) {
    const d = new Date(t.transaction_datetime);
    if (!Number.isNaN(d.getTime())) return d;
  }
  // Plaid gives a date only: 20:00 UTC is the US close (16:00 New York in summer).
  return new Date(`${t.date}T20:00:00.000Z`);
}

/** skipped: rows not mapped, by reason; currencies: rows mapped in a currency other than USD, by code. */
export type MappingStats = { skipped: Record<string, number>; currencies: Record<string, number> };

/**
 * A row's currency as Plaid gives it: `iso_currency_code`, else `unofficial_currency_code` (Plaid
 * sets one of the two; the unofficial one for codes outside ISO 4217, crypto-like assets among
 * them), upper-cased; neither: USD. Kept as given, known to us or not (DECISIONS 181).
 */
export function plaidCurrencyOf(row: {
  iso_currency_code?: string | null;
  unofficial_currency_code?: string | null;
}): string {
  const code = (row.iso_currency_code || row.unofficial_currency_code || "USD").trim().toUpperCase();
  return code || "USD";
}

/**
 * Maps Plaid investment transactions and holdings to the ledger (docs/SOURCES.md has the table):
 * buy/sell → trades (quantity |q|; options in shares: contracts × their multiplier, read from the
 * fill's cash (optionMultiplier), price per share; fee = fees);
 * cash deposit/contribution (+) and withdrawal/distribution (−) → cash flows; dividends, interest
 * and capital-gain distributions → income; standalone fees and taxes withheld → fees; a split or
 * stock distribution → a change in units held (the ledger builder makes it a split); a spin-off →
 * the new shares; the two legs of a merger → a rename; a cancel → resolved by the ledger builder
 * against the transaction it cancels; any other share transfer → a trade at its price plus a flow
 * of its value (value came in or left from outside); cash equivalents (money market sweeps, cash)
 * → not positions. Anything else is counted in `stats.skipped` by reason.
 */
export function mapPlaidInvestments(input: {
  transactions: PlaidInvestmentTransaction[];
  securities: PlaidSecurity[];
  holdings: PlaidHolding[];
  asOf: Date;
}): {
  trades: ImportedTrade[];
  cashFlows: ImportedCashFlow[];
  marks: ImportedMark[];
  events: ImportedEvent[];
  stats: MappingStats;
} {
  const securities = new Map(input.securities.map((s) => [s.security_id, s]));
  const trades: ImportedTrade[] = [];
  const cashFlows: ImportedCashFlow[] = [];
  const events: ImportedEvent[] = [];
  const mergerLegs: { t: PlaidInvestmentTransaction; symbol: string }[] = [];
  const skipped: Record<string, number> = {};
  const skip = (why: string) => (skipped[why] = (skipped[why] ?? 0) + 1);
  const currencies: Record<string, number> = {};

  for (const t of input.transactions) {
    // Every row this transaction maps to carries its currency (USD rows stay as they were).
    const currency = plaidCurrencyOf(t);
    const before = [trades.length, cashFlows.length, events.length] as const;
    mapOne(t);
    if (currency !== "USD") {
      const rows = [...trades.slice(before[0]), ...cashFlows.slice(before[1]), ...events.slice(before[2])];
      for (const row of rows) row.currency = currency;
      if (rows.length) currencies[currency] = (currencies[currency] ?? 0) + rows.length;
    }
  }

  function mapOne(t: PlaidInvestmentTransaction): void {
    const sec = t.security_id ? securities.get(t.security_id) : undefined;
    const time = timeOf(t);
    const externalId = t.investment_transaction_id;
    const type = t.type.toLowerCase();
    const subtype = t.subtype.toLowerCase();
    // Plaid: a positive amount is cash leaving the account, a negative one cash arriving.
    const cashIn = -t.amount;

    if (type === "cash" || (type === "transfer" && !sec)) {
      if (EXTERNAL_CASH_IN.has(subtype) || EXTERNAL_CASH_OUT.has(subtype) || type === "transfer") {
        if (t.amount !== 0) cashFlows.push({ externalId, time, amount: cashIn });
        else skip("zero cash flow");
      } else if (INCOME.has(subtype)) {
        if (cashIn > 0)
          events.push({
            kind: "income",
            externalId,
            time,
            ...(sec && !isCashLike(sec) ? { symbol: symbolOf(sec) } : {}),
            amount: cashIn,
          });
        else if (cashIn < 0)
          events.push({ kind: "fee", externalId, time, amount: -cashIn }); // an income reversal
        else skip("zero income");
      } else if (TAXES.has(subtype)) {
        if (cashIn < 0) events.push({ kind: "fee", externalId, time, amount: -cashIn });
        else if (cashIn > 0)
          events.push({ kind: "income", externalId, time, amount: cashIn }); // a tax refund
        else skip("zero tax");
      } else skip(`cash ${subtype}`);
      return;
    }
    if (type === "fee") {
      if (cashIn < 0) events.push({ kind: "fee", externalId, time, amount: -cashIn });
      else if (cashIn > 0)
        events.push({ kind: "income", externalId, time, amount: cashIn }); // a fee rebate
      else skip("zero fee");
      return;
    }
    if (type !== "buy" && type !== "sell" && type !== "transfer" && type !== "cancel") {
      skip(`type ${type}`);
      return;
    }
    if (!sec) {
      skip(type === "cancel" ? "cancel of an unknown security" : "unknown security");
      return;
    }
    if (isCashLike(sec)) {
      skip("cash equivalent");
      return;
    }
    const assetClass = assetClassOf(sec);
    const qty = Math.abs(t.quantity);
    // Cash of the fill net of its fee (Plaid's amount includes it): what the contracts cost.
    const net = Math.abs(t.amount) + (t.amount >= 0 ? -1 : 1) * Math.max(0, t.fees ?? 0);
    const multiplier = assetClass === "option" ? optionMultiplier(qty, t.price, net) : 1;
    if (type === "cancel") {
      if (qty > 0)
        events.push({
          kind: "cancel",
          externalId,
          time,
          symbol: symbolOf(sec),
          quantity: qty * multiplier,
          amount: Math.abs(t.amount),
        });
      else skip("cancel without a quantity");
      return;
    }
    if (type === "transfer" && UNIT_CHANGES.has(subtype)) {
      if (t.quantity !== 0)
        events.push({
          kind: "shares",
          externalId,
          time,
          symbol: symbolOf(sec),
          quantity: t.quantity * multiplier,
          reason: subtype,
        });
      else skip(`${subtype} without a quantity`);
      return;
    }
    if (type === "transfer" && subtype === "spin off") {
      if (t.quantity > 0)
        events.push({
          kind: "spinoff",
          externalId,
          time,
          symbol: symbolOf(sec),
          quantity: t.quantity * multiplier,
          price: Math.max(0, t.price),
        });
      else skip("spin off without new shares");
      return;
    }
    if (type === "transfer" && subtype === "merger") {
      mergerLegs.push({ t, symbol: symbolOf(sec) });
      return;
    }
    if (!(qty > 0)) {
      skip("zero quantity");
      return;
    }
    const fee = Math.max(0, t.fees ?? 0);
    const side: "buy" | "sell" =
      type === "transfer" ? (t.quantity > 0 ? "buy" : "sell") : type === "buy" ? "buy" : "sell";
    let price = t.price;
    if (!(price > 0) && type !== "transfer")
      price = Math.max(0, (Math.abs(t.amount) + (side === "buy" ? -fee : fee)) / (qty * multiplier));
    if (!(price > 0) && type === "transfer") price = sec.close_price ?? 0;
    if (!(price > 0)) {
      skip("no price");
      return;
    }
    trades.push({ externalId, time, symbol: symbolOf(sec), assetClass, side, quantity: qty * multiplier, price, fee });
    if (type === "transfer") {
      const value = Math.round(qty * multiplier * price * 100) / 100;
      // (Worth less than half a cent, the flow rounds to 0, which moves nothing: none is made.)
      if (value !== 0)
        cashFlows.push({ externalId: `${externalId}:transfer`, time, amount: side === "buy" ? value : -value });
    }
  }

  // A merger: the old shares leave and the new ones arrive on one date → a rename with the ratio.
  const byDate = new Map<string, { t: PlaidInvestmentTransaction; symbol: string }[]>();
  for (const leg of mergerLegs) byDate.set(leg.t.date, [...(byDate.get(leg.t.date) ?? []), leg]);
  for (const legs of byDate.values()) {
    const out = legs.filter((l) => l.t.quantity < 0);
    const into = legs.filter((l) => l.t.quantity > 0);
    if (out.length === 1 && into.length === 1) {
      events.push({
        kind: "merger",
        externalId: out[0]!.t.investment_transaction_id,
        time: timeOf(out[0]!.t),
        symbol: out[0]!.symbol,
        to: into[0]!.symbol,
        ratio: into[0]!.t.quantity / -out[0]!.t.quantity,
      });
    } else for (let i = 0; i < legs.length; i++) skip("merger leg without its pair");
  }

  const marks: ImportedMark[] = [];
  const seen = new Set<string>();
  for (const h of input.holdings) {
    const sec = securities.get(h.security_id);
    if (!sec || isCashLike(sec) || !(h.institution_price >= 0)) continue;
    const symbol = symbolOf(sec);
    const time = h.institution_price_as_of
      ? new Date(`${h.institution_price_as_of.slice(0, 10)}T20:00:00.000Z`)
      : input.asOf;
    const key = `${symbol}|${time.toISOString()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // A holding's price is in the holding's currency (else its security's).
    const currency = plaidCurrencyOf(h.iso_currency_code || h.unofficial_currency_code ? h : sec);
    marks.push({ symbol, time, price: h.institution_price, ...(currency !== "USD" ? { currency } : {}) });
  }
  return { trades, cashFlows, marks, events, stats: { skipped, currencies } };
}

/**
 * The units per symbol Plaid reports held (/investments/holdings/get), in the ledger's terms:
 * options in shares (contracts × multiplier), cash equivalents left out as the mapping leaves them.
 */
export function plaidHoldingPositions(input: {
  holdings: PlaidHolding[];
  securities: PlaidSecurity[];
}): Map<string, number> {
  const securities = new Map(input.securities.map((s) => [s.security_id, s]));
  const held = new Map<string, number>();
  for (const h of input.holdings) {
    const sec = securities.get(h.security_id);
    if (!sec || isCashLike(sec)) continue;
    const symbol = symbolOf(sec);
    const multiplier =
      assetClassOf(sec) === "option"
        ? optionMultiplier(Math.abs(h.quantity), h.institution_price, Math.abs(h.institution_value ?? 0))
        : 1;
    held.set(symbol, (held.get(symbol) ?? 0) + h.quantity * multiplier);
  }
  return held;
}

/** A stored /investments/holdings/get answer (provider_payloads), or null when it is not one. */
export function parsePlaidHoldings(payload: unknown): { holdings: PlaidHolding[]; securities: PlaidSecurity[] } | null {
  const parsed = HoldingsResponse.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

// ---------------------------------------------------------------------------------------------
// Link tokens

/**
 * A Link token for a new item (products: investments) or, with the item's access token, for Link
 * update mode on it (re-login). completionRedirectUri asks for Plaid Hosted Link (the
 * no-JavaScript path with real credentials) and returns its URL.
 */
export async function createLinkToken(
  client: PlaidClient,
  opts: { clientUserId: string; webhookUrl: string; accessToken?: string; completionRedirectUri?: string },
): Promise<{ linkToken: string; hostedLinkUrl: string | null }> {
  const res = await call(client, "/link/token/create", LinkTokenResponse, (api) =>
    api.linkTokenCreate({
      user: { client_user_id: opts.clientUserId },
      client_name: "Grader",
      language: "en",
      country_codes: [CountryCode.Us],
      webhook: opts.webhookUrl,
      ...(opts.accessToken ? { access_token: opts.accessToken } : { products: [Products.Investments] }),
      ...(opts.completionRedirectUri && !client.demo
        ? { hosted_link: { completion_redirect_uri: opts.completionRedirectUri } }
        : {}),
    }),
  );
  return { linkToken: res.link_token, hostedLinkUrl: res.hosted_link_url ?? null };
}

/** Hosted Link finished: the public token of the session (null when the user left without linking). */
export async function publicTokenFromLinkSession(client: PlaidClient, linkToken: string): Promise<string | null> {
  const res = await call(
    client,
    "/link/token/get",
    z
      .object({
        link_sessions: z
          .array(
            z
              .object({
                results: z
                  .object({ item_add_results: z.array(z.object({ public_token: z.string() })) })
                  .nullable()
                  .optional(),
              })
              .passthrough(),
          )
          .optional(),
      })
      .passthrough(),
    (api) => api.linkTokenGet({ link_token: linkToken }),
  );
  for (const session of res.link_sessions ?? []) {
    const token = session.results?.item_add_results[0]?.public_token;
    if (token) return token;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Import

function isoDate(d: Date) {
  return d.toISOString().slice(0, 10);
}

/** The dates an import asks for: Plaid's full 24 months up to today, fixed for all its pages. */
export function plaidHistoryWindow(now = new Date()): { start: string; end: string } {
  return { start: isoDate(new Date(now.getTime() - HISTORY_DAYS * 86_400_000)), end: isoDate(now) };
}

export type PlaidTransactionsPage = {
  transactions: PlaidInvestmentTransaction[];
  securities: PlaidSecurity[];
  total: number;
  payload: unknown;
};

/** One page (up to 500) of /investments/transactions/get from `offset`. */
export async function fetchPlaidTransactionsPage(
  client: PlaidClient,
  accessToken: string,
  plaidAccountId: string,
  window: { start: string; end: string },
  offset: number,
): Promise<PlaidTransactionsPage> {
  const res = await call(client, "/investments/transactions/get", TransactionsResponse, (api) =>
    api.investmentsTransactionsGet({
      access_token: accessToken,
      start_date: window.start,
      end_date: window.end,
      // async_update: the first 30 days at once, the rest after HISTORICAL_UPDATE (PRODUCT_NOT_READY until then).
      options: { account_ids: [plaidAccountId], count: PAGE_SIZE, offset, async_update: true },
    }),
  );
  const { item: _item, accounts: _accounts, ...kept } = res as Record<string, unknown>;
  return {
    transactions: res.investment_transactions,
    securities: res.securities,
    total: res.total_investment_transactions,
    payload: kept,
  };
}

/** /investments/holdings/get for one account. */
export async function fetchPlaidHoldings(
  client: PlaidClient,
  accessToken: string,
  plaidAccountId: string,
): Promise<{ holdings: PlaidHolding[]; securities: PlaidSecurity[]; payload: unknown }> {
  const res = await call(client, "/investments/holdings/get", HoldingsResponse, (api) =>
    api.investmentsHoldingsGet({ access_token: accessToken, options: { account_ids: [plaidAccountId] } }),
  );
  const { item: _item, ...kept } = res as Record<string, unknown>;
  return { holdings: res.holdings, securities: res.securities, payload: kept };
}

/**
 * Which of the item's current accounts a linked account is (Plaid's account_id can change; the
 * fingerprint keeps the persistent id). Throws relogin ACCOUNT_GONE when the institution no longer
 * reports it.
 */
export async function resolvePlaidAccount(
  client: PlaidClient,
  accessToken: string,
  fingerprint: string,
): Promise<string> {
  const { accounts } = await call(client, "/accounts/get", AccountsResponse, (api) =>
    api.accountsGet({ access_token: accessToken }),
  );
  const id = fingerprint.split(":").slice(2).join(":");
  const account = accounts.find((a) => (a.persistent_account_id ?? a.account_id) === id);
  if (!account)
    throw new PlaidFailure("relogin", "ACCOUNT_GONE", "The institution no longer reports this account. Use Reconnect.");
  return account.account_id;
}

const RETRYABLE_CODES = new Set([
  "PRODUCT_NOT_READY",
  "RATE_LIMIT_EXCEEDED",
  "INSTITUTION_DOWN",
  "INSTITUTION_NOT_RESPONDING",
  "INTERNAL_SERVER_ERROR",
  "PLANNED_MAINTENANCE",
]);

/** Whether a failure may go away by itself (try again later) or needs the user. */
export function isRetryablePlaidFailure(error: PlaidFailure): boolean {
  return (
    error.kind === "provider" ||
    error.kind === "rate_limit" ||
    error.kind === "timeout" ||
    RETRYABLE_CODES.has(error.code)
  );
}

export { toFailure as plaidFailureOf };

function fingerprintOf(institutionId: string, account: z.infer<typeof AccountSchema>) {
  return `plaid:${institutionId}:${account.persistent_account_id ?? account.account_id}`;
}

async function institutionName(
  client: PlaidClient,
  institutionId: string,
  fromItem: string | null | undefined,
): Promise<string | null> {
  if (fromItem) return fromItem;
  try {
    const res = await call(client, "/institutions/get_by_id", InstitutionResponse, (api) =>
      api.institutionsGetById({ institution_id: institutionId, country_codes: [CountryCode.Us] }),
    );
    return res.institution.name;
  } catch {
    return null;
  }
}

export type ExchangedItem = {
  accessToken: string;
  itemId: string;
  institutionName: string | null;
  accounts: { plaidAccountId: string; fingerprint: string; label: string }[];
};

/** /item/public_token/exchange and the item's investment accounts (no writes). */
export async function exchangePublicToken(client: PlaidClient, publicToken: string): Promise<ExchangedItem> {
  const exchange = await call(client, "/item/public_token/exchange", ExchangeResponse, (api) =>
    api.itemPublicTokenExchange({ public_token: publicToken }),
  );
  const accessToken = exchange.access_token;
  const { accounts, item } = await call(client, "/accounts/get", AccountsResponse, (api) =>
    api.accountsGet({ access_token: accessToken }),
  );
  const investment = accounts.filter((a) => a.type === "investment");
  if (!investment.length)
    throw new PlaidFailure("no_accounts", "NO_INVESTMENT_ACCOUNTS", "This login has no investment account to grade.");
  const institutionId = item.institution_id ?? "unknown";
  return {
    accessToken,
    itemId: exchange.item_id,
    institutionName: await institutionName(client, institutionId, item.institution_name),
    accounts: investment.map((a) => ({
      plaidAccountId: a.account_id,
      fingerprint: fingerprintOf(institutionId, a),
      label: a.mask ? `${a.name} ••${a.mask}` : a.name,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Demo mode: the stand-in Link page's credential step (answered by the simulator).

export type DemoLinkOutcome =
  | { ok: true; publicToken: string | null; update: boolean; clientUserId: string }
  | { ok: false; reason: "credentials" | "link_token" | "unavailable" };

export async function completeDemoLink(
  client: PlaidClient,
  linkToken: string,
  username: string,
  password: string,
): Promise<DemoLinkOutcome> {
  if (!client.demo) return { ok: false, reason: "unavailable" };
  try {
    const res = await fetch(DEMO_LINK_COMPLETE_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ link_token: linkToken, username, password }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as {
      public_token?: string | null;
      update?: boolean;
      client_user_id?: string;
      error_code?: string;
    };
    if (res.ok && typeof body.client_user_id === "string")
      return {
        ok: true,
        publicToken: body.public_token ?? null,
        update: body.update === true,
        clientUserId: body.client_user_id,
      };
    if (body.error_code === "INVALID_CREDENTIALS") return { ok: false, reason: "credentials" };
    if (body.error_code === "INVALID_LINK_TOKEN") return { ok: false, reason: "link_token" };
    return { ok: false, reason: "unavailable" };
  } catch {
    return { ok: false, reason: "unavailable" };
  }
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export class WebhookRejected extends Error {}

type VerificationKey = { key: KeyLike | Uint8Array; expired: boolean };

// Anyone can post a webhook naming any kid, and a kid we do not hold costs a call to Plaid. So the
// calls are bounded three ways: a kid Plaid did not know is refused without asking again for
// UNKNOWN_KID_MS (a failed call, which may pass, for FAILED_LOOKUP_MS); one call per kid at a time;
// and at most KEY_LOOKUPS_PER_MINUTE calls per process (beyond, the webhook is refused unasked).
// Memory is enough: each process's calls are bounded, and a refusal costs Plaid nothing.
export const UNKNOWN_KID_MS = 10 * 60_000;
export const FAILED_LOOKUP_MS = 30_000;
export const KEY_LOOKUPS_PER_MINUTE = 10;

// Plaid's keys by kid (a handful at a time; bounded all the same).
const keyCache = new LRUCache<string, VerificationKey>({ max: 100 });
// Refused kids, each with the time (Date.now()) its refusal ends.
const unknownKids = new LRUCache<string, number>({ max: 10_000 });
const lookups = new Map<string, Promise<VerificationKey>>();
const lookupWindow = { start: 0, count: 0 };

async function verificationKey(client: PlaidClient, kid: string): Promise<VerificationKey> {
  const cached = keyCache.get(kid);
  if (cached) return cached;
  const refusedUntil = unknownKids.get(kid);
  if (refusedUntil !== undefined && Date.now() < refusedUntil) throw new WebhookRejected("unknown key id");
  const pending = lookups.get(kid);
  if (pending) return pending;
  const now = Date.now();
  if (now - lookupWindow.start >= 60_000) Object.assign(lookupWindow, { start: now, count: 0 });
  if (lookupWindow.count >= KEY_LOOKUPS_PER_MINUTE) throw new WebhookRejected("key look-ups over their limit");
  lookupWindow.count++;
  const lookup = fetchVerificationKey(client, kid).finally(() => lookups.delete(kid));
  lookups.set(kid, lookup);
  return lookup;
}

async function fetchVerificationKey(client: PlaidClient, kid: string): Promise<VerificationKey> {
  let res: z.infer<typeof VerificationKeyResponse>;
  try {
    res = await call(client, "/webhook_verification_key/get", VerificationKeyResponse, (api) =>
      api.webhookVerificationKeyGet({ key_id: kid }),
    );
  } catch (error) {
    // Plaid's 400 says the kid is not one of its keys; anything else may pass by itself.
    const known = error instanceof PlaidFailure && error.kind === "invalid";
    unknownKids.set(kid, Date.now() + (known ? UNKNOWN_KID_MS : FAILED_LOOKUP_MS));
    throw new WebhookRejected("unknown key id");
  }
  if (res.key.alg !== "ES256" || res.key.kty !== "EC" || res.key.crv !== "P-256") {
    unknownKids.set(kid, Date.now() + UNKNOWN_KID_MS);
    throw new WebhookRejected("unexpected key type");
  }
  const entry = {
    key: await importJWK({ kty: res.key.kty, crv: res.key.crv, x: res.key.x, y: res.key.y } as JWK, "ES256"),
    expired: res.key.expired_at != null,
  };
  keyCache.set(kid, entry);
  return entry;
}

const WebhookBody = z
  .object({
    webhook_type: z.string(),
    webhook_code: z.string(),
    item_id: z.string().optional(),
    error: z
      .object({ error_code: z.string().optional(), error_type: z.string().optional() })
      .passthrough()
      .nullable()
      .optional(),
  })
  .passthrough();
export type PlaidWebhook = z.infer<typeof WebhookBody>;

/**
 * Plaid's webhook verification: the Plaid-Verification header is a JWT signed with ES256 (nothing
 * else accepted, "none" included) by the key named by its kid (/webhook_verification_key/get), at
 * most 5 minutes old (iat), whose request_body_sha256 equals the SHA-256 of the raw body. Within
 * those 5 minutes the same webhook could be sent again: `firstSeen` is asked with the SHA-256 of
 * the JWT's signed part (header and payload; the signature is left out, as ECDSA lets anyone
 * write a second valid one) and answers false for one it has seen, which is refused.
 */
export async function verifyPlaidWebhook(
  client: PlaidClient,
  rawBody: string,
  headers: Headers,
  firstSeen: (id: string) => Promise<boolean>,
): Promise<PlaidWebhook> {
  const token = headers.get("plaid-verification");
  if (!token) throw new WebhookRejected("missing Plaid-Verification");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new WebhookRejected("malformed JWT");
  }
  if (header.alg !== "ES256") throw new WebhookRejected("alg must be ES256");
  if (typeof header.kid !== "string" || !header.kid || header.kid.length > 200)
    throw new WebhookRejected("missing kid");
  const { key, expired } = await verificationKey(client, header.kid);
  if (expired) throw new WebhookRejected("key expired");
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, key, {
      algorithms: ["ES256"],
      maxTokenAge: "5 min",
      clockTolerance: 5,
    }));
  } catch {
    throw new WebhookRejected("signature or age check failed");
  }
  const expected = typeof claims.request_body_sha256 === "string" ? claims.request_body_sha256 : "";
  const actual = crypto.createHash("sha256").update(rawBody, "utf8").digest("hex");
  if (expected.length !== actual.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(actual)))
    throw new WebhookRejected("body hash mismatch");
  const signedPart = token.slice(0, token.lastIndexOf("."));
  if (!(await firstSeen(crypto.createHash("sha256").update(signedPart).digest("hex"))))
    throw new WebhookRejected("replayed");
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new WebhookRejected("body is not JSON");
  }
  const parsed = WebhookBody.safeParse(body);
  if (!parsed.success) throw new WebhookRejected("unexpected body");
  return parsed.data;
}

export type WebhookAction =
  { action: "import" } | { action: "relogin_required" | "error"; message: string } | { action: "ignored" };

/** What a verified webhook asks for: an import on new data, a failed state on item errors. */
export function classifyPlaidWebhook(hook: PlaidWebhook): WebhookAction {
  const type = hook.webhook_type;
  const code = hook.webhook_code;
  if (
    (type === "INVESTMENTS_TRANSACTIONS" || type === "HOLDINGS") &&
    (code === "DEFAULT_UPDATE" || code === "HISTORICAL_UPDATE")
  )
    return { action: "import" };
  if (type === "ITEM" && code === "LOGIN_REPAIRED") return { action: "import" };
  if (type === "ITEM" && (code === "ERROR" || code === "PENDING_EXPIRATION" || code === "PENDING_DISCONNECT")) {
    const errorCode = hook.error?.error_code ?? code;
    return {
      action: code !== "ERROR" || RELOGIN_CODES.has(errorCode) ? "relogin_required" : "error",
      message: `${errorCode}: reported by Plaid webhook`,
    };
  }
  if (type === "ITEM" && code === "USER_PERMISSION_REVOKED")
    return { action: "relogin_required", message: "USER_PERMISSION_REVOKED: reported by Plaid webhook" };
  return { action: "ignored" };
}
