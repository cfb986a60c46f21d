// The report's sentence on the currency's part of the return (docs/GRADING.md §5), shown only when
// the grade holds another currency than its base. Plain data and strings: safe for the browser.
import { CURRENCY_SHORT_NAMES } from "./currencies";
import { formatMetric } from "./metrics";

/** "the euro", or the code itself for a currency without a common English name here. */
function named(code: string): string {
  const name = CURRENCY_SHORT_NAMES[code];
  return name === undefined ? code : `the ${name}`;
}

/**
 * "Of +12.4%, −1.8% came from the currency: the dollar's fall against the euro." null when the
 * grade has no currency split (a ledger all in its base currency, or no return to split). The
 * direction is what the moves did to the record (held long, a currency that falls costs).
 */
export function currencySplitSentence(m: {
  twr: number | null;
  currencyReturn?: number | null;
  currencies?: string[];
  baseCurrency?: string;
}): string | null {
  const c = m.currencyReturn;
  if (c === undefined || c === null || m.twr === null || !m.currencies || m.currencies.length === 0) return null;
  const base = named(m.baseCurrency ?? "USD");
  const moved = c < 0 ? "fall" : "rise";
  const which =
    m.currencies.length === 1
      ? `${named(m.currencies[0]!)}'s ${moved} against ${base}`
      : `the moves of ${m.currencies.join(", ")} against ${base}`;
  if (c === 0) return `Of ${formatMetric("twr", m.twr)}, none came from the currency.`;
  return `Of ${formatMetric("twr", m.twr)}, ${formatMetric("currencyReturn", c)} came from the currency: ${which}.`;
}
