import { demoBrokerage } from "../mocks/plaid-data";

/** What the mapping should produce from a demo brokerage (docs/SOURCES.md's table). */
export function expectedDemoLedger(username: string) {
  const b = demoBrokerage(username);
  const cashLike = new Set(b.securities.filter((s) => s.is_cash_equivalent || s.type === "cash").map((s) => s.security_id));
  const trades = b.transactions.filter((t) => (t.type === "buy" || t.type === "sell" || (t.type === "transfer" && t.security_id)) && !cashLike.has(t.security_id!));
  const flows = b.transactions.filter((t) => t.type === "cash" && (t.subtype === "deposit" || t.subtype === "withdrawal"));
  const transfers = b.transactions.filter((t) => t.type === "transfer" && t.security_id);
  const symbols = new Set(trades.map((t) => t.security_id));
  return { trades: trades.length, cashFlows: flows.length + transfers.length, withdrawals: flows.filter((t) => t.subtype === "withdrawal").length, symbols: symbols.size, transactions: b.transactions.length };
}
