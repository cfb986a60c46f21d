// What every source adapter (app/sources/*) returns: plain rows in the engine's ledger terms.
// Here (not in app/server) so adapters import nothing from the server; imports.server.ts stores them.
export type ImportedTrade = {
  externalId: string;
  time: Date;
  symbol: string;
  assetClass: "stock" | "etf" | "crypto" | "option";
  side: "buy" | "sell";
  quantity: number;
  price: number;
  fee: number;
};
export type ImportedCashFlow = { externalId: string; time: Date; amount: number };
export type ImportedMark = { symbol: string; time: Date; price: number };
/**
 * Ledger events an adapter maps besides trades (docs/SOURCES.md). The ledger builder turns them
 * into the engine's events: `shares` (a split or stock distribution, as the change in units) into
 * a split by the units held then; `cancel` removes the earliest matching trade.
 */
export type ImportedEvent = { externalId: string; time: Date } & (
  | { kind: "income"; symbol?: string; amount: number }
  | { kind: "fee"; amount: number }
  | { kind: "shares"; symbol: string; quantity: number; reason: string }
  | { kind: "spinoff"; symbol: string; quantity: number; price: number }
  | { kind: "merger"; symbol: string; to: string; ratio: number }
  | { kind: "cancel"; symbol: string; quantity: number; amount: number }
  // Units arriving from / leaving to outside the account at a USD price: a deposit (withdrawal) in kind.
  | { kind: "receive" | "send"; symbol: string; quantity: number; price: number }
);
export type ImportBatch = {
  trades: ImportedTrade[];
  cashFlows: ImportedCashFlow[];
  marks: ImportedMark[];
  events?: ImportedEvent[];
  /** Raw provider answers, stored for audit. */
  payloads: { kind: string; payload: unknown }[];
};


/** A wallet adapter's whole history at once (Solana). */
export type WalletHistory = { batch: ImportBatch; warnings: string[]; swapsSeen: number; swapsSkipped: number };
