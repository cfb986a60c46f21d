// The prepared ledger: the columnar form of a validated ledger that grade() works on. Typed
// arrays sized up front, strings interned into integer ids, trades sorted by (time, id) and cut at
// asOf. Preparing (prepareLedger, prepare.ts) is the only step that reads the trade objects; it
// belongs to parsing (one pass over the input, like validation), so a ledger graded several times
// is prepared once.
import { benchmarkInBase, type FxInfo } from "./fx";
import type { AssetClass, Ledger } from "./ledger";
import type { Expired } from "./prepare/expiry";
import { parseIsoMs } from "./time";

/** An asset class's column code: its index in ASSET_CLASSES. */
export const CLASS_CODES = {
  stock: 0,
  etf: 1,
  crypto: 2,
  option: 3,
  future: 4,
  forex: 5,
  cfd: 6,
} as const satisfies Record<AssetClass, number>;
export const CRYPTO = 2;

/** Trade rows that are not trades: units arriving from or leaving to outside (ledger v2 receive/send). */
export const ROW_TRADE = 0;
export const ROW_RECEIVE = 1;
export const ROW_SEND = 2;
/** A fee paid in kind (v3.3): the units leave as a sale whose proceeds pay the fee. */
export const ROW_FEE = 3;
/**
 * Income received in kind (v3.4): its value is income, which buys the units. ROW_INCOME's price is
 * vouched for; ROW_INCOME_HELD's is not, and counts at no more than the symbol's trusted price (0 without one).
 */
export const ROW_INCOME = 4;
export const ROW_INCOME_HELD = 5;
/**
 * A trade whose price its source does not vouch for (v3.4, `confidence` below TRUSTED_CONFIDENCE): a
 * real fill for cash and cost, whose price marks the symbol like an untrusted mark (down, never up).
 */
export const ROW_THIN = 6;

/** A row that is a trade (a fill), not a move in kind. */
export const isTradeRow = (row: number): boolean => row === ROW_TRADE || row === ROW_THIN;

/** Event kinds the pass handles between trades, with their rank among items at one instant. */
export const EV_INCOME = 0;
export const EV_FEE = 1;
export const EV_SPLIT = 2;
export const EV_RENAME = 3;
export const EV_SPINOFF = 4;
export const EV_TRANSFER = 5;
/** Internal (fx.ts): a currency's rate changes (first at its instant); a gain or loss on an exchange. */
export const EV_FXRATE = 6;
export const EV_FXPNL = 7;
export const EV_RANK = [2, 2, 3, 3, 3, 4, 0, 2];
export const EV_CODES: Record<string, number> = {
  income: EV_INCOME,
  fee: EV_FEE,
  split: EV_SPLIT,
  rename: EV_RENAME,
  spinoff: EV_SPINOFF,
  transfer: EV_TRANSFER,
};

/** A ledger event other than receive/send, decoded (strings interned); -1 where a field is absent. */
export interface PreparedEvent {
  time: number;
  kind: number;
  /** Index in ledger.events (-1: an internal event of fx.ts). */
  src: number;
  /** account (income, fee, split) or from-account (transfer); the currency's index (EV_FXRATE). */
  acc: number;
  /** to-account (transfer). */
  acc2: number;
  /** symbol, or from-symbol (rename). */
  sym: number;
  /** to-symbol (rename) or newSymbol (spinoff). */
  sym2: number;
  /** amount (income, fee), ratio (split, rename, spinoff), quantity (transfer), cash re-valued or gained (EV_FXRATE, EV_FXPNL). */
  x: number;
  /** costFraction (spinoff); new rate ÷ old (EV_FXRATE). */
  y: number;
}

export interface PreparedLedger {
  readonly kind: "prepared";
  /** The validated ledger it was prepared from (trade ids, names for warnings). */
  trades: Ledger["trades"];
  /** Its events (receive/send rows of the trade columns point here: src ≥ trades.length). */
  events: Ledger["events"];
  /** Trades at or before asOf, in (time, id) order. */
  n: number;
  time: Float64Array;
  qty: Float64Array;
  price: Float64Array;
  fee: Float64Array;
  /** +1 buy, -1 sell */
  dir: Int8Array;
  cls: Uint8Array;
  sym: Int32Array;
  acc: Int32Array;
  /** Dense id of (account, symbol). */
  pos: Int32Array;
  /** Index of the trade in ledger.trades, or trades.length + index in ledger.events (receive/send). */
  src: Uint32Array;
  /** ROW_TRADE, or the in-kind row's kind (ROW_RECEIVE … ROW_INCOME_HELD). */
  row: Uint8Array;
  symbols: string[];
  /** Asset class code of each symbol (its first trade's, or the receive's, or inherited through a rename or spin-off). */
  symCls: Uint8Array;
  accounts: string[];
  posSym: Int32Array;
  posAcc: Int32Array;
  nPos: number;
  /** Cash flows at or before asOf, sorted by (time, account, amount). */
  flowTime: Float64Array;
  flowAmount: Float64Array;
  /** Price marks at or before asOf for traded symbols, sorted by (time, symbol, price). */
  markTime: Float64Array;
  markSym: Int32Array;
  markPrice: Float64Array;
  /** 1 where the mark's confidence is at least TRUSTED_CONFIDENCE: it may raise a value; 0: it may only lower one. */
  markTrusted: Uint8Array;
  /** Events other than receive/send at or before asOf, in instant order (see sortEvents). */
  ev: PreparedEvent[];
  /** Receive and send events at or before asOf (deposits and withdrawals in kind). */
  receives: number;
  sends: number;
  /** Fees paid in kind at or before asOf (v3.3). */
  inKindFees: number;
  /** Income received in kind at or before asOf (v3.4). */
  inKindIncome: number;
  /** Trades at or before asOf whose price is not vouched for (v3.4, ROW_THIN). */
  thinTrades: number;
  /** Benchmark closes in time order (empty without a benchmark). */
  benchSymbol: string | null;
  benchTime: Float64Array;
  benchPrice: Float64Array;
  /** Risk-free annual yields (fractions) in time order (empty without a series: a rate of 0). */
  rfSymbol: string | null;
  rfTime: Float64Array;
  rfRate: Float64Array;
  asOfMs: number;
  asOf: string | null;
  /** Earliest trade or cash flow at or before asOf (NaN when none). */
  firstMs: number;
  /** The trader's time zone when not UTC (v3.3): where each curve day starts. */
  timeZone?: string;
  excludedTrades: number;
  excludedFlows: number;
  excludedEvents: number;
  /** Only for a ledger with other currencies than its base (fx.ts): what converting it gave. */
  fx?: FxInfo;
  /** With fx: each symbol's index in fx.currencies, -1 for the base currency. */
  symCur?: Int32Array;
  /**
   * Only when a trade names a multiplier other than 1: each symbol's contract size (1 beyond its
   * length). Quantities in the columns are then units of the underlying (quantity × multiplier).
   */
  symMult?: Float64Array;
  /** Contracts open past their expiry, closed by a trade the engine wrote (prepare/expiry.ts). */
  expired?: Expired[];
}

/** Benchmark closes, in time order (all of them: they are carried forward up to asOf). */
export function benchColumns(bench: Ledger["benchmark"]) {
  const order = bench
    ? bench.prices.map((p, i) => ({ t: parseIsoMs(p.time), p: p.price, i })).sort((a, b) => a.t - b.t || a.i - b.i)
    : [];
  return {
    benchSymbol: bench ? bench.symbol : null,
    benchTime: Float64Array.from(order, (x) => x.t),
    benchPrice: Float64Array.from(order, (x) => x.p),
  };
}

/**
 * A prepared ledger with another benchmark: what preparing the ledger with it gives, without
 * preparing its trades again (the server picks the benchmark from the prepared ledger's exposure).
 */
export function withBenchmarkColumns(c: PreparedLedger, benchmark: Ledger["benchmark"]): PreparedLedger {
  if (c.fx !== undefined) return { ...c, ...benchColumns(benchmarkInBase(benchmark, c.fx.rates)) };
  return { ...c, ...benchColumns(benchmark) };
}

/** Risk-free yields, in time order (all of them: they are carried forward like the benchmark). */
export function riskFreeColumns(riskFree: Ledger["riskFree"]) {
  const order = riskFree
    ? riskFree.rates.map((p, i) => ({ t: parseIsoMs(p.time), r: p.rate, i })).sort((a, b) => a.t - b.t || a.i - b.i)
    : [];
  return {
    rfSymbol: riskFree ? riskFree.symbol : null,
    rfTime: Float64Array.from(order, (x) => x.t),
    rfRate: Float64Array.from(order, (x) => x.r),
  };
}

/** A prepared ledger with another risk-free series (the server adds it after preparing, like the benchmark). */
export function withRiskFreeColumns(c: PreparedLedger, riskFree: Ledger["riskFree"]): PreparedLedger {
  return { ...c, ...riskFreeColumns(riskFree) };
}
