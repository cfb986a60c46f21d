// What every source adapter (app/sources/*) returns: plain rows in the engine's ledger terms.
// Here (not in app/server) so adapters import nothing from the server; imports.server.ts stores them.
import type { AssetClass } from "~/lib/vocabulary";

export type ImportedTrade = {
  externalId: string;
  time: Date;
  symbol: string;
  assetClass: AssetClass;
  side: "buy" | "sell";
  quantity: number;
  price: number;
  fee: number;
  /** The currency of price and fee as the provider gave it (ISO 4217 or its unofficial code); absent: USD. */
  currency?: string;
  /** Contract size (ES: 50, an option: 100); absent: 1. Cash P&L = quantity × price × multiplier. */
  multiplier?: number;
  /** A future's (or option's) last day, ISO date. */
  expiry?: string;
  /**
   * How far the price source vouches for the fill's price as a market price, 0–1 (a wallet's swap:
   * DefiLlama's confidence in the token then, 0 when it quotes none). Absent: a market fill.
   */
  confidence?: number;
};
export type ImportedCashFlow = { externalId: string; time: Date; amount: number; currency?: string };
/** A price of the symbol at a time, in its currency (absent: USD). */
export type ImportedMark = { symbol: string; time: Date; price: number; currency?: string };
/**
 * Ledger events an adapter maps besides trades (docs/SOURCES.md). The ledger builder turns them
 * into the engine's events: `shares` (a split or stock distribution, as the change in units) into
 * a split by the units held then; `cancel` removes the earliest matching trade. `currency`: of
 * its amounts and prices (absent: USD).
 */
export type ImportedEvent = { externalId: string; time: Date; currency?: string } & (
  | { kind: "income"; symbol?: string; amount: number }
  // Income received in kind (an airdrop claimed): the units at their USD price then, 0 when unknown (DECISIONS 213).
  | { kind: "income"; symbol: string; quantity: number; price: number; source?: string; confidence?: number }
  | { kind: "fee"; amount: number }
  // A fee paid in kind (gas in ETH or SOL): the units at their USD price then, when known (DECISIONS 211).
  | { kind: "fee"; symbol: string; quantity: number; price?: number }
  | { kind: "shares"; symbol: string; quantity: number; reason: string }
  | { kind: "spinoff"; symbol: string; quantity: number; price: number }
  | { kind: "merger"; symbol: string; to: string; ratio: number }
  | { kind: "cancel"; symbol: string; quantity: number; amount: number }
  // Units arriving from / leaving to outside the account at a USD price: a deposit (withdrawal) in kind.
  // `txId` (the chain transaction) and `address` (the other end's, as an exchange's record names it)
  // let the ledger pair it with the trader's other account (app/server/grades/transfers.ts).
  | { kind: "receive" | "send"; symbol: string; quantity: number; price: number; txId?: string; address?: string }
  // The native coin wrapped or unwrapped (ETH → WETH, SOL → WSOL): the engine's transfer within the
  // account to `toSymbol`, keeping cost and dates (DECISIONS 212, 213).
  | { kind: "wrap"; symbol: string; quantity: number; toSymbol: string; toQuantity: number }
  // One cash balance exchanged for another (a currency conversion), `fee` in the sold currency.
  // `currency` names the side that is not USD, so the ledger reads the trader row by row with rates.
  | { kind: "fx"; sell: string; sellAmount: number; buy: string; buyAmount: number; fee?: number }
);
export type ImportBatch = {
  trades: ImportedTrade[];
  cashFlows: ImportedCashFlow[];
  marks: ImportedMark[];
  events?: ImportedEvent[];
  /** Raw provider answers, stored for audit. */
  payloads: { kind: string; payload: unknown }[];
};

/**
 * The next part of a mapped history to store (pure): at most `size` of its trades, cash flows and
 * events, in the order of their keys ("t:", "c:", "e:" + external id), after the key `after` (the
 * last one a previous part stored). A cursor by key rather than by position, so a worker that maps
 * the history again after a crash resumes where the stored parts end even if the mapping moved.
 * `last` is the key to resume after, null when this part ends the history.
 */
export function nextBatchPart(
  batch: Omit<ImportBatch, "payloads">,
  after: string | null,
  size: number,
): { part: Omit<ImportBatch, "payloads">; last: string | null } {
  type Keyed = { key: string; trade?: ImportedTrade; cashFlow?: ImportedCashFlow; event?: ImportedEvent };
  const keyed: Keyed[] = [
    ...batch.trades.map((row) => ({ key: `t:${row.externalId}`, trade: row })),
    ...batch.cashFlows.map((row) => ({ key: `c:${row.externalId}`, cashFlow: row })),
    ...(batch.events ?? []).map((row) => ({ key: `e:${row.externalId}`, event: row })),
  ]
    .filter((r) => after === null || r.key > after)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = keyed.slice(0, size);
  // Marks (a price at a time, upserted) go with the first part.
  const part = {
    trades: [] as ImportedTrade[],
    cashFlows: [] as ImportedCashFlow[],
    marks: after === null ? batch.marks : [],
    events: [] as ImportedEvent[],
  };
  for (const r of rows) {
    if (r.trade) part.trades.push(r.trade);
    else if (r.cashFlow) part.cashFlows.push(r.cashFlow);
    else if (r.event) part.events.push(r.event);
  }
  return { part, last: keyed.length > size ? rows[rows.length - 1]!.key : null };
}
