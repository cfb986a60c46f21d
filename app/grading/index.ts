// Grader engine: pure, deterministic, no I/O. grade() takes a ledger validated by parseLedger,
// or that ledger already prepared (columnar) by prepareLedger.
import { CLASS_NAMES, prepareLedger, type PreparedLedger } from "./columns";
import { buildInsights } from "./insights";
import type { Ledger } from "./ledger";
import { addInitialDeposit, ledgerPass, LOT_FIELDS, LOT_REM } from "./pass";
import { xirr, type Flow } from "./returns";
import { riskFigures } from "./risk";
import { percentileOf, scoreMetrics, starsOf, type Tier } from "./score";
import { medianOf } from "./median";
import { formatDay, MS_PER_DAY } from "./time";
import type { CurvePoint, Evaluation, GradeOptions, Metrics, Position } from "./types";

export const ENGINE_VERSION = "1.0.0";

export { parseLedger, LedgerSchema, formatPath } from "./ledger";
export { prepareLedger, type PreparedLedger } from "./columns";
export type { Ledger, LedgerInput, Trade, CashFlow, PriceMark, ParseResult, AssetClass } from "./ledger";
export { canonicalJson, canonicalize, ledgerDigest, canonicalLedger, sha256Hex, roundNumber } from "./canonical";
export { percentileOf, tierOf, starsOf, ramp, ANCHORS, DIMENSION_WEIGHTS } from "./score";
export { xirr } from "./returns";
export { releaseScratch } from "./scratch";
export type { Tier, Dimension } from "./score";
export type { Evaluation, Metrics, Position, Insight, CurvePoint, Stars, GradeOptions } from "./types";

/** Relative size of the break-even band for round trips (see docs/GRADING.md). */
const BREAK_EVEN = 1e-9;

/**
 * Grades a validated ledger (prepared here when it is not yet). Pure: the same ledger always
 * yields the same evaluation.
 */
export function grade(ledger: Ledger | PreparedLedger, options: GradeOptions = {}): Evaluation {
  const warnings: string[] = [];
  const c = "kind" in ledger ? ledger : prepareLedger(ledger, true);
  const pass = ledgerPass(c);

  if (c.excludedTrades > 0)
    warnings.push(`${c.excludedTrades} trade(s) after asOf ${c.asOf} were left out.`);
  if (c.excludedFlows > 0)
    warnings.push(`${c.excludedFlows} cash flow(s) after asOf ${c.asOf} were left out.`);
  for (const g of pass.gaps) {
    const tr = c.trades[c.src[g.k]];
    warnings.push(
      `Data gap: trade ${tr.id} sells ${fmtQty(g.excess)} ${tr.symbol} more than account ${tr.account} held; crypto cannot be short, so the excess is left out of P&L and cash.`,
    );
  }
  if (pass.gapCount > pass.gaps.length)
    warnings.push(`… and ${pass.gapCount - pass.gaps.length} more crypto data gap(s).`);

  // Flows, or the implied funding.
  const flows: Flow[] = [];
  let impliedFunding: number | null = null;
  if (c.flowTime.length > 0) {
    for (let i = 0; i < c.flowTime.length; i++) flows.push({ time: c.flowTime[i], amount: c.flowAmount[i] });
  } else if (c.n > 0) {
    impliedFunding = Math.max(0, -pass.minCash);
    if (impliedFunding > 0) {
      addInitialDeposit(pass, impliedFunding);
      flows.push({ time: c.time[0], amount: impliedFunding });
      warnings.push(
        `No cash flows: assumed one deposit of ${impliedFunding.toFixed(2)} USD at the first trade (${new Date(c.time[0]).toISOString()}), the smallest that keeps cash ≥ 0 (implied funding).`,
      );
    } else {
      warnings.push("No cash flows, and the trades never needed cash: no capital to measure returns against.");
    }
  }

  const risk = riskFigures(pass.days, pass.index, !Number.isNaN(pass.twrIndex));
  if (pass.negativeCash && c.flowTime.length > 0)
    warnings.push("Cash fell below zero at times (margin, or deposits missing from the ledger).");
  if (pass.skippedPeriods > 0)
    warnings.push(`Equity was ≤ 0 at the start of ${pass.skippedPeriods} sub-period(s); they were left out of the time-weighted return.`);

  // Round trips.
  const rtN = pass.rtCount;
  const { wins, losses, sumWin, sumLoss, sumPnl, sumHold, winHold, lossHold, largestLossAmount, largestLoss, lossAtZeroEquity } =
    roundTripStats(pass.rtPnl, pass.rtHoldDays, pass.rtNotional, pass.rtEquity);
  if (lossAtZeroEquity)
    warnings.push("A losing round trip closed with equity ≤ 0; it is left out of largestLoss.");
  const median = medianOf(pass.rtHoldDays);
  const avgWinHold = wins > 0 ? winHold / wins : null;
  const avgLossHold = losses > 0 ? lossHold / losses : null;
  const holdingRatio =
    avgWinHold !== null && avgLossHold !== null && avgWinHold > 0 ? avgLossHold / avgWinHold : null;

  // Open positions and unrealized P&L at asOf.
  const positions: Position[] = [];
  let unrealized = 0;
  for (let p = 0; p < c.nPos; p++) {
    let L = pass.head[p];
    if (L < 0) continue;
    const s = c.posSym[p];
    const mark = pass.markAtAsOf[s];
    const side = pass.posQty[p] > 0 ? 1 : -1;
    let q = 0;
    let cost = 0;
    let u = 0;
    let firstLot = L;
    while (L >= 0) {
      const r = pass.lots[L * LOT_FIELDS + LOT_REM];
      q += r;
      cost += r * c.price[L];
      u += (mark - c.price[L]) * r * side - (c.fee[L] / c.qty[L]) * r;
      L = pass.next[L];
    }
    unrealized += u;
    positions.push({
      account: c.accounts[c.posAcc[p]],
      symbol: c.symbols[s],
      assetClass: CLASS_NAMES[c.cls[firstLot]],
      quantity: side * q,
      avgCost: q > 0 ? cost / q : 0,
      mark,
      marketValue: side * q * mark,
      unrealizedPnl: u,
    });
  }
  positions.sort((a, b) => cmp(a.account, b.account) || cmp(a.symbol, b.symbol));

  // Flows, returns.
  let deposits = 0;
  let withdrawals = 0;
  for (const f of flows) {
    if (f.amount > 0) deposits += f.amount;
    else withdrawals -= f.amount;
  }
  const totalPnl = pass.realizedPnl + unrealized;
  const trackRecordDays = Number.isFinite(c.firstMs) ? Math.max(0, (c.asOfMs - c.firstMs) / MS_PER_DAY) : 0;
  const mwrFlows: Flow[] = flows.map((f) => ({ time: f.time, amount: -f.amount }));
  if (flows.length > 0) mwrFlows.push({ time: c.asOfMs, amount: pass.equityAtAsOf });
  const twr = Number.isNaN(pass.twrIndex) ? null : pass.twrIndex - 1;
  const twrAnnualized =
    twr === null || trackRecordDays <= 0 || 1 + twr < 0 ? null : Math.pow(1 + twr, 365 / trackRecordDays) - 1;

  let concentration: number | null = null;
  let meanEquity = 0;
  if (pass.days.length > 0) {
    let sc = 0;
    for (let i = 0; i < pass.days.length; i++) {
      sc += pass.concentration[i];
      meanEquity += pass.equity[i];
    }
    concentration = sc / pass.days.length;
    meanEquity /= pass.days.length;
  }
  const feeDrag =
    meanEquity > 0 && c.n > 0 ? (pass.fees / meanEquity) * (365 / Math.max(1, trackRecordDays)) : null;
  const symbolsTraded = new Set<number>();
  for (let p = 0; p < c.nPos; p++) symbolsTraded.add(c.posSym[p]);
  const accountsTraded = new Set<number>();
  for (let p = 0; p < c.nPos; p++) accountsTraded.add(c.posAcc[p]);

  const metrics: Metrics = {
    trades: c.n,
    instruments: symbolsTraded.size,
    accounts: accountsTraded.size,
    roundTrips: rtN,
    pieces: pass.pieces,
    realizedPnl: pass.realizedPnl,
    unrealizedPnl: unrealized,
    totalPnl,
    fees: pass.fees,
    winRate: rtN > 0 ? wins / rtN : null,
    profitFactor: losses > 0 ? sumWin / -sumLoss : null,
    expectancy: rtN > 0 ? sumPnl / rtN : null,
    avgHoldingDays: rtN > 0 ? sumHold / rtN : null,
    medianHoldingDays: median,
    avgWin: wins > 0 ? sumWin / wins : null,
    avgLoss: losses > 0 ? sumLoss / losses : null,
    avgWinHoldingDays: avgWinHold,
    avgLossHoldingDays: avgLossHold,
    holdingRatio,
    largestLossAmount: losses > 0 ? largestLossAmount : null,
    tailLossRatio: losses >= 3 ? largestLossAmount / (-sumLoss / losses) : null,
    deposits,
    withdrawals,
    impliedFunding,
    cash: pass.cash,
    equity: pass.equityAtAsOf,
    simpleReturn: deposits > 0 ? totalPnl / deposits : null,
    mwr: flows.length > 0 ? xirr(mwrFlows) : null,
    twr,
    twrAnnualized,
    maxDrawdown: risk.maxDrawdown,
    volatility: risk.volatility,
    sharpe: risk.sharpe,
    sortino: risk.sortino,
    largestLoss: largestLoss === -Infinity ? (rtN > 0 && !lossAtZeroEquity ? 0 : null) : largestLoss,
    concentration,
    positiveMonths: risk.positiveMonths,
    months: risk.months,
    trackRecordDays,
    feeDrag,
  };

  const curve: CurvePoint[] = new Array(pass.days.length);
  for (let i = 0; i < pass.days.length; i++) {
    curve[i] = { date: formatDay(pass.days[i]), equity: pass.equity[i], index: pass.index[i], drawdown: risk.drawdown[i] };
  }

  let evaluation: Evaluation;
  if (c.n === 0) {
    warnings.unshift(
      c.trades.length === 0
        ? "Empty ledger: no trades, so there is nothing to grade."
        : "No trades at or before asOf: nothing to grade.",
    );
    evaluation = {
      engineVersion: ENGINE_VERSION,
      asOf: c.asOf,
      tier: null,
      score: null,
      stars: null,
      confidence: 0,
      provisional: true,
      metrics,
      dimensions: null,
      positions,
      curve,
      insights: [],
      warnings,
    };
  } else {
    const s = scoreMetrics(metrics);
    const d = s.dimensions;
    evaluation = {
      engineVersion: ENGINE_VERSION,
      asOf: c.asOf,
      tier: s.tier as Tier,
      score: s.score,
      stars: {
        overall: starsOf(s.score),
        profitability: starsOf(d.profitability),
        riskControl: starsOf(d.riskControl),
        consistency: starsOf(d.consistency),
        discipline: starsOf(d.discipline),
        experience: starsOf(d.experience),
      },
      confidence: s.confidence,
      provisional: s.provisional,
      metrics,
      dimensions: d,
      positions,
      curve,
      insights: buildInsights(metrics, s),
      warnings,
    };
  }
  if (options.population !== undefined)
    evaluation.percentile = evaluation.score === null ? null : percentileOf(evaluation.score, options.population);
  return evaluation;
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
  /** Largest loss as a fraction of equity at its close (-Infinity when none). */
  largestLoss: number;
  lossAtZeroEquity: boolean;
}

/** Sums over the round trips (a function of its own so V8 optimises the loop; grade() runs once per call). */
function roundTripStats(pnl: Float64Array, hold: Float64Array, notional: Float64Array, equityAtClose: Float64Array): RoundTripStats {
  // Loop-carried doubles in a typed array (as locals V8 would box them on every update).
  const sums = new Float64Array(8); // sumWin, sumLoss, sumPnl, sumHold, winHold, lossHold, largestLossAmount, largestLoss
  sums[7] = -Infinity;
  let wins = 0;
  let losses = 0;
  let lossAtZeroEquity = false;
  for (let i = 0; i < pnl.length; i++) {
    const p = pnl[i];
    const h = hold[i];
    sums[2] += p;
    sums[3] += h;
    // Break-even band: |P&L| within 1e-9 of the round trip's entry notional is floating noise.
    const band = BREAK_EVEN * notional[i];
    if (p > band) {
      wins++;
      sums[0] += p;
      sums[4] += h;
    } else if (p < -band) {
      losses++;
      sums[1] += p;
      sums[5] += h;
      if (-p > sums[6]) sums[6] = -p;
      const eq = equityAtClose[i];
      if (eq > 0) {
        const f = -p / eq;
        if (f > sums[7]) sums[7] = f;
      } else lossAtZeroEquity = true;
    }
  }
  return {
    wins,
    losses,
    sumWin: sums[0],
    sumLoss: sums[1],
    sumPnl: sums[2],
    sumHold: sums[3],
    winHold: sums[4],
    lossHold: sums[5],
    largestLossAmount: sums[6],
    largestLoss: sums[7],
    lossAtZeroEquity,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fmtQty(x: number): string {
  return String(Number(x.toPrecision(12)));
}
