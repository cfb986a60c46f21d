import type { LinkableExchange } from "~/lib/exchanges";
import type { ExchangeEntry } from "../exchange.server";
import { binance } from "./binance.server";
import { bybit } from "./bybit.server";
import { coinbase } from "./coinbase.server";
import { kraken } from "./kraken.server";
import { okx } from "./okx.server";

/**
 * Every linkable exchange's entry (docs/ARCHITECTURE.md "A provider", exchanges). One account kind
 * each; the provider module app/server/linking/providers/exchange.server.ts runs them all.
 */
export const EXCHANGES: Record<LinkableExchange, ExchangeEntry> = { binance, kraken, coinbase, okx, bybit };
