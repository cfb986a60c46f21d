// Round trips (GRADING.md §3): their metrics, and the list the journal shows.
import type { PreparedLedger } from "./columns";
import { ASSET_CLASSES } from "./ledger";
import { medianOf } from "./median";
import type { PassResult } from "./pass";
import type { Metrics, RoundTrip } from "./types";

/** Relative size of the break-even band for round trips (see docs/GRADING.md). */
const BREAK_EVEN = 1e-9;

export type RoundTripMetrics = Pick<
  Metrics,
  | "roundTrips"
  | "winRate"
  | "profitFactor"
  | "expectancy"
  | "avgHoldingDays"
  | "medianHoldingDays"
  | "avgWin"
  | "avgLoss"
  | "avgWinHoldingDays"
  | "avgLossHoldingDays"
  | "holdingRatio"
  | "largestLossAmount"
  | "tailLossRatio"
  | "largestLoss"
>;

/** The round-trip metrics of the pass's completed round trips. */
export function roundTripMetrics(pass: PassResult): RoundTripMetrics {
  const rtN = pass.rtCount;
  const { wins, losses, sumWin, sumLoss, sumPnl, sumHold, winHold, lossHold, largestLossAmount, largestLoss } =
    roundTripStats(pass.rtPnl, pass.rtHoldDays, pass.rtNotional, pass.rtOpenEquity);
  const median = medianOf(pass.rtHoldDays);
  const avgWinHold = wins > 0 ? winHold / wins : null;
  const avgLossHold = losses > 0 ? lossHold / losses : null;
  return {
    roundTrips: rtN,
    winRate: rtN > 0 ? wins / rtN : null,
    profitFactor: losses > 0 ? sumWin / -sumLoss : null,
    expectancy: rtN > 0 ? sumPnl / rtN : null,
    avgHoldingDays: rtN > 0 ? sumHold / rtN : null,
    medianHoldingDays: median,
    avgWin: wins > 0 ? sumWin / wins : null,
    avgLoss: losses > 0 ? sumLoss / losses : null,
    avgWinHoldingDays: avgWinHold,
    avgLossHoldingDays: avgLossHold,
    holdingRatio: avgWinHold !== null && avgLossHold !== null && avgWinHold > 0 ? avgLossHold / avgWinHold : null,
    largestLossAmount: losses > 0 ? largestLossAmount : null,
    tailLossRatio: losses >= 3 ? largestLossAmount / (-sumLoss / losses) : null,
    largestLoss: losses > 0 ? largestLoss : rtN > 0 ? 0 : null,
  };
}

/** The completed round trips in closing order (the grade's journal: what the round-trip metrics count). */
export function roundTripList(c: PreparedLedger, pass: PassResult): RoundTrip[] {
  const out: RoundTrip[] = new Array(pass.rtCount);
  for (let i = 0; i < pass.rtCount; i++) {
    const p = pass.rtPos[i];
    const s = pass.posSym[p];
    const notional = pass.rtNotional[i];
    out[i] = {
      account: c.accounts[pass.posAcc[p]],
      symbol: c.symbols[s],
      assetClass: ASSET_CLASSES[c.symCls[s]],
      side: pass.rtSide[i] > 0 ? "long" : "short",
      openTime: new Date(pass.rtOpenTime[i]).toISOString(),
      closeTime: new Date(pass.rtClose[i]).toISOString(),
      holdingDays: pass.rtHoldDays[i],
      entryNotional: notional,
      pnl: pass.rtPnl[i],
      return: notional > 0 ? pass.rtPnl[i] / notional : null,
    };
  }
  return out;
}

interface RoundTripStats {
  wins: number;
  losses: number;
  sumWin: number;
  sumLoss: number;
  sumPnl: number;
  sumHold: number;
  winHold: number;
  lossHold: number;
  largestLossAmount: number;
  /** Largest loss ÷ equity before the trip opened (1 when that equity ≤ 0); 0 when none. */
  largestLoss: number;
}

/** Sums over the round trips. */
function roundTripStats(
  pnl: Float64Array,
  hold: Float64Array,
  notional: Float64Array,
  equityAtOpen: Float64Array,
): RoundTripStats {
  // sumWin, sumLoss, sumPnl, sumHold, winHold, lossHold, largestLossAmount, largestLoss, wins, losses
  const sums = new Float64Array(10);
  roundTripSums(pnl, hold, notional, equityAtOpen, sums);
  return {
    wins: sums[8],
    losses: sums[9],
    sumWin: sums[0],
    sumLoss: sums[1],
    sumPnl: sums[2],
    sumHold: sums[3],
    winHold: sums[4],
    lossHold: sums[5],
    largestLossAmount: sums[6],
    largestLoss: sums[7],
  };
}

/**
 * The loop of roundTripStats, alone in its function: called once per grade, a loop followed by
 * more code is run as on-stack-replaced code that V8 threw away at that code, every grade.
 */
function roundTripSums(
  pnl: Float64Array,
  hold: Float64Array,
  notional: Float64Array,
  equityAtOpen: Float64Array,
  sums: Float64Array,
): void {
  const breakEven = BREAK_EVEN; // a local: a module constant is re-read and checked at each use
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < pnl.length; i++) {
    const p = pnl[i];
    const h = hold[i];
    sums[2] += p;
    sums[3] += h;
    // Break-even band: |P&L| within 1e-9 of the round trip's entry notional is floating noise.
    const band = breakEven * notional[i];
    if (p > band) {
      wins++;
      sums[0] += p;
      sums[4] += h;
    } else if (p < -band) {
      losses++;
      sums[1] += p;
      sums[5] += h;
      if (-p > sums[6]) sums[6] = -p;
      const eq = equityAtOpen[i];
      const f = eq > 0 ? -p / eq : 1;
      if (f > sums[7]) sums[7] = f;
    }
  }
  sums[8] = wins;
  sums[9] = losses;
}
