import type { LinkedAccountKind } from "~/lib/vocabulary";
import { isSimulated } from "../../platform/demo.server";
import { getEnv, type Env } from "../../platform/env.server";
import { evmProvider } from "./evm.server";
import { exchangeProvider } from "./exchange.server";
import { ibkrProvider } from "./ibkr.server";
import { plaidProvider } from "./plaid.server";
import type { AccountProvider } from "./provider";
import { solanaProvider } from "./solana.server";
import { statementProvider } from "./statement.server";

/**
 * Every kind of linked account and its provider. A kind added to ACCOUNT_KINDS
 * (app/lib/vocabulary.ts) does not compile until it has its entry here.
 */
export const ACCOUNT_PROVIDERS: Record<LinkedAccountKind, AccountProvider<object>> = {
  plaid: plaidProvider,
  evm: evmProvider,
  solana: solanaProvider,
  binance: exchangeProvider("binance"),
  ibkr: ibkrProvider,
  kraken: exchangeProvider("kraken"),
  coinbase: exchangeProvider("coinbase"),
  okx: exchangeProvider("okx"),
  bybit: exchangeProvider("bybit"),
  statement: statementProvider,
};

/** Whether a grade from these kinds of accounts comes (at least partly) from simulated histories. */
export function isDemoGrade(kinds: Iterable<LinkedAccountKind>, env: Env = getEnv()): boolean {
  for (const kind of kinds) {
    const simulator = ACCOUNT_PROVIDERS[kind].simulator;
    if (simulator && isSimulated(simulator, env)) return true;
  }
  return false;
}
