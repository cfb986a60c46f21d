// Warnings about the ledger the pass read: what asOf left out, data gaps, events it could not
// apply, and cash or equity that fell below zero. The other phases add their own in grade()'s order.
import type { PreparedLedger } from "./columns";
import type { PassResult } from "./pass";

/** What asOf left out, the data gaps (at most the first few, then a count), the events' warnings. */
export function ledgerWarnings(c: PreparedLedger, pass: PassResult): string[] {
  const warnings: string[] = [];
  if (c.excludedTrades > 0) warnings.push(`${c.excludedTrades} trade(s) after asOf ${c.asOf} were left out.`);
  if (c.excludedFlows > 0) warnings.push(`${c.excludedFlows} cash flow(s) after asOf ${c.asOf} were left out.`);
  if (c.excludedEvents > 0) warnings.push(`${c.excludedEvents} event(s) after asOf ${c.asOf} were left out.`);
  for (const g of pass.gaps) {
    const { id, symbol, account, what } = rowName(c, g.k);
    warnings.push(
      what === "send"
        ? `Data gap: event ${id} sends ${fmtQty(g.excess)} ${symbol} more than account ${account} held; the excess is left out of P&L and flows.`
        : `Data gap: trade ${id} sells ${fmtQty(g.excess)} ${symbol} more than account ${account} held; crypto cannot be short, so the excess is left out of P&L and cash.`,
    );
  }
  if (pass.gapCount > pass.gaps.length) warnings.push(`… and ${pass.gapCount - pass.gaps.length} more data gap(s).`);
  warnings.push(...pass.eventWarnings);
  return warnings;
}

/** Cash below zero (unless funding was implied), sub-periods left out of the TWR, a loss beyond 100 %. */
export function equityWarnings(pass: PassResult, impliedFunding: number | null): string[] {
  const warnings: string[] = [];
  if (pass.negativeCash && impliedFunding === null)
    warnings.push("Cash fell below zero at times (margin, or deposits missing from the ledger).");
  if (pass.skippedPeriods > 0)
    warnings.push(
      `Equity was ≤ 0 at the start of ${pass.skippedPeriods} sub-period(s); they were left out of the time-weighted return.`,
    );
  if (pass.boundedLoss)
    warnings.push(
      "Equity fell below zero: the ledger implies a loss of more than 100 %, and returns and drawdowns are bounded at −100 %.",
    );
  return warnings;
}

function rowName(
  c: PreparedLedger,
  k: number,
): { id: string; symbol: string; account: string; what: "trade" | "send" } {
  const src = c.src[k];
  const symbol = c.symbols[c.sym[k]];
  const account = c.accounts[c.acc[k]];
  if (src < c.trades.length) return { id: c.trades[src].id, symbol, account, what: "trade" };
  return { id: c.events[src - c.trades.length].id, symbol, account, what: "send" };
}

function fmtQty(x: number): string {
  return String(Number(x.toPrecision(12)));
}
