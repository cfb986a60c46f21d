// Output types of the grading engine. All fractions are fractions (0.25 = 25 %); money is USD.
import type { Dimension, Tier } from "./score";

export interface Metrics {
  /** Trades at or before asOf. */
  trades: number;
  /** Distinct symbols traded. */
  instruments: number;
  accounts: number;
  roundTrips: number;
  /** Lot-matching pieces. */
  pieces: number;

  realizedPnl: number;
  unrealizedPnl: number;
  totalPnl: number;
  fees: number;

  winRate: number | null;
  profitFactor: number | null;
  expectancy: number | null;
  avgHoldingDays: number | null;
  medianHoldingDays: number | null;
  avgWin: number | null;
  avgLoss: number | null;
  avgWinHoldingDays: number | null;
  avgLossHoldingDays: number | null;
  /** avgLossHoldingDays ÷ avgWinHoldingDays */
  holdingRatio: number | null;
  /** Largest round-trip loss (USD, positive). */
  largestLossAmount: number | null;
  /** largestLossAmount ÷ |avgLoss| (needs ≥ 3 losing round trips). */
  tailLossRatio: number | null;

  deposits: number;
  withdrawals: number;
  /** Implied deposit when the ledger has no cash flows (null otherwise). */
  impliedFunding: number | null;
  cash: number;
  equity: number;

  simpleReturn: number | null;
  mwr: number | null;
  twr: number | null;
  twrAnnualized: number | null;

  maxDrawdown: number | null;
  volatility: number | null;
  sharpe: number | null;
  sortino: number | null;

  /** Largest round-trip loss ÷ equity right after its closing trade. */
  largestLoss: number | null;
  /** Largest |position value| ÷ equity at each day's end, averaged over the curve's days. */
  concentration: number | null;
  positiveMonths: number | null;
  months: number;
  trackRecordDays: number;
  /** Fees ÷ mean daily equity, annualised (× 365 ÷ track-record days, at least one day). */
  feeDrag: number | null;
}

export interface CurvePoint {
  date: string;
  equity: number;
  index: number;
  drawdown: number;
}

export interface Insight {
  id: string;
  text: string;
  metric: keyof Metrics | "confidence";
  /** Overall-score points this finding adds (+) or costs (−). */
  impact: number;
}

export interface Position {
  account: string;
  symbol: string;
  assetClass: "stock" | "etf" | "crypto" | "option";
  /** Signed: negative for a short. */
  quantity: number;
  /** Quantity-weighted entry price of the open lots (fees excluded). */
  avgCost: number;
  mark: number;
  /** quantity × mark (negative for a short). */
  marketValue: number;
  /** (mark − entry) × quantity of the open lots, minus their allocated entry fees. */
  unrealizedPnl: number;
}

export interface Stars {
  overall: number;
  profitability: number;
  riskControl: number;
  consistency: number;
  discipline: number;
  experience: number;
}

export interface Evaluation {
  engineVersion: string;
  asOf: string | null;
  tier: Tier | null;
  score: number | null;
  stars: Stars | null;
  confidence: number;
  provisional: boolean;
  /** Share of the supplied population strictly below this score (fraction 0–1). */
  percentile?: number | null;
  metrics: Metrics;
  /** 0–100 per dimension (null for an empty ledger). */
  dimensions: Record<Dimension, number> | null;
  positions: Position[];
  curve: CurvePoint[];
  insights: Insight[];
  warnings: string[];
}

export interface GradeOptions {
  /** Scores of a population to place this grade in (percentile = share strictly below). */
  population?: readonly number[];
}

export type { Tier, Dimension };
