// The Metrics record (GRADING.md §9), gathered from the phases' figures in its documented order
// (the order of its keys is the order of the stored grade's JSON).
import type { CurrencyFigures } from "./currency";
import type { ExposureFigures } from "./exposure";
import type { Funding } from "./funding";
import type { MarketFigures } from "./market";
import type { PassResult } from "./pass";
import type { ReturnFigures } from "./returns";
import type { RiskFigures } from "./risk";
import type { RoundTripMetrics } from "./roundtrips";
import type { Metrics } from "./types";

export interface Figures {
  trades: number;
  pass: PassResult;
  unrealized: number;
  funding: Funding;
  risk: RiskFigures;
  trips: RoundTripMetrics;
  returns: ReturnFigures;
  exposure: ExposureFigures;
  market: MarketFigures;
  /** Only for a ledger with other currencies than USD (its keys are absent otherwise). */
  currency?: CurrencyFigures;
}

export function metricsOf({
  trades,
  pass,
  unrealized,
  funding,
  risk,
  trips,
  returns,
  exposure,
  market,
  currency,
}: Figures): Metrics {
  return {
    trades,
    instruments: exposure.instruments,
    accounts: exposure.accounts,
    roundTrips: trips.roundTrips,
    pieces: pass.pieces,
    realizedPnl: pass.realizedPnl,
    unrealizedPnl: unrealized,
    totalPnl: returns.totalPnl,
    fees: pass.fees,
    accountFees: pass.accountFees,
    income: pass.income,
    winRate: trips.winRate,
    profitFactor: trips.profitFactor,
    expectancy: trips.expectancy,
    avgHoldingDays: trips.avgHoldingDays,
    medianHoldingDays: trips.medianHoldingDays,
    avgWin: trips.avgWin,
    avgLoss: trips.avgLoss,
    avgWinHoldingDays: trips.avgWinHoldingDays,
    avgLossHoldingDays: trips.avgLossHoldingDays,
    holdingRatio: trips.holdingRatio,
    largestLossAmount: trips.largestLossAmount,
    tailLossRatio: trips.tailLossRatio,
    deposits: returns.deposits,
    withdrawals: returns.withdrawals,
    impliedFunding: funding.impliedFunding,
    cash: pass.cash,
    equity: pass.equityAtAsOf,
    simpleReturn: returns.simpleReturn,
    mwr: returns.fullYear ? returns.mwrRate : null,
    mwrCumulative: returns.mwrCumulative,
    twr: returns.twr,
    twrAnnualized: returns.twrAnnualized,
    maxDrawdown: risk.maxDrawdown,
    volatility: risk.volatility,
    downsideDeviation: risk.downsideDeviation,
    sharpe: risk.sharpe,
    sortino: risk.sortino,
    largestLoss: trips.largestLoss,
    maxLeverage: exposure.maxLeverage,
    concentration: exposure.concentration,
    positiveMonths: risk.positiveMonths,
    months: risk.months,
    trackRecordDays: returns.trackRecordDays,
    activeDays: returns.activeDays,
    feeDrag: exposure.feeDrag,
    psr: market.psr,
    minTrackRecordDays: market.minTrackRecordDays,
    benchmark: market.benchmark,
    alpha: market.alpha,
    beta: market.beta,
    riskFreeRate: market.riskFreeRate,
    ...currency,
    ...atCost(pass.heldAtCost),
  };
}

/** The count of symbols valued at cost for want of a trusted price; no key when there is none. */
function atCost(held: Uint8Array): { positionsAtCost?: number } {
  let n = 0;
  for (let s = 0; s < held.length; s++) n += held[s];
  return n > 0 ? { positionsAtCost: n } : {};
}
