import { syncBuiltinESMExports } from "node:module";
import type { RequestHandler } from "msw";
import { setupServer, type SetupServer } from "msw/node";
import { appleHandlers } from "./apple";
import { binanceHandlers } from "./binance";
import { krakenHandlers } from "./kraken";
import { coinbaseHandlers } from "./coinbase";
import { okxHandlers } from "./okx";
import { bybitHandlers } from "./bybit";
import { googleHandlers } from "./google";
import { ibkrHandlers } from "./ibkr";
import { evmHandlers } from "./evm";
import { fxRateHandlers } from "./fx-rates";
import { solanaHandlers } from "./solana";
import { deliverPlaidWebhooksTo, plaidHandlers } from "./plaid";
import { priceHandlers } from "./prices";
import { stripeHandlers } from "./stripe";

/**
 * One msw server for every external provider that runs in demo mode (credentials unset). Each
 * provider has a handler file here; add a flag and a line below for the next one (Plaid, Stripe,
 * explorers…). Requests msw does not handle go to the network unchanged.
 */
export type ProviderMockFlags = {
  google?: boolean;
  apple?: boolean;
  plaid?: boolean;
  evm?: boolean;
  solana?: boolean;
  binance?: boolean;
  ibkr?: boolean;
  kraken?: boolean;
  coinbase?: boolean;
  okx?: boolean;
  bybit?: boolean;
  stripe?: boolean;
  prices?: boolean;
  "fx-rates"?: boolean;
};

export async function startProviderMocks(
  which: ProviderMockFlags,
): Promise<{ server: SetupServer; providers: string[]; deliverWebhooksTo: (base: string) => void } | null> {
  const handlers: RequestHandler[] = [];
  const providers: string[] = [];
  if (which.google) {
    handlers.push(...googleHandlers());
    providers.push("google");
  }
  if (which.apple) {
    handlers.push(...(await appleHandlers()));
    providers.push("apple");
  }
  if (which.plaid) {
    handlers.push(...plaidHandlers());
    providers.push("plaid");
  }
  if (which.evm) {
    handlers.push(...evmHandlers());
    providers.push("evm");
  }
  if (which.solana) {
    handlers.push(...solanaHandlers());
    providers.push("solana");
  }
  if (which.binance) {
    handlers.push(...binanceHandlers());
    providers.push("binance");
  }
  if (which.ibkr) {
    handlers.push(...ibkrHandlers());
    providers.push("ibkr");
  }
  if (which.kraken) {
    handlers.push(...krakenHandlers());
    providers.push("kraken");
  }
  if (which.coinbase) {
    handlers.push(...coinbaseHandlers());
    providers.push("coinbase");
  }
  if (which.okx) {
    handlers.push(...okxHandlers());
    providers.push("okx");
  }
  if (which.bybit) {
    handlers.push(...bybitHandlers());
    providers.push("bybit");
  }
  if (which.stripe) {
    handlers.push(...stripeHandlers());
    providers.push("stripe");
  }
  if (which.prices) {
    handlers.push(...priceHandlers());
    providers.push("prices");
  }
  if (which["fx-rates"]) {
    handlers.push(...fxRateHandlers());
    providers.push("fx-rates");
  }
  if (!handlers.length) return null;
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "bypass" });
  // msw patches http.get/https.get on the CommonJS modules; ES modules that did
  // `import * as https from "node:https"` (jose's JWKS fetch) only see the patch after this.
  syncBuiltinESMExports();
  // Simulated webhooks (Plaid's HISTORICAL_UPDATE) go to the app's own listening address.
  return { server, providers, deliverWebhooksTo: deliverPlaidWebhooksTo };
}
