// Grader engine: pure, deterministic, no I/O. grade() takes a ledger validated by parseLedger,
// or that ledger already prepared (columnar) by prepareLedger.
import { CRYPTO, prepareLedger, type PreparedLedger } from "./columns";
import { ASSET_CLASSES } from "./ledger";
import { buildInsights } from "./insights";
import type { Ledger } from "./ledger";
import { addInitialDeposit, ledgerPass, LOT_FEE_PU, LOT_FIELDS, LOT_PRICE, LOT_REM } from "./pass";
import { xirr, type Flow } from "./returns";
import { equityTolerance, riskFigures } from "./risk";
import { percentileOf, scoreMetrics, starsOf, tierStars, type Tier } from "./score";
import { benchmarkFigures, benchmarkReturn, benchmarkSeries, skillFigures } from "./stats";
import { medianOf } from "./median";
import { formatIsoDay, MS_PER_DAY } from "./time";
import type { BenchmarkMetrics, CurvePoint, Evaluation, GradeOptions, Metrics, Position, RoundTrip } from "./types";
import { ENGINE_VERSION } from "./version";

export { ENGINE_VERSION, ENGINE_CHANGELOG } from "./version";

export { parseLedger, LedgerSchema, formatPath } from "./ledger";
export { prepareLedger, withBenchmarkColumns, type PreparedLedger } from "./columns";
export type {
  Ledger,
  LedgerInput,
  Trade,
  CashFlow,
  PriceMark,
  ParseResult,
  AssetClass,
  LedgerEvent,
  Benchmark,
} from "./ledger";
export { MAX_SPAN_YEARS } from "./ledger";
export { normalCdf, skillFigures } from "./stats";
export {
  canonicalJson,
  canonicalize,
  ledgerDigest,
  canonicalLedger,
  canonicalLedgerBytes,
  canonicalLedgerParts,
  type LedgerTextParts,
  sha256Hex,
  roundNumber,
} from "./canonical";
export { percentileOf, tierOf, starsOf, tierStars, ramp, ANCHORS, DIMENSION_WEIGHTS } from "./score";
export { xirr } from "./returns";
export { releaseScratch } from "./scratch";
export type { Tier, Dimension } from "./score";
export type {
  Evaluation,
  Metrics,
  Position,
  Insight,
  CurvePoint,
  Stars,
  GradeOptions,
  BenchmarkMetrics,
  RoundTrip,
} from "./types";

/** Relative size of the break-even band for round trips (see docs/GRADING.md). */
const BREAK_EVEN = 1e-9;
/** Leverage reported when a trade leaves exposure on equity ≤ 0 (unbounded otherwise). */
export const LEVERAGE_CAP = 1000;
const YEAR_DAYS = 365;

/**
 * Grades a validated ledger (prepared here when it is not yet). Pure: the same ledger always
 * yields the same evaluation.
 */
export function grade(ledger: Ledger | PreparedLedger, options: GradeOptions = {}): Evaluation {
  const warnings: string[] = [];
  const c = "kind" in ledger ? ledger : prepareLedger(ledger, true);
  const pass = ledgerPass(c);

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

  // Flows (cash and in kind, in time order), or the implied funding.
  const flows: Flow[] = mergeFlows(c.flowTime, c.flowAmount, pass.inKindTime, pass.inKindAmount);
  let impliedFunding: number | null = null;
  if (flows.length === 0 && c.n > 0) {
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

  const hasCapital = !Number.isNaN(pass.twrIndex);
  const risk = riskFigures(
    pass.days,
    pass.index,
    hasCapital,
    pass.active,
    equityTolerance(pass.dayCash, pass.dayValue),
  );
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

  // Round trips.
  const rtN = pass.rtCount;
  const { wins, losses, sumWin, sumLoss, sumPnl, sumHold, winHold, lossHold, largestLossAmount, largestLoss } =
    roundTripStats(pass.rtPnl, pass.rtHoldDays, pass.rtNotional, pass.rtOpenEquity);
  const median = medianOf(pass.rtHoldDays);
  const avgWinHold = wins > 0 ? winHold / wins : null;
  const avgLossHold = losses > 0 ? lossHold / losses : null;
  const holdingRatio = avgWinHold !== null && avgLossHold !== null && avgWinHold > 0 ? avgLossHold / avgWinHold : null;

  // Open positions and unrealized P&L at asOf.
  const positions: Position[] = [];
  let unrealized = 0;
  for (let p = 0; p < pass.nPos; p++) {
    let L = pass.head[p];
    if (L < 0) continue;
    const s = pass.posSym[p];
    const mark = pass.markAtAsOf[s];
    const side = pass.posQty[p] > 0 ? 1 : -1;
    let q = 0;
    let cost = 0;
    let u = 0;
    while (L >= 0) {
      const o = L * LOT_FIELDS;
      const r = pass.lots[o + LOT_REM];
      const entry = pass.lots[o + LOT_PRICE];
      q += r;
      cost += r * entry;
      u += (mark - entry) * r * side - pass.lots[o + LOT_FEE_PU] * r;
      L = pass.next[L];
    }
    unrealized += u;
    positions.push({
      account: c.accounts[pass.posAcc[p]],
      symbol: c.symbols[s],
      assetClass: ASSET_CLASSES[c.symCls[s]],
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
  const totalPnl = pass.realizedPnl + unrealized + pass.income - pass.accountFees;
  const trackRecordDays = Number.isFinite(c.firstMs) ? Math.max(0, (c.asOfMs - c.firstMs) / MS_PER_DAY) : 0;
  const fullYear = trackRecordDays >= YEAR_DAYS;
  let activeDays = 0;
  for (let i = 0; i < pass.active.length; i++) activeDays += pass.active[i];
  const twr = hasCapital ? Math.max(-1, pass.twrIndex - 1) : null;
  const twrAnnualized = twr === null || !fullYear ? null : Math.pow(1 + twr, YEAR_DAYS / trackRecordDays) - 1;
  const mwrRate = moneyWeighted(flows, c.asOfMs, pass.equityAtAsOf, deposits);
  const flowDays = flows.length > 0 ? Math.max(0, (c.asOfMs - flows[0].time) / MS_PER_DAY) : 0;
  const mwrCumulative = mwrRate === null ? null : mwrRate <= -1 ? -1 : Math.pow(1 + mwrRate, flowDays / YEAR_DAYS) - 1;
  let simpleReturn = deposits > 0 ? totalPnl / deposits : null;
  if (simpleReturn !== null && simpleReturn < -1) simpleReturn = -1;

  // Concentration and fee drag over the active days.
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
  const maxLeverage =
    c.n === 0
      ? null
      : Math.min(
          LEVERAGE_CAP,
          impliedFunding !== null ? maxLeverageOf(pass.tradeGross, pass.tradeEquity) : pass.maxLeverage,
        );
  if (maxLeverage === LEVERAGE_CAP)
    warnings.push(`A trade left positions open on equity ≤ 0; leverage is reported as ${LEVERAGE_CAP}×.`);
  const symbolsTraded = new Set<number>();
  const accountsTraded = new Set<number>();
  for (let p = 0; p < pass.nPos; p++) {
    symbolsTraded.add(pass.posSym[p]);
    accountsTraded.add(pass.posAcc[p]);
  }

  // Skill and the benchmark, over the active days.
  const skill = hasCapital ? skillFigures(risk.activeReturns) : { psr: null, minTrackRecordDays: null };
  const bench = hasCapital ? benchmarkSeries(c.benchTime, c.benchPrice, c.firstMs, pass.days, c.asOfMs) : null;
  let benchmark: BenchmarkMetrics | null = null;
  let scoredBenchmark: number | null = null;
  if (bench !== null && c.benchSymbol !== null) {
    const rB = new Float64Array(risk.activeAt.length);
    for (let j = 0; j < rB.length; j++) {
      const i = risk.activeAt[j];
      rB[j] = bench.index[i] / (i === 0 ? 1 : bench.index[i - 1]) - 1;
    }
    const bf = benchmarkFigures(risk.activeReturns, rB, fullYear);
    // Scored against the market from the first money in (a trade before any deposit is no record).
    const funded = flows.find((f) => f.amount > 0)?.time ?? c.firstMs;
    scoredBenchmark = benchmarkReturn(c.benchTime, c.benchPrice, Math.max(funded, c.firstMs), c.asOfMs);
    benchmark = {
      symbol: c.benchSymbol,
      return: bench.periodReturn,
      excess: twr === null ? null : twr - bench.periodReturn,
      beta: bf.beta,
      alpha: bf.alpha,
    };
    if (c.benchTime[0] > c.firstMs)
      warnings.push(
        `The benchmark series starts after the first activity; its first close stands in before ${new Date(c.benchTime[0]).toISOString().slice(0, 10)}.`,
      );
  }

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
    accountFees: pass.accountFees,
    income: pass.income,
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
    simpleReturn,
    mwr: fullYear ? mwrRate : null,
    mwrCumulative,
    twr,
    twrAnnualized,
    maxDrawdown: risk.maxDrawdown,
    volatility: risk.volatility,
    sharpe: risk.sharpe,
    sortino: risk.sortino,
    largestLoss: losses > 0 ? largestLoss : rtN > 0 ? 0 : null,
    maxLeverage,
    concentration,
    positiveMonths: risk.positiveMonths,
    months: risk.months,
    trackRecordDays,
    activeDays,
    feeDrag,
    psr: skill.psr,
    minTrackRecordDays: skill.minTrackRecordDays,
    benchmark,
  };

  const curve: CurvePoint[] = new Array(pass.days.length);
  for (let i = 0; i < pass.days.length; i++) {
    const pnl = pass.equity[i] - (i > 0 ? pass.equity[i - 1] : 0) - pass.dayFlow[i];
    const point: CurvePoint = {
      date: formatIsoDay(pass.days[i]),
      equity: pass.equity[i],
      index: pass.index[i],
      drawdown: risk.drawdown[i],
      pnl,
    };
    if (bench !== null) point.benchmark = bench.index[i];
    curve[i] = point;
  }

  let evaluation: Evaluation;
  if (c.n === 0) {
    warnings.unshift(
      c.trades.length === 0 && c.receives === 0
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
    const s = scoreMetrics(metrics, { benchmarkReturn: scoredBenchmark });
    const d = s.dimensions;
    evaluation = {
      engineVersion: ENGINE_VERSION,
      asOf: c.asOf,
      tier: s.tier as Tier,
      score: s.score,
      stars: {
        overall: tierStars(s.tier),
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

/**
 * Which benchmark fits a ledger: the asset class with the largest average exposure over the curve's
 * days (stocks, ETFs and options against the S&P 500; crypto against bitcoin). null when nothing
 * was ever held at a day's end.
 */
export function dominantAssetClass(ledger: Ledger | PreparedLedger): "stocks" | "crypto" | null {
  const c = "kind" in ledger ? ledger : prepareLedger(ledger, true);
  const e = ledgerPass(c).classExposure;
  const crypto = e[CRYPTO];
  const stocks = e[0] + e[1] + e[3];
  if (crypto === 0 && stocks === 0) return null;
  return crypto > stocks ? "crypto" : "stocks";
}

/** The completed round trips in closing order (the grade's journal: what the round-trip metrics count). */
export function listRoundTrips(ledger: Ledger | PreparedLedger): RoundTrip[] {
  const c = "kind" in ledger ? ledger : prepareLedger(ledger, true);
  const pass = ledgerPass(c);
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

/**
 * The XIRR of the investor's flows with the equity at asOf as the final inflow: −1 when nothing
 * came back (a total loss), null only without a deposit.
 */
function moneyWeighted(flows: Flow[], asOfMs: number, equity: number, deposits: number): number | null {
  if (deposits <= 0) return null;
  let back = Math.max(0, equity);
  for (const f of flows) if (f.amount < 0) back -= f.amount;
  if (back <= 0) return -1;
  const mwrFlows: Flow[] = flows.map((f) => ({ time: f.time, amount: -f.amount }));
  mwrFlows.push({ time: asOfMs, amount: Math.max(0, equity) });
  return xirr(mwrFlows);
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
  let wins = 0;
  let losses = 0;
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
      const eq = equityAtOpen[i];
      const f = eq > 0 ? -p / eq : 1;
      if (f > sums[7]) sums[7] = f;
    }
  }
  sums[8] = wins;
  sums[9] = losses;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fmtQty(x: number): string {
  return String(Number(x.toPrecision(12)));
}
