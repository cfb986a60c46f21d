import { demoBrokerage } from "../mocks/plaid-data";

/** What the mapping should produce from a demo brokerage (docs/SOURCES.md's table). */
export function expectedDemoLedger(username: string) {
  const b = demoBrokerage(username);
  const cashLike = new Set(
    b.securities.filter((s) => s.is_cash_equivalent || s.type === "cash").map((s) => s.security_id),
  );
  // Splits and spin-offs are events, not trades; a cancel is an event too (its order stays a trade row).
  const plainTransfer = (t: (typeof b.transactions)[number]) =>
    t.type === "transfer" &&
    t.security_id &&
    !["split", "stock distribution", "spin off", "merger"].includes(t.subtype);
  const trades = b.transactions.filter(
    (t) => (t.type === "buy" || t.type === "sell" || plainTransfer(t)) && !cashLike.has(t.security_id!),
  );
  const flows = b.transactions.filter(
    (t) => t.type === "cash" && (t.subtype === "deposit" || t.subtype === "withdrawal"),
  );
  const transfers = b.transactions.filter(plainTransfer);
  const symbols = new Set(trades.map((t) => t.security_id));
  const events = b.transactions.filter(
    (t) =>
      (t.type === "cash" && t.subtype.includes("dividend")) ||
      t.type === "fee" ||
      t.type === "cancel" ||
      (t.type === "transfer" && t.security_id && !plainTransfer(t)),
  );
  return {
    trades: trades.length,
    cashFlows: flows.length + transfers.length,
    withdrawals: flows.filter((t) => t.subtype === "withdrawal").length,
    symbols: symbols.size,
    transactions: b.transactions.length,
    events: events.length,
  };
}
