import { formatNumber } from "./format-number";

// A live trade alert's words, for the notification list, the club's alerts tab and the header's
// toast (which must not load ./notifications and its zod schema).

const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * "Ann bought AAPL · 3.2% of the portfolio · Gold" (issue 34 point 3). The share is the trade's
 * value over the portfolio's; a quantity appears only when the trader shows sizes, and never a sum
 * of money.
 */
export function tradeAlertText(who: string, data: Record<string, unknown>): string {
  const symbol = str(data.symbol) ?? "a position";
  const verb = data.side === "sell" ? "sold" : "bought";
  const quantity = num(data.quantity);
  const share = num(data.share);
  const tier = str(data.tier);
  const parts = [
    `${who} ${verb} ${quantity !== null ? `${formatNumber(quantity, quantity % 1 ? 4 : 0)} ` : ""}${symbol}`,
  ];
  if (share !== null) parts.push(`${formatNumber(share * 100, share >= 0.1 ? 0 : 1)}% of the portfolio`);
  if (tier) parts.push(tier);
  return parts.join(" · ");
}
