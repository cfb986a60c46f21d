// Exposure over the active days: concentration, fee drag, leverage, and what was traded.
import { isTradeRow, type PreparedLedger } from "./columns";
import type { PassResult } from "./pass";
import type { Metrics } from "./types";

/** Leverage reported when a trade leaves exposure on equity ≤ 0 (unbounded otherwise). */
export const LEVERAGE_CAP = 1000;
const YEAR_DAYS = 365;

export type ExposureFigures = Pick<Metrics, "instruments" | "accounts" | "concentration" | "feeDrag" | "maxLeverage">;

/** The figures, and a warning when leverage is capped. */
export function exposureFigures(
  c: PreparedLedger,
  pass: PassResult,
  activeDays: number,
  impliedFunding: number | null,
  warnings: string[],
): ExposureFigures {
  let concentration: number | null = null;
  let meanEquity = 0;
  if (activeDays > 0) {
    let sc = 0;
    for (let i = 0; i < pass.days.length; i++) {
      if (pass.active[i] === 0) continue;
      sc += pass.concentration[i];
      meanEquity += pass.equity[i];
    }
    concentration = sc / activeDays;
    meanEquity /= activeDays;
  }
  const feeDrag = meanEquity > 0 && c.n > 0 ? (pass.fees / meanEquity) * (YEAR_DAYS / Math.max(1, activeDays)) : null;
  // With implied funding the pass's running figure predates the deposit: measured again after it.
  const maxLeverage =
    c.n === 0
      ? null
      : Math.min(
          LEVERAGE_CAP,
          impliedFunding !== null ? maxLeverageOf(pass.tradeGross, pass.tradeEquity) : pass.maxLeverage,
        );
  if (maxLeverage === LEVERAGE_CAP)
    warnings.push(`A trade left positions open on equity ≤ 0; leverage is reported as ${LEVERAGE_CAP}×.`);
  const untraded = inKindOnly(c);
  const symbolsTraded = new Set<number>();
  const accountsTraded = new Set<number>();
  for (let p = 0; p < pass.nPos; p++) {
    if (untraded !== null && untraded[pass.posSym[p]] === 1) continue;
    symbolsTraded.add(pass.posSym[p]);
    accountsTraded.add(pass.posAcc[p]);
  }
  return { instruments: symbolsTraded.size, accounts: accountsTraded.size, concentration, feeDrag, maxLeverage };
}

/** How many rows are moves in kind (receives, sends, fees and income in kind), not trades. */
export function inKindRows(c: PreparedLedger): number {
  return c.receives + c.sends + c.inKindFees + c.inKindIncome;
}

/**
 * 1 for a symbol that only moves in kind (a token received or airdropped, never traded): not an
 * instrument traded. Null when every row is a trade.
 */
function inKindOnly(c: PreparedLedger): Uint8Array | null {
  if (inKindRows(c) === 0) return null;
  const nSym = c.symbols.length;
  const seen = new Uint8Array(nSym); // 1 moved in kind, 2 traded
  for (let k = 0; k < c.n; k++) {
    const s = c.sym[k];
    if (isTradeRow(c.row[k])) seen[s] = 2;
    else if (seen[s] === 0) seen[s] = 1;
  }
  for (let s = 0; s < nSym; s++) seen[s] = seen[s] === 1 ? 1 : 0;
  return seen;
}

/** Largest gross exposure ÷ equity after any trade ({@link LEVERAGE_CAP} when equity ≤ 0 with exposure). */
function maxLeverageOf(gross: Float64Array, equity: Float64Array): number {
  let max = 0;
  for (let k = 0; k < gross.length; k++) {
    const g = gross[k];
    if (!(g > 0)) continue;
    const eq = equity[k];
    const l = eq > 0 ? g / eq : LEVERAGE_CAP;
    if (l > max) max = l;
  }
  return max > LEVERAGE_CAP ? LEVERAGE_CAP : max;
}
