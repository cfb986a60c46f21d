// Grader engine: pure, deterministic, no I/O. grade() takes a ledger validated by parseLedger.
import { buildColumns, CLASS_NAMES } from "./columns";
import { buildInsights } from "./insights";
import type { Ledger } from "./ledger";
import { matchLots } from "./lots";
import { sweep, xirr, type Flow } from "./returns";
import { riskFigures } from "./risk";
import { percentileOf, scoreMetrics, starsOf, type Tier } from "./score";
import { scratchRaw } from "./scratch";
import { formatDay, MS_PER_DAY } from "./time";
import type { CurvePoint, Evaluation, GradeOptions, Metrics, Position } from "./types";

export const ENGINE_VERSION = "1.0.0";

export { parseLedger, LedgerSchema, formatPath } from "./ledger";
export type { Ledger, LedgerInput, Trade, CashFlow, PriceMark, ParseResult, AssetClass } from "./ledger";
export { canonicalJson, canonicalize, ledgerDigest, canonicalLedger, sha256Hex, roundNumber } from "./canonical";
export { percentileOf, tierOf, starsOf, ramp, ANCHORS, DIMENSION_WEIGHTS } from "./score";
export { xirr } from "./returns";
export { releaseScratch } from "./scratch";
export type { Tier, Dimension } from "./score";
export type { Evaluation, Metrics, Position, Insight, CurvePoint, Stars, GradeOptions } from "./types";

/** Relative size of the break-even band for round trips (see docs/GRADING.md). */
const BREAK_EVEN = 1e-9;

/** Grades a validated ledger. Pure: the same ledger always yields the same evaluation. */
export function grade(ledger: Ledger, options: GradeOptions = {}): Evaluation {
  const warnings: string[] = [];
  const c = buildColumns(ledger);
  const lots = matchLots(c);

  if (c.excludedTrades > 0)
    warnings.push(`${c.excludedTrades} trade(s) after asOf ${c.asOf} were left out.`);
  if (c.excludedFlows > 0)
    warnings.push(`${c.excludedFlows} cash flow(s) after asOf ${c.asOf} were left out.`);
  for (const g of lots.gaps) {
    const tr = ledger.trades[c.src[g.k]];
    warnings.push(
      `Data gap: trade ${tr.id} sells ${fmtQty(g.excess)} ${tr.symbol} more than account ${tr.account} held; crypto cannot be short, so the excess is left out of P&L and cash.`,
    );
  }
  if (lots.gapCount > lots.gaps.length)
    warnings.push(`… and ${lots.gapCount - lots.gaps.length} more crypto data gap(s).`);

  // Flows, or the implied funding.
  const flows: Flow[] = [];
  let impliedFunding: number | null = null;
  if (c.flowTime.length > 0) {
    for (let i = 0; i < c.flowTime.length; i++) flows.push({ time: c.flowTime[i], amount: c.flowAmount[i] });
  } else if (c.n > 0) {
    impliedFunding = Math.max(0, -lots.minCash);
    if (impliedFunding > 0) {
      flows.push({ time: c.time[0], amount: impliedFunding });
      warnings.push(
        `No cash flows: assumed one deposit of ${impliedFunding.toFixed(2)} USD at the first trade (${new Date(c.time[0]).toISOString()}), the smallest that keeps cash ≥ 0 (implied funding).`,
      );
    } else {
      warnings.push("No cash flows, and the trades never needed cash: no capital to measure returns against.");
    }
  }

  const sw = sweep(c, lots, flows);
  const risk = riskFigures(sw.days, sw.index, !Number.isNaN(sw.twrIndex));
  if (sw.negativeCash && c.flowTime.length > 0)
    warnings.push("Cash fell below zero at times (margin, or deposits missing from the ledger).");
  if (sw.skippedPeriods > 0)
    warnings.push(`Equity was ≤ 0 at the start of ${sw.skippedPeriods} sub-period(s); they were left out of the time-weighted return.`);

  // Round trips.
  const rtN = lots.rtCount;
  let wins = 0;
  let losses = 0;
  let sumWin = 0;
  let sumLoss = 0;
  let sumPnl = 0;
  let sumHold = 0;
  let winHold = 0;
  let lossHold = 0;
  let largestLossAmount = 0;
  let largestLoss = -Infinity;
  let lossAtZeroEquity = false;
  for (let i = 0; i < rtN; i++) {
    const p = lots.rtPnl[i];
    const h = lots.rtHoldDays[i];
    sumPnl += p;
    sumHold += h;
    // Break-even band: |P&L| within 1e-9 of the round trip's entry notional is floating noise.
    const band = BREAK_EVEN * lots.rtNotional[i];
    if (p > band) {
      wins++;
      sumWin += p;
      winHold += h;
    } else if (p < -band) {
      losses++;
      sumLoss += p;
      lossHold += h;
      if (-p > largestLossAmount) largestLossAmount = -p;
      const eq = sw.rtEquity[i];
      if (eq > 0) {
        const f = -p / eq;
        if (f > largestLoss) largestLoss = f;
      } else lossAtZeroEquity = true;
    }
  }
  if (lossAtZeroEquity)
    warnings.push("A losing round trip closed with equity ≤ 0; it is left out of largestLoss.");
  const median = medianOf(lots.rtHoldDays);
  const avgWinHold = wins > 0 ? winHold / wins : null;
  const avgLossHold = losses > 0 ? lossHold / losses : null;
  const holdingRatio =
    avgWinHold !== null && avgLossHold !== null && avgWinHold > 0 ? avgLossHold / avgWinHold : null;

  // Open positions and unrealized P&L at asOf.
  const positions: Position[] = [];
  let unrealized = 0;
  for (let p = 0; p < c.nPos; p++) {
    let L = lots.head[p];
    if (L < 0) continue;
    const s = c.posSym[p];
    const mark = sw.markAtAsOf[s];
    const side = lots.posQty[p] > 0 ? 1 : -1;
    let q = 0;
    let cost = 0;
    let u = 0;
    let firstLot = L;
    while (L >= 0) {
      const r = lots.lotRem[L];
      q += r;
      cost += r * c.price[L];
      u += (mark - c.price[L]) * r * side - (c.fee[L] / c.qty[L]) * r;
      L = lots.next[L];
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
  const totalPnl = lots.realizedPnl + unrealized;
  const trackRecordDays = Number.isFinite(c.firstMs) ? Math.max(0, (c.asOfMs - c.firstMs) / MS_PER_DAY) : 0;
  const mwrFlows: Flow[] = flows.map((f) => ({ time: f.time, amount: -f.amount }));
  if (flows.length > 0) mwrFlows.push({ time: c.asOfMs, amount: sw.equityAtAsOf });
  const twr = Number.isNaN(sw.twrIndex) ? null : sw.twrIndex - 1;
  const twrAnnualized =
    twr === null || trackRecordDays <= 0 || 1 + twr < 0 ? null : Math.pow(1 + twr, 365 / trackRecordDays) - 1;

  let concentration: number | null = null;
  let meanEquity = 0;
  if (sw.days.length > 0) {
    let sc = 0;
    for (let i = 0; i < sw.days.length; i++) {
      sc += sw.concentration[i];
      meanEquity += sw.equity[i];
    }
    concentration = sc / sw.days.length;
    meanEquity /= sw.days.length;
  }
  const feeDrag =
    meanEquity > 0 && c.n > 0 ? (lots.fees / meanEquity) * (365 / Math.max(1, trackRecordDays)) : null;
  const symbolsTraded = new Set<number>();
  for (let p = 0; p < c.nPos; p++) symbolsTraded.add(c.posSym[p]);
  const accountsTraded = new Set<number>();
  for (let p = 0; p < c.nPos; p++) accountsTraded.add(c.posAcc[p]);

  const metrics: Metrics = {
    trades: c.n,
    instruments: symbolsTraded.size,
    accounts: accountsTraded.size,
    roundTrips: rtN,
    pieces: lots.pieces,
    realizedPnl: lots.realizedPnl,
    unrealizedPnl: unrealized,
    totalPnl,
    fees: lots.fees,
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
    cash: sw.cash,
    equity: sw.equityAtAsOf,
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

  const curve: CurvePoint[] = new Array(sw.days.length);
  for (let i = 0; i < sw.days.length; i++) {
    curve[i] = { date: formatDay(sw.days[i]), equity: sw.equity[i], index: sw.index[i], drawdown: risk.drawdown[i] };
  }

  let evaluation: Evaluation;
  if (c.n === 0) {
    warnings.unshift(
      ledger.trades.length === 0
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

/** Median by quickselect on a scratch copy (O(n); the input is left untouched). */
function medianOf(values: Float64Array): number | null {
  const n = values.length;
  if (n === 0) return null;
  const a = scratchRaw("median", "f64", n);
  a.set(values);
  const hi = select(a, n >> 1);
  if (n % 2 === 1) return hi;
  // The lower middle is the largest element left of position n/2 after selection.
  let lo = -Infinity;
  for (let i = 0; i < n >> 1; i++) if (a[i] > lo) lo = a[i];
  return (lo + hi) / 2;
}

/** Hoare-style quickselect: the k-th smallest (0-based); partitions `a` in place. */
function select(a: Float64Array, k: number): number {
  let left = 0;
  let right = a.length - 1;
  while (right > left) {
    const pivot = a[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fmtQty(x: number): string {
  return String(Number(x.toPrecision(12)));
}
