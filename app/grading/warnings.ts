// Warnings about the ledger the pass read: what asOf left out, data gaps, events it could not
// apply, and cash or equity that fell below zero. The other phases add their own in grade()'s order.
import { ROW_RECEIVE, type PreparedLedger } from "./columns";
import type { PassResult } from "./pass";
import { compareStrings } from "./sort";

/** What asOf left out, the data gaps (at most the first few, then a count), the events' warnings. */
export function ledgerWarnings(c: PreparedLedger, pass: PassResult): string[] {
  const warnings: string[] = c.fx !== undefined ? [...c.fx.notUsed] : [];
  if (c.excludedTrades > 0) warnings.push(`${c.excludedTrades} trade(s) after asOf ${c.asOf} were left out.`);
  if (c.excludedFlows > 0) warnings.push(`${c.excludedFlows} cash flow(s) after asOf ${c.asOf} were left out.`);
  if (c.excludedEvents > 0) warnings.push(`${c.excludedEvents} event(s) after asOf ${c.asOf} were left out.`);
  for (const g of pass.gaps) {
    const { id, symbol, account, what } = rowName(c, g.k);
    warnings.push(
      what === "send" || what === "fee"
        ? `Data gap: event ${id} ${what === "fee" ? "pays" : "sends"} ${fmtQty(g.excess)} ${symbol} more than account ${account} held; the excess is left out of P&L and flows.`
        : `Data gap: trade ${id} sells ${fmtQty(g.excess)} ${symbol} more than account ${account} held; crypto cannot be short, so the excess is left out of P&L and cash.`,
    );
  }
  if (pass.gapCount > pass.gaps.length) warnings.push(`… and ${pass.gapCount - pass.gaps.length} more data gap(s).`);
  warnings.push(...pass.eventWarnings);
  for (const e of c.expired ?? [])
    warnings.push(
      `Data quality: ${e.symbol} in account ${e.account} expired on ${e.expiry} with ${fmtQty(Math.abs(e.quantity))} still ${e.quantity > 0 ? "long" : "short"} and no closing trade; closed at its last price, ${fmtQty(e.price)}, at the end of that day (trade ${e.id}).`,
    );
  const atCost: string[] = [];
  for (let s = 0; s < pass.heldAtCost.length; s++) if (pass.heldAtCost[s] === 1) atCost.push(c.symbols[s]!);
  atCost.sort(compareStrings);
  if (atCost.length > 0)
    warnings.push(
      `Data quality: ${atCost.length} position${atCost.length === 1 ? "" : "s"} valued at cost: no reliable price (${atCost.join(", ")}). A price its source does not vouch for never raises a value.`,
    );
  const early = withdrawalsBeforeDeposit(c);
  if (early !== null) warnings.push(early);
  return warnings;
}

/**
 * Cash withdrawn before any deposit (in cash or in kind) reached the ledger: the money it takes
 * came from deposits missing from the ledger, or from a date typed wrong. A warning, not a
 * refusal: gains traded before it can fund it. Cash is one pool across accounts (§4), so the
 * first deposit of any account counts.
 */
function withdrawalsBeforeDeposit(c: PreparedLedger): string | null {
  const { flowTime, flowAmount } = c;
  let firstDeposit = Infinity;
  for (let i = 0; i < flowTime.length; i++) {
    if (flowAmount[i] > 0) {
      firstDeposit = flowTime[i];
      break;
    }
  }
  if (c.receives > 0) {
    for (let k = 0; k < c.n && c.time[k] < firstDeposit; k++) {
      if (c.row[k] === ROW_RECEIVE) {
        firstDeposit = c.time[k];
        break;
      }
    }
  }
  let count = 0;
  let first = -1;
  for (let i = 0; i < flowTime.length && flowTime[i] < firstDeposit; i++) {
    if (flowAmount[i] < 0) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (count === 0) return null;
  const more = count > 1 ? ` (and ${count - 1} more withdrawal(s) before it)` : "";
  return `Withdrawal of ${fmtQty(-flowAmount[first])} ${c.fx?.base ?? "USD"} on ${new Date(flowTime[first]).toISOString()} before any deposit${more}: deposits may be missing from the ledger.`;
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
): { id: string; symbol: string; account: string; what: "trade" | "send" | "fee" } {
  const src = c.src[k];
  const symbol = c.symbols[c.sym[k]];
  const account = c.accounts[c.acc[k]];
  if (src < c.trades.length) return { id: c.trades[src].id, symbol, account, what: "trade" };
  const e = c.events[src - c.trades.length];
  return { id: e.id, symbol, account, what: e.kind === "fee" ? "fee" : "send" };
}

function fmtQty(x: number): string {
  return String(Number(x.toPrecision(12)));
}
