// Output types of the grading engine. All fractions are fractions (0.25 = 25 %); money is USD.
import type { AssetClass } from "./ledger";
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
  /** realized + unrealized + income − accountFees. */
  totalPnl: number;
  /** Every fee: the trades' and the standalone account fees. */
  fees: number;
  /** Standalone account fees (fee events). */
  accountFees: number;
  /** Dividends, interest, staking rewards (income events). */
  income: number;

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
  /** XIRR, annualised; null for a record shorter than 365 days (GIPS: no annualising under a year). */
  mwr: number | null;
  /** (1 + XIRR)^(T ÷ 365) − 1, T = days from the first flow to asOf: the money-weighted return of the period. */
  mwrCumulative: number | null;
  twr: number | null;
  /** null for a record shorter than 365 days. */
  twrAnnualized: number | null;

  maxDrawdown: number | null;
  volatility: number | null;
  /** √(Σ min(e, 0)² ÷ n) × √365 over the active days' excess returns e (v3.3: what risk control scores). */
  downsideDeviation: number | null;
  sharpe: number | null;
  sortino: number | null;

  /** Largest round-trip loss ÷ total equity just before its opening trade (1 when that equity ≤ 0). */
  largestLoss: number | null;
  /** Largest gross exposure (Σ |position value|) ÷ equity after any trade. */
  maxLeverage: number | null;
  /** Largest |position value| ÷ equity at each day's end, averaged over the curve's days. */
  concentration: number | null;
  positiveMonths: number | null;
  months: number;
  trackRecordDays: number;
  /** UTC days with a trade, or with a position open at the day's start. */
  activeDays: number;
  /** Fees ÷ mean equity of the active days, annualised (× 365 ÷ active days, at least one). */
  feeDrag: number | null;
  /** Probability that the true Sharpe ratio is above 0, from the active days' returns. */
  psr: number | null;
  /** Active days of record needed for 95 % confidence in a positive Sharpe ratio (null when SR ≤ 0). */
  minTrackRecordDays: number | null;
  benchmark: BenchmarkMetrics | null;
  /**
   * Jensen's alpha against the benchmark over the risk-free rate, from the first money in: the
   * period's under a year, annualised over calendar days from a year (null without a benchmark).
   */
  alpha: number | null;
  /** Beta to the benchmark over the same days (null without a benchmark). */
  beta: number | null;
  /** Mean annual risk-free rate over the record's days (null without a risk-free series: 0 was used). */
  riskFreeRate: number | null;

  // Every currency (v3.1, §5): present only for a ledger in another base than USD (baseCurrency)
  // or holding a currency other than its base (the rest), so a USD ledger's output is unchanged.
  /** The currency every figure is in (absent: USD). */
  baseCurrency?: string;
  /** The other currencies the ledger holds. */
  currencies?: string[];
  /** The TWR without the currency moves: each day's return at the rates it started with. */
  localReturn?: number | null;
  /** The currency's part: (1 + twr) = (1 + localReturn) × (1 + currencyReturn). */
  currencyReturn?: number | null;
  /** FX P&L realized on foreign cash (spent, withdrawn or exchanged) and on exchanges; part of realizedPnl. */
  fxRealizedPnl?: number;
  /** All FX P&L on foreign cash, realized and not (the rest is in unrealizedPnl). */
  fxPnl?: number;

  // Prices the trader cannot move (v3.3, §1 "Marks"): present only when a mark was held back.
  /** Symbols whose untrusted marks were held at their last trusted price (cost) at least once. */
  positionsAtCost?: number;
}

export interface BenchmarkMetrics {
  symbol: string;
  /** B(asOf) ÷ B(first activity) − 1, prices carried forward. */
  return: number;
  /** twr − return. */
  excess: number | null;
  beta: number | null;
  /** Jensen's alpha, annualised; null under 365 days. */
  alpha: number | null;
  /** t-statistic of the daily alpha (null when it is not 0 but nothing is left unexplained). */
  alphaT: number | null;
  /** The benchmark's Sharpe ratio over the record's active days (over the risk-free rate, annualised). */
  sharpe: number | null;
  /** Probability that the record's true Sharpe ratio beats the benchmark's (PSR with SR* = its Sharpe). */
  psr: number | null;
  /** Share of the active months that beat the benchmark's month (a tie counts half). */
  monthsAhead: number | null;
}

export interface CurvePoint {
  date: string;
  equity: number;
  index: number;
  drawdown: number;
  /** The day's profit or loss: equity change net of the day's deposits and withdrawals. */
  pnl: number;
  /** The benchmark's level ÷ its level at the first activity (only with a benchmark). */
  benchmark?: number;
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
  assetClass: AssetClass;
  /** Signed: negative for a short. In contracts when the symbol has a multiplier. */
  quantity: number;
  /** Contract size, only when not 1 (v3.2). */
  multiplier?: number;
  /** Quantity-weighted entry price of the open lots (fees excluded), quoted per unit. */
  avgCost: number;
  mark: number;
  /** quantity × multiplier × mark: the notional (negative for a short). */
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

/** A completed round trip (listRoundTrips), for journals and breakdowns. */
export interface RoundTrip {
  account: string;
  symbol: string;
  assetClass: AssetClass;
  side: "long" | "short";
  /** ISO times of the opening and the closing trade. */
  openTime: string;
  closeTime: string;
  /** Quantity-weighted mean holding time of its pieces (days). */
  holdingDays: number;
  /** Σ entry price × quantity of its pieces (USD). */
  entryNotional: number;
  pnl: number;
  /** pnl ÷ entryNotional. */
  return: number | null;
}
