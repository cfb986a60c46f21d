// The investor's flows (cash flows and flows in kind, in time order), or, without any, the implied
// funding: one deposit at the first trade, the smallest that keeps cash ≥ 0 (GRADING.md §4).
import type { PreparedLedger } from "./columns";
import { addInitialDeposit, type PassResult } from "./pass";
import type { Flow } from "./returns";

export interface Funding {
  flows: Flow[];
  /** The implied deposit (0 when the trades never needed cash); null when the ledger has flows or no trades. */
  impliedFunding: number | null;
}

/** The flows; an implied deposit is added to the pass (its cash, equity and index) and warned of. */
export function fundingOf(c: PreparedLedger, pass: PassResult, warnings: string[]): Funding {
  const flows = mergeFlows(c.flowTime, c.flowAmount, pass.inKindTime, pass.inKindAmount);
  let impliedFunding: number | null = null;
  if (flows.length === 0 && c.n > 0) {
    impliedFunding = Math.max(0, -pass.minCash);
    if (impliedFunding > 0) {
      addInitialDeposit(pass, impliedFunding);
      flows.push({ time: c.time[0], amount: impliedFunding });
      warnings.push(
        `No cash flows: assumed one deposit of ${impliedFunding.toFixed(2)} ${c.fx?.base ?? "USD"} at the first trade (${new Date(c.time[0]).toISOString()}), the smallest that keeps cash ≥ 0 (implied funding).`,
      );
    } else {
      warnings.push("No cash flows, and the trades never needed cash: no capital to measure returns against.");
    }
  }
  return { flows, impliedFunding };
}

/** Cash flows and flows in kind, merged by time (cash flows first at one instant). */
function mergeFlows(ft: Float64Array, fa: Float64Array, kt: number[], ka: number[]): Flow[] {
  const out: Flow[] = [];
  let i = 0;
  let j = 0;
  while (i < ft.length || j < kt.length) {
    if (j >= kt.length || (i < ft.length && ft[i] <= kt[j])) out.push({ time: ft[i], amount: fa[i++] });
    else out.push({ time: kt[j], amount: ka[j++] });
  }
  return out;
}
