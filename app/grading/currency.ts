// The currency's part of the return (docs/GRADING.md §5): for a ledger holding other currencies
// than its base, the time-weighted return split into the assets' own move and the currency's,
// (1 + twr) = (1 + localReturn) × (1 + currencyReturn), and realized FX P&L said on its own.
import type { PreparedLedger } from "./columns";
import type { PassResult } from "./pass";

export interface CurrencyFigures {
  baseCurrency?: string;
  currencies?: string[];
  localReturn?: number | null;
  currencyReturn?: number | null;
  fxRealizedPnl?: number;
  fxPnl?: number;
}

/**
 * Each rate change re-values the holdings of its instant (foreign cash and the positions of that
 * currency): its factor is 1 + gain ÷ the equity just before it. currencyReturn chains those
 * factors (the standard currency return of the opening holdings, Karnosky–Singer's currency term
 * in its geometric form); localReturn is what is left of the TWR, the assets' own move at the
 * day's rates. Empty for a ledger all in its base (its output stays byte-identical).
 */
export function currencyFigures(
  c: PreparedLedger,
  pass: PassResult,
  impliedFunding: number | null,
  twr: number | null,
): CurrencyFigures {
  const fx = c.fx;
  if (fx === undefined) return {};
  const out: CurrencyFigures = {};
  if (fx.base !== "USD") out.baseCurrency = fx.base;
  if (fx.currencies.length === 0) return out;
  const shift = impliedFunding ?? 0;
  let factor = 1;
  for (let i = 0; i < pass.fxEquity.length; i++) {
    const e = pass.fxEquity[i] + shift;
    if (e > 0) factor *= Math.max(0, 1 + pass.fxGain[i] / e);
  }
  out.currencies = fx.currencies;
  out.currencyReturn = twr === null ? null : factor - 1;
  out.localReturn = twr === null || factor === 0 ? null : (1 + twr) / factor - 1;
  out.fxRealizedPnl = fx.fxRealizedPnl;
  out.fxPnl = pass.fxPnl;
  return out;
}
